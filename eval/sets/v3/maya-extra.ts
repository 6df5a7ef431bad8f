/**
 * More of Maya's chats with her assistant, spread over the same fourteen months: recall training, a week of
 * dinners, cutting down coffee, a work query, the new garden, the half marathon's result, packing for Japan.
 * They talk about the same dog, food, work and running as the others, which is what makes them distractors.
 */
import type { Session } from './sessions.ts';

export const MAYA_EXTRA: Session[] = [
  {
    id: 'm29-recall-training',
    start: '2025-11-04T08:05:00Z',
    turns: [
      'U: Biscuit slipped her collar in the park this morning and chased a squirrel for what felt like forever. She came back eventually but I was shaking.',
      'A: That is a scary experience, and very common with sighthounds, whose instinct to chase is strong. Two things help: equipment and training. Many whippet owners use a martingale collar or a well-fitted harness, because whippets have narrow heads and can back out of ordinary collars easily. For recall, practise with a long line of 10 metres in a quiet field, use a special reward she only gets for coming back, such as tiny pieces of cheese or fish, and never tell her off when she does return, however long it took.',
      'U: ok I ordered a martingale collar. What is a good recall word? I currently just shout her name',
      'A: A distinct word or sound she does not hear in everyday conversation works best, such as “here”, “come”, or a whistle. Her name is better used to get attention before a cue. Start at home with no distractions, say the word once, reward generously when she comes, and slowly add distance and distractions. Keep sessions short and fun.',
      'U: going with a whistle, my dad used one for our family dog when I was a kid',
      'A: A whistle is a great choice because it sounds the same whoever uses it and carries well across a park.',
      'U: thanks, feeling better now',
    ],
  },
  {
    id: 'm30-dinner-week',
    start: '2025-11-25T17:50:00Z',
    resumed: { 4: '2025-12-01T19:12:00Z' },
    turns: [
      'U: can you give me a week of vegetarian dinners? quick ones, under 30 minutes, I get home from the office at 6:30',
      'A: Here is a week of quick vegetarian dinners. Monday: chickpea and spinach curry with rice. Tuesday: halloumi, roasted pepper and couscous traybake. Wednesday: black bean tacos with avocado and lime. Thursday: egg fried rice with tofu, peas and spring onions. Friday: homemade pizza on a tortilla base with mushrooms and mozzarella. Saturday: red lentil dal with naan. Sunday: a big tray of roasted vegetables and feta with quinoa, making extra for Monday’s lunch. Each is around 25 to 40 grams of protein per portion, and the dal and curry freeze well.',
      'U: no coriander please, I hate it, it tastes like soap to me',
      'A: Noted! That is a genetic thing for many people. Swap coriander for flat-leaf parsley, chives or spring onions in the curry, tacos and dal; a squeeze of lime keeps the freshness.',
      'U: the tacos were really good, made them twice already',
      'A: Great to hear! A spoon of chipotle paste in the beans gives them a smoky kick if you want a variation.',
    ],
  },
  {
    id: 'm31-coffee-cut',
    start: '2026-01-06T07:35:00Z',
    resumed: { 4: '2026-01-09T08:03:00Z', 6: '2026-01-20T07:26:00Z' },
    turns: [
      'U: New year thing: I want to cut down on coffee. I am sleeping badly and I think four cups a day is too much.',
      'A: That is a reasonable experiment. Caffeine has a half-life of around five to six hours, so an afternoon coffee can still affect your sleep at night. Cutting down gradually over a week or two avoids headaches: for example, drop one cup every few days, replace it with decaf or tea, and keep your last caffeinated drink before noon.',
      'U: plan: one proper coffee in the morning, then green tea or rooibos for the rest of the day',
      'A: That sounds like a sustainable plan. Green tea has a bit of caffeine, so rooibos or herbal tea in the evening is the safer choice for sleep. Give it two or three weeks before judging the effect.',
      'U: day 3 and I have a headache',
      'A: That is a typical withdrawal symptom and usually fades within a week. Drink water, and if it is bad, a slightly slower reduction is fine.',
      'U: two weeks in, sleeping so much better. Sticking with one coffee a day',
      'A: Excellent, that is a clear result.',
    ],
  },
  {
    id: 'm32-work-cohort-query',
    start: '2026-04-29T13:20:00Z',
    turns: [
      'U: work question. Anika asked me to build a dashboard showing how many patients stop sending readings from their home device in the first 90 days. How would you structure the SQL?',
      'A: A common approach is a cohort analysis. First, define each patient’s start date as the date of their first reading. Second, for each patient, find the date of their last reading within 90 days of that start. Third, define drop-off: for example, a patient has dropped off if there is a gap of more than 14 days without readings, or if there are no readings after day 60. Then group patients by the month they started and count how many are still active at day 30, 60 and 90. Window functions help: use MIN(reading_at) OVER (PARTITION BY patient_id) for the start, and LAG(reading_at) to find gaps between consecutive readings.',
      'U: how do I handle patients who started less than 90 days ago?',
      'A: Those patients are right-censored: you do not yet know whether they will drop off. Either exclude cohorts that have not reached day 90 from the 90-day figure, or show them with a different style and label the figure as incomplete. Survival analysis, such as a Kaplan-Meier curve, handles this properly if the audience is comfortable with it.',
      'U: Kaplan-Meier is perfect, the clinicians know it from trials',
      'A: Then it is a great fit, since the clinicians will read it naturally. Label the axes clearly and show how many patients are at risk at each point below the curve.',
    ],
  },
  {
    id: 'm33-garden',
    start: '2026-05-30T09:40:00Z',
    resumed: { 4: '2026-05-31T15:20:00Z' },
    turns: [
      'U: I want to plant something in the garden at the new house. It is small, mostly paving with one border, faces north. And it must be safe for Biscuit.',
      'A: A north-facing garden suits shade-tolerant plants. Some dog-safe options include ferns such as the Boston fern, heuchera, hostas are often listed as toxic so are best avoided, and herbs like mint and thyme in sunnier pots. Avoid foxgloves, lilies, daffodil and tulip bulbs, yew and lily of the valley, which are all toxic to dogs. Raised pots are easier to protect from digging.',
      'U: my landlord says I can plant whatever as long as I leave the border tidy when I go',
      'A: That is good. Pots also move with you if you leave, which can be useful in a rental.',
      'U: got some ferns, a heuchera and three pots of herbs. Biscuit immediately lay down on the thyme',
      'A: She clearly approves! Thyme is quite tough, so it will probably survive.',
    ],
  },
  {
    id: 'm34-gnr-result',
    start: '2026-09-14T17:05:00Z',
    turns: [
      'U: Great North Run yesterday: 1:57:48! Under two hours!',
      'A: Congratulations! That is a fantastic result and a big improvement, especially in such a crowded race. How did it feel?',
      'U: the first 5 km was slow because of the crowd like you said, then I just held the pace. The Novablasts were great, no calf problems at all',
      'A: That is great to hear: pacing the start conservatively and then holding steady is exactly how to run a good half. And it is reassuring that the new shoes and your calf held up.',
      'U: my mum came up to watch with Biscuit, Biscuit got more attention than the runners',
      'A: A whippet at a finish line is always a celebrity. Enjoy your recovery week!',
    ],
  },
  {
    id: 'm35-japan-packing',
    start: '2026-09-24T20:10:00Z',
    turns: [
      'U: two weeks until Japan. What should I pack for October?',
      'A: October in Tokyo and Kyoto is usually 15 to 24 degrees during the day, cooler in Hakone, with occasional rain and sometimes a late typhoon. Pack layers: a few T-shirts, a light jumper, a waterproof jacket, comfortable walking shoes that slip on and off easily (you will take them off a lot), and socks without holes for the same reason. Add a small towel and a coin purse, a universal adapter (Japan uses type A plugs at 100 volts), and a portable battery. Leave space for things you buy there.',
      'U: do I need cash?',
      'A: Japan is more card-friendly than it used to be, but cash is still useful for small restaurants, temples, shrines and some ryokan. Many people withdraw yen from 7-Eleven or Japan Post ATMs, which accept foreign cards, and carry around 10,000 to 20,000 yen at a time.',
      'U: I booked a ryokan in Hakone with a private onsen for the 15th and 16th',
      'A: That will be a highlight. Ryokan dinners are often elaborate kaiseki meals, so let them know in advance that you do not eat meat but do eat fish.',
      'U: already emailed them. Also downloading Strange Weather in Tokyo by Hiromi Kawakami for the flight',
      'A: A lovely choice for the trip: it is gentle and quiet and set in the city you are flying to.',
    ],
  },
];
