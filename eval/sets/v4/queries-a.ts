// memledger-v4's keyword, paraphrase, paraphrase-no-overlap and knowledge-update queries.
import type { EvalQueryInput } from '../../format.ts';

/** A query as the tables write it: the builder adds the id, the category and the default scopes. */
export type Q = Omit<EvalQueryInput, 'id' | 'category'>;
const NOTES = ['agent:helper'];

export const KEYWORD: Q[] = [
  { text: 'Omron monitor Leonhardstraße pharmacy', expect: ['lk01-t4'] },
  { text: 'Hofer Bau quote 41,000 euros', expect: ['lk02-t2'] },
  { text: 'Raiffeisen loan 38,000 fixed 4.1 percent', expect: ['lk04-t0'] },
  { text: 'Imkerschule course 180 euros', expect: ['lk09-t4'] },
  { text: 'asbestos tile glue extra 2,800', expect: ['lk10-t4'] },
  { text: 'Rovinj apartment near the harbour', expect: ['lk11-t4'] },
  { text: 'Schöckl Radegund gravel road', expect: ['lk16-t2'] },
  { text: 'interview Frau Wagner regional director', expect: ['lk17-t4'] },
  { text: 'Bergkäse', expect: ['lk18-t6'] },
  { text: 'Campingplatz Sankt Magdalena', expect: ['lk23-t6'] },
  { text: 'cuckoo clock armchair', expect: ['lk25-t6'] },
  { text: 'Seniorentreff Tuesdays', expect: ['lk28-t6'] },
  { text: 'Frau Riedl', expect: ['lk30-t0'] },
  { text: 'varroa formic acid treatment', expect: ['lk31-t4'] },
  { text: 'Harald loading plan', expect: ['lk33-t0'] },
  { text: 'hotel Piazza Unità', expect: ['lk34-t2'] },
  { text: 'Leberkässemmel', expect: ['lk37-t2'] },
  { text: 'Maribor 142 km', expect: ['lk39-t0'] },
  { text: 'Taskboard authenticator app', expect: ['sk01-t1'] },
  { text: 'Kia e-Niro', expect: ['sk09-t0'] },
];

export const PARAPHRASE: Q[] = [
  { text: 'what did the doctor find at my December check-up', expect: ['lk01-t0'] },
  { text: 'how much interest will I pay over the whole loan', expect: ['lk04-t3'] },
  { text: 'which breed of bees did I get for the allotment', expect: ['lk15-t0'] },
  { text: 'what did my son catch on the Croatia trip', expect: ['lk14-t2'] },
  { text: 'who will take over my old shift as its lead', expect: ['lk20-t6'] },
  { text: 'how long did the first mountain climb on the new bike take', expect: ['lk16-t2'] },
  { text: "what are the names of Anke's hens", expect: ['sk05-t9'] },
  { text: 'what did Chiara build for the baby', expect: ['sk10-t9'] },
  { text: "how much did Emma's school bag cost in the end", expect: ['lk29-t4'] },
  { text: 'what side effect of the blood pressure pills should I watch for', expect: ['lk07-t3'] },
  { text: 'how do I stay warm riding in the cold months', expect: ['lk32-t3'] },
  { text: 'how big was our first honey harvest', expect: ['lk31-t0'] },
  { text: "what should Dad's doctor hear about his snoring", expect: ['lk40-t5'] },
  { text: 'which tiles did we pick for the bathroom floor', expect: ['lk38-t8'] },
  { text: 'what could replace my Friday sausage roll lunch', expect: ['lk37-t5'] },
  { text: 'when was the Leoben competition entry finally handed in', expect: ['sk05-t0'] },
  { text: 'which student did the team choose for the internship', expect: ['sk07-t8', 'sk07-t10'] },
  { text: "how far can Anke's car drive on one charge", expect: ['sk09-t2'] },
];

