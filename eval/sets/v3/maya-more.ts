/**
 * Four more of Maya's chats, written as distractors: the rescue's application and home check before Biscuit,
 * a knee niggle and a parkrun best, the first week at Lumen Health, and batch-cooked pescatarian lunches. They
 * share the words of other chats (dog, running, work, food) without answering those chats' questions.
 */
import type { Session } from './sessions.ts';

export const MAYA_MORE: Session[] = [
  {
    id: 'm36-rescue-application',
    start: '2025-08-20T18:30:00Z',
    resumed: { 4: '2025-08-27T19:05:00Z' },
    turns: [
      'U: The sighthound rescue sent me their application form. It asks about a garden, my working hours and whether I have had a dog before. I do not have a garden, will that rule me out?',
      'A: Not necessarily. Many rescues rehome sighthounds to flats, because they are usually calm indoors, but they will want to know how you will manage toilet breaks, exercise and time alone. Answer honestly and give detail: which parks are nearby, how many walks a day you plan, who would help on your office days and what your plan is for holidays. Mentioning that you grew up with a family dog counts as experience, even if you have never owned one as an adult.',
      'U: they also want to do a home check. What do they look for?',
      'A: A home check is mostly a friendly conversation. Volunteers usually look at where the dog would sleep and eat, whether there are hazards such as balconies or open stairwells, how secure the front door and communal areas are, and whether you have thought about the routine. They may ask to see your landlord’s permission in writing. It is also a good chance for you to ask questions about the dogs they have and what support they give after adoption.',
      'U: the home check was tonight, the volunteer was lovely. She said the flat is fine as long as the dog gets three walks a day',
      'A: That is great news. Three walks a day is very doable with a morning, lunchtime and evening routine, and on office days a walker or a neighbour can cover the middle one.',
      'U: fingers crossed they have a match for me soon',
      'A: Fingers crossed! Rescues often take a little time to find the right match, and it is worth the wait.',
    ],
  },
  {
    id: 'm37-knee-niggle',
    start: '2025-10-21T07:50:00Z',
    resumed: { 4: '2025-10-25T11:40:00Z' },
    turns: [
      'U: my right knee aches on the outside after about 8 km, especially running downhill. Walking is fine. Should I worry?',
      'A: Pain on the outside of the knee that appears at a predictable distance and gets worse downhill is often linked to the iliotibial band, a common overuse issue in runners who increase mileage. It usually responds well to a short reduction in running, avoiding steep downhills for a while, and strengthening the hips and glutes with exercises such as clamshells, side planks, single-leg squats and glute bridges. Foam rolling the outer thigh can feel helpful, though it does not stretch the band itself. If the pain is sharp, there is swelling, the knee locks or gives way, or it does not improve in two to three weeks, see a physiotherapist.',
      'U: ok doing the clamshells and bridges every evening and skipping the hilly route by the river',
      'A: That is a sensible plan. Keep your runs easy and flat this week and see how the knee responds. Increasing gradually again afterwards, and not adding distance and hills at the same time, makes it less likely to come back.',
      'U: parkrun this morning and no knee pain at all. 28:55, a new best!',
      'A: Brilliant, a pain-free run and a personal best on the same day. The strength work is paying off; keep the exercises going two or three times a week even now it feels fine.',
    ],
  },
  {
    id: 'm38-first-week-lumen',
    start: '2026-03-06T17:45:00Z',
    turns: [
      'U: first week at Lumen done! Everything is in Snowflake and dbt, and I have only ever used SQL Server and stored procedures. Feeling a bit slow.',
      'A: Congratulations on finishing your first week! Feeling slow in new tooling is completely normal, and the core skill, writing good SQL and understanding the data, transfers directly. For dbt, the concepts to learn first are models (SELECT statements saved as files), refs between models, sources, tests and documentation. In Snowflake, the main differences from SQL Server are the separation of storage and compute (warehouses), some date and string functions, and QUALIFY for filtering window functions. Reading the team’s existing models is often the fastest way to learn their conventions.',
      'U: Anika set up a weekly one-to-one on Thursdays at 10 and asked me to pick one area to own by April',
      'A: That is a great sign of trust and a clear expectation. When choosing an area, look for something that matters to the business, has messy or under-used data you can improve, and will give you contact with people outside the data team, such as clinicians or product managers. Bring two or three options with a sentence on why each matters to your next one-to-one.',
      'U: I think I want to own the device reliability reporting, nobody has touched it in a year',
      'A: That sounds like a strong choice: it is close to patient safety, it is neglected, and improving it will be visible. A good first step is to list what questions people ask about device reliability today and how they currently get the answers.',
      'U: also the office is in Ancoats, ten minutes from my flat, which will be annoying after the move',
      'A: Chorlton to Ancoats is still an easy tram ride of about half an hour, and on your office days that might even be a nice bit of reading time.',
    ],
  },
  {
    id: 'm39-lunch-prep',
    start: '2026-05-12T19:10:00Z',
    turns: [
      'U: can you give me some pescatarian lunches I can batch cook on a Sunday? I want them to last Monday to Thursday',
      'A: Here are five lunches that keep well for four days in the fridge. 1. Tuna, white bean and roasted pepper pasta salad with lemon and olive oil. 2. Prawn, chickpea and spinach curry with brown rice. 3. Baked salmon with roasted sweet potato and broccoli, with a yoghurt and dill sauce on the side. 4. Smoked mackerel, beetroot and lentil salad with a mustard dressing. 5. A frittata with feta, peas and courgette, which works hot or cold. Cook grains and proteins in bulk, store dressings separately so salads do not go soggy, and freeze one portion of the curry if you are not sure you will eat it by Thursday.',
      'U: not too much salmon please, Biscuit’s kibble is salmon and I am sick of the smell of it',
      'A: Fair enough! Swap the salmon for trout or cod in the traybake, or replace it with a halloumi and roasted vegetable box for variety.',
      'U: the prawn and chickpea curry was great, made a double batch',
      'A: Great to hear. It freezes well, so a double batch gives you an easy lunch on a busy week too.',
    ],
  },
];
