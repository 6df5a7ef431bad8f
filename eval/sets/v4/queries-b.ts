// memledger-v4's temporal-reference, next-turn, multi-hop, multi-scope and false-premise queries.
import type { Q } from './queries-a.ts';

export const TEMPORAL_REFERENCE: Q[] = [
  { text: 'what did I tell you about my blood pressure in May', expect: ['lk18-t0'] },
  { text: 'what did the doctor say at the check-up this month', expect: ['lk35-t0'] },
  { text: 'what went wrong with the renovation in early March', expect: ['lk10-t0'] },
  { text: 'how many kilometres had I cycled in August', expect: ['lk27-t4'] },
  { text: 'what sleep problem did I have in January', expect: ['lk05-t0'] },
  { text: 'what sleep problem did I mention in September', expect: ['lk40-t0'] },
  { text: 'what did I ask about salt in February', expect: ['lk37-t0'] },
  { text: 'what did I tell you about the bees last week', at: '2026-09-30T18:00:00Z', expect: ['lk31-t0'] },
  { text: 'which holiday did we plan two weeks ago', at: '2026-07-09T18:00:00Z', expect: ['lk23-t0'] },
  { text: 'what happened at work yesterday', at: '2026-06-04T18:00:00Z', expect: ['lk20-t0'] },
  { text: "what did I say about Emma's school in June", expect: ['lk21-t0'] },
  { text: 'which trip did we come back from in April', expect: ['lk14-t0'] },
  { text: 'what did I tell you about my father in May', expect: ['lk19-t0'] },
  { text: 'what was said about the Leoben deadline in July', expect: ['sk04-t0'] },
  { text: 'what did Anke buy in September', expect: ['sk09-t0'] },
  { text: 'what was the Christmas party plan at the start of October', expect: ['sk10-t2'] },
  { text: 'what did I say about the loan in January', expect: ['lk04-t0'] },
  { text: 'what did I say about my bike last month', at: '2026-05-10T18:00:00Z', expect: ['lk16-t0'] },
];

export const NEXT_TURN: Q[] = [
  { text: 'should I buy a wrist or an arm blood pressure monitor', expect: ['lk01-t3'] },
  { text: 'can I pay off the renovation loan early', expect: ['lk04-t5'] },
  { text: 'should I take ramipril in the morning or the evening', expect: ['lk07-t5'] },
  { text: 'apartment or hotel with two kids in Istria', expect: ['lk11-t3'] },
  { text: 'what else can I batch cook that is low in salt', expect: ['lk12-t7'] },
  { text: 'how can I help Emma with reading without pushing too much', expect: ['lk30-t7'] },
  { text: 'tips for the heat in a bedroom under the roof', expect: ['lk24-t7'] },
  { text: 'should I go tubeless', expect: ['lk39-t5'] },
  { text: 'should Dad see a doctor about the snoring', expect: ['lk40-t5'] },
  { text: 'should we take the train to Trieste instead', expect: ['lk34-t7'] },
  { text: 'can I take the gravel bike to the Dolomites', expect: ['lk23-t5'] },
  { text: 'how much salt is in a Leberkässemmel', expect: ['lk37-t3'] },
  { text: 'it gets cold and dark in November and December, any cycling tips', expect: ['lk32-t3'] },
  { text: 'Harald was a candidate for my job too', expect: ['lk33-t3'] },
  { text: "who takes over Chiara's projects during her leave", expect: ['sk06-t7'] },
  { text: 'can Anke charge the e-car at home', expect: ['sk09-t4'] },
  { text: 'are the façade samples still in the old second floor storage', expect: ['sk13-t4'] },
  { text: 'Emma got stung by a wasp and cried', expect: ['lk27-t7'] },
];

