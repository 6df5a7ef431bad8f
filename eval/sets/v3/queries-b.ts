/**
 * The v3 set's queries, part two: temporal-reference, next-turn, multi-hop, multi-scope and false-premise. The
 * set's `now` is Monday 2026-09-28T19:00Z; a query with `at` is asked at another reference time.
 */
import { FRIENDS_SCOPE, NOTES_SCOPE, USER_SCOPE } from './memories.ts';
import type { Q } from './queries-a.ts';
import { turn as t } from './sessions.ts';

const ALL_SCOPES = [USER_SCOPE, FRIENDS_SCOPE, NOTES_SCOPE];

/** A time in the question ("last month", "in March", "two weeks ago") picks one of several look-alike chats. */
export const TEMPORAL_REFERENCE: Q[] = [
  { text: 'which running shoes did I buy in August', expect: [t('m27-half-marathon', 2)] },
  { text: 'which running shoes did I buy in July 2025', expect: [t('m01-running-restart', 6)] },
  { text: 'what did the vet say about Biscuit in December', expect: [t('m10-biscuit-itchy', 2)] },
  { text: "what did the vet say about Biscuit's food in June", expect: [t('m24-manager-change', 4)] },
  { text: 'what race did I run two weeks ago', expect: [t('m34-gnr-result', 0)] },
  { text: 'how did my race go in April', expect: [t('m21-marathon-done', 0)] },
  { text: 'what was I annoyed about at work in December', expect: [t('m12-job-restless', 0)] },
  { text: 'what meals did I ask you for in November', expect: [t('m30-dinner-week', 0)] },
  { text: 'what did I plan for coffee in January', expect: [t('m31-coffee-cut', 2)] },
  { text: 'what was my marathon goal in September 2025', expect: [t('m05-marathon-decision', 2)] },
  { text: 'what did I decide about my marathon goal in February', expect: [t('m17-calf-strain', 6)] },
  { text: 'which book was I reading yesterday', at: '2026-07-02T10:00:00Z', expect: [t('m25-books', 4)] },
  {
    text: 'what book did I download for the flight last month',
    at: '2026-10-20T09:00:00Z',
    expect: [t('m35-japan-packing', 6)],
  },
  { text: 'what trip was I planning in August 2025', expect: [t('m03-portugal-plan', 0)] },
  { text: 'what trip did I book in July', expect: [t('m26-japan-plan', 0)] },
  { text: 'what did Jonas have on his pancakes in February', expect: [t('f11-pancakes', 1)] },
  {
    text: "what did the GP say about Jonas's knee last month",
    at: '2026-08-05T12:00:00Z',
    expect: [t('f09-wedding-knee', 7)],
  },
  { text: 'what did I book last week', expect: [t('m35-japan-packing', 4)] },
  { text: 'what did I book yesterday', at: '2026-09-09T09:00:00Z', expect: [t('m28-wedding-after', 8)] },
  { text: 'what problem did I have with Biscuit in November', expect: [t('m29-recall-training', 0)] },
];

/** The question's words find a turn; the answer is the reply to it. */
export const NEXT_TURN: Q[] = [
  { text: 'my old trainers are five years old, do I need new ones', expect: [t('m01-running-restart', 5)] },
  { text: 'is there a dog rescue near Manchester', expect: [t('m02-dog-thinking', 7)] },
  {
    text: 'what should I not miss in Lisbon if I like food and walking',
    expect: [t('m03-portugal-plan', 7)],
  },
  { text: 'Biscuit cried most of the first night in her crate', expect: [t('m04-biscuit-arrives', 3)] },
  { text: 'what do I do about fuel on long runs', expect: [t('m05-marathon-decision', 7)] },
  { text: 'what about iron, my GP said I was low', expect: [t('m06-vegetarian', 5)] },
  { text: 'what should I read on the trip to Portugal', expect: [t('m07-portugal-final', 5)] },
  { text: 'is a dog guard needed or is a crash tested harness enough', expect: [t('m11-car-bought', 5)] },
  {
    text: 'what questions should I ask them at the end of the interview',
    expect: [t('m14-interview-prep', 3)],
  },
  { text: 'I earn £47,500, should I ask for more', expect: [t('m15-offer', 3)] },
  { text: 'how should I eat in the days before the race', expect: [t('m20-pescatarian-taper', 3)] },
  { text: 'I am nervous about hitting the wall', expect: [t('m20-pescatarian-taper', 5)] },
  { text: 'the wedding gift list is all kitchen stuff', expect: [t('m22-wedding-speech', 7)] },
  {
    text: 'how do I handle patients who started less than 90 days ago',
    expect: [t('m32-work-cohort-query', 3)],
  },
  { text: 'do I need cash in Japan', expect: [t('m35-japan-packing', 3)] },
  { text: 'what is a good recall word for Biscuit', expect: [t('m29-recall-training', 3)] },
  { text: 'who should look after Biscuit, Leah offered but has a cat', expect: [t('m07-portugal-final', 1)] },
  { text: 'where do you even buy black salt', expect: [t('f02-vegan', 10)] },
  { text: "how long does Jonas's best man speech need to be", expect: [t('f08-best-man', 2)] },
  { text: 'is Doughvid still alive', expect: [t('f07-race-and-back', 14)] },
];