export const PARAPHRASE_NO_OVERLAP: Q[] = [
  { text: 'how elevated was my hypertension figure originally', expect: ['lk01-t0'] },
  { text: 'which new pastime involving honey insects did I consider', expect: ['lk09-t0'] },
  { text: 'what price was my latest bicycle purchase', expect: ['lk16-t0'] },
  { text: 'what accident did Dad suffer at home', expect: ['lk19-t0'] },
  { text: 'what evening routine cured my insomnia', expect: ['lk24-t0'] },
  { text: 'which countertop material did we settle on', expect: ['lk22-t4'] },
  { text: 'how big is my pay rise after the promotion', expect: ['lk20-t2'] },
  { text: 'how much caffeine was I consuming before cutting down', expect: ['lk05-t4'] },
  { text: 'what did the family do during those wet spring holiday days', expect: ['lk14-t2'] },
  { text: 'what did the whole remodel cost altogether', expect: ['lk36-t2'] },
  { text: "which date is my daughter's first day as a pupil", expect: ['lk29-t0'] },
  { text: 'how much weight have I shed this year', expect: ['lk35-t2'] },
  { text: 'where did we wash while the washroom was unusable', expect: ['lk10-t2'] },
  { text: 'which coworker is expecting a baby', expect: ['sk06-t0'] },
  { text: 'what instrument is a colleague learning to play', expect: ['sk05-t3'] },
  { text: 'why was the rooftop celebration cancelled', expect: ['sk03-t0'] },
  { text: 'which insect hurt my little girl while camping', expect: ['lk27-t6'] },
  { text: 'who replaced the builders we dismissed', expect: ['lk13-t0'] },
];

export const KNOWLEDGE_UPDATE: Q[] = [
  {
    text: 'who is the renovation contractor',
    scopes: NOTES,
    expect: ['n-contractor-2'],
    mustNot: ['n-contractor-1'],
  },
  {
    text: 'interest rate of the renovation loan',
    scopes: NOTES,
    expect: ['n-loan-2'],
    mustNot: ['n-loan-1'],
  },
  { text: 'what dose of ramipril does Lukas take', scopes: NOTES, expect: ['n-med-2'], mustNot: ['n-med-1'] },
  { text: "Lukas's cycling goal in km for 2026", scopes: NOTES, expect: ['n-goal-2'], mustNot: ['n-goal-1'] },
  { text: 'which school does Emma go to', scopes: NOTES, expect: ['n-school-2'], mustNot: ['n-school-1'] },
  { text: 'what bike does Lukas ride', scopes: NOTES, expect: ['n-bike-2'], mustNot: ['n-bike-1'] },
  { text: "what is Lukas's job at the depot", scopes: NOTES, expect: ['n-job-2'], mustNot: ['n-job-1'] },
  { text: 'when does Walter move in', scopes: NOTES, expect: ['n-move-2'], mustNot: ['n-move-1'] },
  {
    text: 'how many bee colonies does Lukas keep',
    scopes: NOTES,
    expect: ['n-hives-2'],
    mustNot: ['n-hives-1'],
  },
  {
    text: 'how much coffee does Lukas drink a day',
    scopes: NOTES,
    expect: ['n-coffee-2'],
    mustNot: ['n-coffee-1'],
  },
  { text: "Lukas's latest blood pressure reading", scopes: NOTES, expect: ['n-bp-2'], mustNot: ['n-bp-1'] },
  { text: 'what is my cycling goal for the year now', expect: ['lk32-t0'] },
  { text: 'which school will Emma attend in September', expect: ['lk21-t0'] },
  { text: 'what interest rate is the renovation loan at now', expect: ['lk26-t0'] },
  { text: 'when is Dad moving in with us', expect: ['lk25-t4'] },
  { text: 'what dose of ramipril am I on now', expect: ['lk18-t0'] },
  { text: 'where is the studio Christmas party this year', expect: ['sk11-t0'] },
  { text: 'what worktop are we getting in the new kitchen', expect: ['lk22-t4'] },
  { text: 'how many hives do I have now', expect: ['lk31-t2'] },
];