export const MULTI_HOP: Q[] = [
  { text: 'how many days after the campsite booking ended did Dad move in', expect: ['lk23-t6', 'lk25-t4'] },
  {
    text: "how much did my resting heart rate fall from April's figure to October's",
    expect: ['lk16-t6', 'lk32-t6'],
  },
  {
    text: "how much cheaper per month is St. Peter's afternoon care than Waltendorf's",
    expect: ['lk08-t4', 'lk21-t4'],
  },
  {
    text: 'how far did my blood pressure fall from the first GP reading to the November check-up',
    expect: ['lk01-t0', 'lk35-t0'],
  },
  { text: 'which friend did Emma have at each of the two schools', expect: ['lk08-t2', 'lk21-t2'] },
  { text: "what did we pay Hofer Bau and what was Pichler's final invoice", expect: ['lk13-t2', 'lk36-t0'] },
  {
    text: 'how many kilometres did I ride between the end of April and the return from the Dolomites',
    expect: ['lk16-t4', 'lk27-t4'],
  },
  { text: 'was the bathroom usable by the date old Pichler promised', expect: ['lk13-t6', 'lk25-t2'] },
  { text: 'what are the names of all my hives', expect: ['lk15-t6', 'lk31-t2'] },
  {
    text: 'is the deputy who took over my shift supportive now that I manage the leads',
    expect: ['lk20-t6', 'lk33-t6'],
  },
  { text: "how long after Chiara's parental leave started was her son born", expect: ['sk06-t3', 'sk12-t0'] },
  {
    text: 'how much time was left before the extended Leoben deadline when the entry went in',
    expect: ['sk04-t0', 'sk05-t0'],
  },
  { text: 'what did the first and the second renovation quotes come to', expect: ['lk02-t2', 'lk13-t2'] },
  {
    text: 'how many cups of coffee did I drink before and after changing the habit',
    expect: ['lk05-t4', 'lk12-t4'],
  },
  { text: 'where did we go at Easter and in the autumn, and on which dates', expect: ['lk11-t4', 'lk34-t2'] },
  { text: 'which two venues were planned for the studio Christmas party', expect: ['sk10-t2', 'sk11-t0'] },
  {
    text: 'did Anke get the window corner she wanted after the move to the fourth floor',
    expect: ['sk08-t3', 'sk12-t4'],
  },
];

export const MULTI_SCOPE: Q[] = [
  { text: 'what units does Lukas prefer', expect: ['n-prefers-metric'] },
  { text: 'how does Lukas like his answers', expect: ['n-prefers-short'] },
  { text: 'what kind of house does Lukas live in and where', expect: ['n-home'] },
  { text: 'how old is Lukas and who is in his family', expect: ['n-family'] },
  { text: "when was Chiara's son born", expect: ['sk12-t0'] },
  { text: 'which floor is the Studio Kern office moving to', expect: ['sk08-t0'] },
  { text: 'which songs does Bilal play at the concert', expect: ['sk11-t8'] },
  { text: 'what problem did the survey show on the Leoben site', expect: ['sk02-t3'] },
  { text: 'when does the studio intern start and for how many hours', expect: ['sk07-t7'] },
  { text: 'where did the studio summer party move to', expect: ['sk03-t2'] },
  { text: 'who called the service company about the leaking coffee machine', expect: ['sk04-t6'] },
  { text: 'what hobby is Lukas taking up and where', expect: ['n-hobby'] },
  { text: "what is Lukas's father's name and where did he live", expect: ['n-father'] },
  { text: 'did the studio win the Leoben competition', expect: ['sk08-t6'] },
  { text: 'who leads the Leoben project now', expect: ['sk13-t0'] },
  { text: 'when does Lukas go to bed', expect: ['n-bedtime'] },
];

export const FALSE_PREMISE: Q[] = [
  { text: 'what did the doctor say about my cholesterol', expect: [] },
  { text: 'when is my knee surgery scheduled', expect: [] },
  { text: 'what did we pay for the new garage roof', expect: [] },
  { text: 'how did Felix do at his first piano recital', expect: [] },
  { text: 'which hotel did we book in Venice', expect: [] },
  { text: 'what is the name of my dog', expect: [] },
  { text: 'when did I sell the gravel bike', expect: [] },
  { text: 'what marathon time did Bilal run', expect: [] },
  { text: 'why did Anke quit Studio Kern', expect: [] },
  { text: 'how much did the swimming pool in the garden cost', expect: [] },
  { text: 'what did my mother say about moving in with us', expect: [] },
  { text: 'when did Sabine start her new job at the bank', expect: [] },
  { text: 'how many chickens do I keep on the allotment', expect: [] },
  { text: 'what did the dentist say about my wisdom teeth', expect: [] },
  { text: 'which vegan restaurant did Chiara recommend', expect: [] },
  { text: 'when did we move to Vienna', expect: [] },
  { text: 'what did I decide about solar panels on the roof', expect: [] },
];