/** Two memories from different sessions are needed (read complete@k). */
export const MULTI_HOP: Q[] = [
  {
    text: 'how old was Biscuit when I moved into the Chorlton house',
    expect: [t('m04-biscuit-arrives', 0), t('m18-house-move-plan', 2)],
  },
  {
    text: 'how long after adopting Biscuit did her food trial start',
    expect: [t('m04-biscuit-arrives', 0), t('m10-biscuit-itchy', 2)],
  },
  {
    text: 'what were my finishing times in the marathon and in the half marathon',
    expect: [t('m21-marathon-done', 0), t('m34-gnr-result', 0)],
  },
  {
    text: 'was the Polo repair quote more than what I sold the car for',
    expect: [t('m09-car-mot', 0), t('m11-car-bought', 0)],
  },
  {
    text: 'did I beat my original marathon goal',
    expect: [t('m05-marathon-decision', 2), t('m21-marathon-done', 0)],
  },
  {
    text: 'who asked me for the patient drop-off dashboard, and who is my manager after her',
    expect: [t('m32-work-cohort-query', 0), t('m24-manager-change', 2)],
  },
  {
    text: 'who looked after Biscuit for each of my trips abroad',
    expect: [t('m07-portugal-final', 2), t('m26-japan-plan', 8)],
  },
  {
    text: 'what did you recommend after I finished the book I downloaded for the Portugal flight',
    expect: [t('m07-portugal-final', 6), t('m08-portugal-back', 5)],
  },
  {
    text: "was it the same vet who dealt with Biscuit's itchy skin and her upset stomach",
    expect: [t('m10-biscuit-itchy', 2), t('m24-manager-change', 4)],
  },
  {
    text: 'how many weeks before the marathon did I hurt my calf',
    expect: [t('m17-calf-strain', 0), t('m05-marathon-decision', 2)],
  },
  {
    text: 'what did Ada do for me at the marathon, and what did I give her at her wedding',
    expect: [t('m21-marathon-done', 2), t('m28-wedding-after', 2)],
  },
  {
    text: 'where did I buy the car that is now due its first service',
    expect: [t('m11-car-bought', 0), t('m28-wedding-after', 6)],
  },
  {
    text: 'how long after Priya moved flat did Pickle need his dental',
    expect: [t('f05-priya-moves', 0), t('f12-pickle-vet', 2)],
  },
  {
    text: 'whose wedding was Jonas best man at, and how did he hurt his knee afterwards',
    expect: [t('f08-best-man', 0), t('f09-wedding-knee', 5)],
  },
  {
    text: 'when did Jonas go vegan and when did he give it up',
    expect: [t('f02-vegan', 0), t('f10-promotion', 13)],
  },
  {
    text: "what did the physio suggest for Priya's blisters and did it work on race day",
    expect: [t('f04-ebike', 9), t('f07-race-and-back', 3)],
  },
];

/** The answer lives in the friends' chat or in the assistant's notes; the question reads every scope. */
export const MULTI_SCOPE: Q[] = [
  { text: 'which trail race did Priya enter', expect: [t('f01-new-year', 8)] },
  { text: "what is the name of Jonas's new manager", expect: [t('f03-team-change', 2)] },
  { text: 'where did Jonas buy a knife in Kyoto', expect: [t('f07-race-and-back', 10)], scopes: ALL_SCOPES },
  { text: "how long is Jonas's commute on the e-bike", expect: [t('f04-ebike', 4)] },
  { text: "what does Priya's new flat have for her cat", expect: [t('f05-priya-moves', 2)] },
  { text: "where did Jonas's brother get married", expect: [t('f08-best-man', 0)], scopes: ALL_SCOPES },
  { text: 'what new job did Dev start', expect: [t('f05-priya-moves', 12)] },
  { text: "how much did Pickle's dental cost", expect: [t('f12-pickle-vet', 2)] },
  { text: 'which Croatian island did Priya like best', expect: [t('f10-promotion', 8)] },
  { text: 'what exercises is Jonas doing for his knee', expect: [t('f13-holiday-photos', 3)] },
  { text: 'what goes in the tofu scramble', expect: [t('f02-vegan', 8)], scopes: ALL_SCOPES },
  { text: 'how does Priya keep track of the children on a class trip', expect: [t('f02-vegan', 13)] },
  { text: 'how does Maya like her plans laid out', expect: ['p-plans'] },
  { text: 'does Maya think in miles or kilometres', expect: ['p-units'], scopes: ALL_SCOPES },
  { text: 'who walks Biscuit on office days', expect: ['n-walker', t('m16-biscuit-followup', 4)] },
  { text: 'which running club is Maya in', expect: ['n-club', t('m13-training-week1', 2)] },
  {
    text: 'which herb should recipes for Maya leave out',
    expect: ['p-coriander', t('m30-dinner-week', 2)],
    scopes: ALL_SCOPES,
  },
];

/** The premise is wrong: nothing should come back with confidence. */
export const FALSE_PREMISE: Q[] = [
  { text: "what did the vet say about Biscuit's broken leg", expect: [] },
  { text: 'when did I sell my motorbike', expect: [] },
  { text: 'what was my time in the London Marathon', expect: [] },
  { text: 'why did I move to Leeds', expect: [] },
  { text: 'what is my cat called', expect: [] },
  { text: 'how was my holiday in Spain', expect: [] },
  { text: 'why did Graham fire me', expect: [] },
  { text: 'what did Ada and Kofi name their baby', expect: [] },
  { text: 'which hotel in Tokyo did I cancel', expect: [] },
  { text: 'what did Jonas say about his trip to Croatia', expect: [] },
  { text: 'when did Priya adopt a dog', expect: [] },
  { text: 'what did the physio say about my knee surgery', expect: [] },
  { text: "how much did the Kia Niro's new battery cost", expect: [] },
  { text: 'why did I go vegan after being pescatarian', expect: [] },
  { text: 'what did Tom Reyes ask me in my interview', expect: [] },
  { text: 'when did Jonas run the Wharfedale 50k', expect: [] },
];
