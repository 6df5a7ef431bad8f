/**
 * The v3 set's queries, part one: keyword, paraphrase, paraphrase-no-overlap and knowledge-update, written by hand
 * from what the user (Maya), or someone reading the friends' chat, would ask. Turn labels are `<session>-t<i>`.
 * The set's `now` is Monday 2026-09-28T19:00Z. A query without `scopes` reads the two chats (the builder's
 * default outside multi-scope): the assistant's notes restate many chat facts, and a question about what was said
 * would otherwise have two right answers where its label names one.
 */
import type { EvalQueryInput } from '../../format.ts';
import { NOTES_SCOPE } from './memories.ts';
import { turn as t } from './sessions.ts';

/** The assistant's own notes, where a same-key note replaces the one before it. */
const NOTES = [NOTES_SCOPE];

export type Q = Omit<EvalQueryInput, 'category' | 'id'>;

/** A distinctive name or term the answer holds. */
export const KEYWORD: Q[] = [
  { text: 'Brooks Ghost 16', expect: [t('m01-running-restart', 6)] },
  { text: 'Quiz Team Aguilera', expect: [t('m22-wedding-speech', 2)] },
  { text: 'Kaplan-Meier curve for patients who drop off', expect: [t('m32-work-cohort-query', 3)] },
  { text: 'martingale collar', expect: [t('m29-recall-training', 2)] },
  { text: 'kala namak', expect: [t('f02-vegan', 10)] },
  { text: 'Strange Weather in Tokyo', expect: [t('m35-japan-packing', 6)] },
  { text: 'Ryanair 6:40am', expect: [t('m03-portugal-plan', 4)] },
  { text: 'Admiral insurance quote', expect: [t('m11-car-bought', 2)] },
  { text: "Graham's lodge port tasting", expect: [t('m08-portugal-back', 2)] },
  { text: 'Dr Mensah Chorlton Vets', expect: [t('m19-new-house-settled', 2)] },
  { text: 'Aritsugu knife', expect: [t('f07-race-and-back', 10)] },
  { text: 'man with a van', expect: [t('m18-house-move-plan', 6)] },
  { text: 'Kia Stockport service booking', expect: [t('m28-wedding-after', 8)] },
  { text: 'we-buy-any-car', expect: [t('m11-car-bought', 0)] },
  { text: "T's Tantan ramen", expect: [t('f06-jonas-japan', 7)] },
  { text: 'Royal Armouries class trip', expect: [t('f02-vegan', 11)] },
  { text: 'RUN MAYA RUN sign', expect: [t('m21-marathon-done', 2)] },
  { text: 'heuchera', expect: [t('m33-garden', 4)] },
  { text: 'Otley Chevin', expect: [t('f03-team-change', 13)] },
  { text: 'Kirkstall trail group', expect: [t('f01-new-year', 12)] },
];

/** The question says it in other words; it shares few with the answer. */
export const PARAPHRASE: Q[] = [
  { text: 'what running shoes did I buy when I started again', expect: [t('m01-running-restart', 6)] },
  { text: 'how much more rent does the landlord want for having a pet', expect: [t('m02-dog-thinking', 2)] },
  { text: 'what time was my flight out to Lisbon', expect: [t('m03-portugal-plan', 4)] },
  { text: 'how heavy is Biscuit', expect: [t('m04-biscuit-arrives', 6)] },
  { text: 'what did the vet think was making the dog itch', expect: [t('m10-biscuit-itchy', 2)] },
  { text: 'how much money did I get for my old car', expect: [t('m11-car-bought', 0)] },
  { text: 'what salary did I end up with at the new job', expect: [t('m15-offer', 4)] },
  { text: 'who helped me fix the hole under the garden gate', expect: [t('m19-new-house-settled', 2)] },
  { text: 'how fast was the first half of my marathon', expect: [t('m21-marathon-done', 2)] },
  { text: 'how did my sister and her fiancé first meet', expect: [t('m22-wedding-speech', 2)] },
  { text: 'why did the wedding have to change venue', expect: [t('m23-wedding-moved', 0)] },
  { text: 'why did I start eating fish again', expect: [t('m20-pescatarian-taper', 0)] },
  { text: 'what present did I organise for my sister', expect: [t('m28-wedding-after', 2)] },
  { text: 'how long will the big sack of dog food last', expect: [t('m24-manager-change', 6)] },
  { text: 'which kind of chart will the clinicians understand', expect: [t('m32-work-cohort-query', 4)] },
  { text: 'how long did it take Priya to finish the trail race', expect: [t('f07-race-and-back', 1)] },
  { text: 'what happened to the sourdough starter in the end', expect: [t('f10-promotion', 15)] },
  { text: 'how does Jonas make sure his new bike does not get stolen', expect: [t('f04-ebike', 2)] },
  { text: 'what breed is my dog', expect: [t('m04-biscuit-arrives', 0)] },
];

