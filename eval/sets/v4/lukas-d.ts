// Lukas's chats with his assistant: more sessions on the same topics, between the others (memledger-v4).
import type { Chat } from './memories.ts';

export const LUKAS_D: Chat[] = [
  {
    id: 'lk37',
    at: '2026-02-25T19:30:00Z',
    turns: [
      'How much salt is actually in bread? I eat four or five slices a day.',
      'A typical slice of mixed rye bread has around 0.5 to 0.7 grams of salt, so four or five slices can add up to about a third of the daily recommendation of five grams.',
      'Wow. And a Leberkässemmel?',
      'A roll with a thick slice of Leberkäse can easily reach three grams of salt, more than half of the recommended daily amount in one snack.',
      'That is my Friday lunch at the depot.',
      'Then Friday could be a good place to start: swap it for a wholegrain roll with fresh cheese and vegetables, or keep the Leberkässemmel for every other week.',
      'Every other week, deal.',
      'That is a realistic change. Small swaps like that add up over a year.',
      'thx',
    ],
  },
  {
    id: 'lk38',
    at: '2026-04-30T20:00:00Z',
    turns: [
      'Pichler asked us to choose the bathroom tiles by Monday. Sabine wants large grey ones, I want white.',
      'Large format tiles in a light grey are popular because they have fewer grout lines and are easier to clean. White looks fresh but shows dirt and limescale more on the floor.',
      'What about a compromise: white walls, grey floor?',
      'That is a classic combination and works well in smaller bathrooms: the white walls keep the room bright and the grey floor is practical.',
      'And the floor of the walk-in shower needs to be non-slip.',
      'Yes, choose tiles with a slip rating of at least R10 or the barefoot class B for the shower area, especially with your father possibly using it later.',
      'Good point, I had not thought about Dad.',
      'With grab rails and a non-slip floor the bathroom will be safe for everyone.',
      'Picked them today in the showroom in Gleisdorf. 60 by 60, grey floor.',
      'Great that it is decided. That keeps the schedule on track.',
    ],
  },
  {
    id: 'lk39',
    at: '2026-06-14T18:20:00Z',
    turns: [
      'Long ride today: Graz to Maribor and back, 142 km. My longest ever.',
      'That is a big achievement! Riding 142 km in one day needs good pacing and enough food along the way. How do your legs feel?',
      'Dead. And I had a flat tyre near Spielfeld. Took me 25 minutes to fix.',
      'Flats happen to everyone. Carrying a spare tube, tyre levers and a small pump is the essential kit, and practising a tube change at home makes it faster on the road.',
      'Should I go tubeless?',
      'Tubeless tyres on a gravel bike seal small punctures themselves with the sealant inside, and you can run lower pressure for comfort. The setup takes some effort, and the sealant needs topping up every few months.',
      'I will ask the builder, he said the rims are tubeless ready.',
      'Then it is a small step. Many gravel riders never go back once they switch.',
      'I ate three Müsli bars and a Topfengolatsche in Maribor.',
      'That is a very good ride fuel choice!',
    ],
  },
  {
    id: 'lk40',
    at: '2026-09-10T21:15:00Z',
    turns: [
      'Sleep problem of a new kind: Dad snores so loud I can hear him through the floor.',
      'That can be really disruptive. Foam earplugs or a white noise machine help many people, and a soft rug or door seal can reduce how much sound travels through the house.',
      'Sabine sleeps through everything. I do not.',
      'People differ a lot in how easily noise wakes them. Earplugs designed for sleep are comfortable enough for most after a few nights.',
      'Should Dad see a doctor about the snoring?',
      'Very loud snoring, especially with pauses in breathing or daytime tiredness, can be a sign of sleep apnea, which is treatable. It would be worth mentioning to his doctor.',
      'He does fall asleep in his armchair every afternoon.',
      'Daytime sleepiness is one of the signs a doctor would ask about, so that is useful to mention.',
      'I will take him to his GP next week. He will complain the whole way.',
      'It sounds like he is in good hands, complaints included.',
    ],
  },
];