/**
 * No word of the question reaches the answer through the index (the builder checks it): only the meaning is
 * shared.
 */
export const PARAPHRASE_NO_OVERLAP: Q[] = [
  { text: 'what footwear did I purchase for jogging', expect: [t('m01-running-restart', 6)] },
  { text: 'how heavy is my pet', expect: [t('m04-biscuit-arrives', 6)] },
  { text: 'which ingredient was blamed for the scratching', expect: [t('m10-biscuit-itchy', 2)] },
  { text: 'what vehicle replaced the hatchback', expect: [t('m11-car-bought', 0)] },
  { text: 'how did the bride and groom get to know each other', expect: [t('m22-wedding-speech', 2)] },
  { text: 'what pay did the new employer finally agree', expect: [t('m15-offer', 4)] },
  { text: 'which specialist examined my leg injury', expect: [t('m17-calf-strain', 2)] },
  { text: 'what was my finishing time over 26.2 miles', expect: [t('m21-marathon-done', 0)] },
  { text: 'why was the ceremony relocated', expect: [t('m23-wedding-moved', 0)] },
  { text: 'who is my boss', expect: [t('m24-manager-change', 2)] },
  { text: 'what did I put in the flowerbeds outdoors', expect: [t('m33-garden', 4)] },
  { text: 'which novel will colleagues discuss next', expect: [t('m25-books', 2)] },
  { text: 'what is my caffeine intake lately', expect: [t('m31-coffee-cut', 6)] },
  { text: 'who minded my pup during the Lisbon holiday', expect: [t('m07-portugal-final', 2)] },
  { text: 'what promotion did the Leeds teacher get', expect: [t('f10-promotion', 0)] },
  { text: 'which animal required surgery on its mouth', expect: [t('f12-pickle-vet', 2)] },
  { text: 'which cycle does the programmer ride to the office', expect: [t('f04-ebike', 0)] },
  { text: 'where will my pet stay while I am in Asia', expect: [t('m26-japan-plan', 8)] },
  {
    text: 'what verdict was given on the skin of my pooch at the recheck',
    expect: [t('m16-biscuit-followup', 0)],
  },
];

/**
 * A fact that changed: the newest value is expected. Where the assistant's note under the same key was replaced,
 * the replaced notes must not be returned at all; the chat turns that said the old value stay (they were said).
 */
export const KNOWLEDGE_UPDATE: Q[] = [
  { text: 'where does Maya live', scopes: NOTES, expect: ['n-home-2'], mustNot: ['n-home-1'] },
  {
    text: "who is Maya's manager",
    scopes: NOTES,
    expect: ['n-manager-3'],
    mustNot: ['n-manager-1', 'n-manager-2'],
  },
  {
    text: 'what food does Biscuit eat',
    scopes: NOTES,
    expect: ['n-dogfood-3'],
    mustNot: ['n-dogfood-1', 'n-dogfood-2'],
  },
  { text: 'which vet is Biscuit registered with', scopes: NOTES, expect: ['n-vet-2'], mustNot: ['n-vet-1'] },
  { text: 'what car does Maya drive', scopes: NOTES, expect: ['n-car-2'], mustNot: ['n-car-1'] },
  { text: 'is Maya vegetarian', scopes: NOTES, expect: ['n-diet-2'], mustNot: ['n-diet-1'] },
  { text: "when is Ada's wedding", scopes: NOTES, expect: ['n-wedding-2'], mustNot: ['n-wedding-1'] },
  {
    text: "Maya's target time for the Manchester Marathon",
    scopes: NOTES,
    expect: ['n-goal-2'],
    mustNot: ['n-goal-1'],
  },
  { text: 'where does Maya work', scopes: NOTES, expect: ['n-job-2'], mustNot: ['n-job-1'] },
  {
    text: 'which running shoes does Maya wear for long runs',
    scopes: NOTES,
    expect: ['n-shoes-2'],
    mustNot: ['n-shoes-1'],
  },
  { text: 'what is my address now', expect: [t('m18-house-move-plan', 0)] },
  { text: 'who is my manager at Lumen now', expect: [t('m24-manager-change', 2)] },
  { text: 'what is Biscuit eating these days', expect: [t('m24-manager-change', 4)] },
  { text: 'am I still vegetarian', expect: [t('m20-pescatarian-taper', 0)] },
  { text: "what is the date of Ada's wedding", expect: [t('m23-wedding-moved', 2)] },
  { text: 'how many coffees a day do I drink', expect: [t('m31-coffee-cut', 6)] },
  { text: 'is Jonas still vegan', expect: [t('f10-promotion', 13)] },
  { text: "what is Priya's job now", expect: [t('f10-promotion', 0)] },
  { text: 'where does Priya live now', expect: [t('f05-priya-moves', 0)] },
  { text: 'which team is Jonas on at work', expect: [t('f03-team-change', 0)] },
];
