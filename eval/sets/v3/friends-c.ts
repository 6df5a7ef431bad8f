/**
 * Four shorter chats between Priya and Jonas (February, May, June and August 2026): pancakes, a housewarming and a
 * first parkrun, Pickle at the vet, and holiday photos with a knee update. Food, pets, running and injuries again,
 * as the other chats have them.
 */
import type { Session } from './sessions.ts';

export const FRIENDS_C: Session[] = [
  {
    id: 'f11-pancakes',
    start: '2026-02-17T19:25:00Z',
    turns: [
      'Priya: pancake day! what are you putting on yours',
      'Jonas: vegan pancakes, oat milk and a banana instead of egg. Lemon and sugar on top',
      'Priya: lemon and sugar is the only correct answer',
      'Jonas: agreed. What about you',
      'Priya: Dev made a stack with bacon and maple syrup, very American of him',
      'Jonas: traitor',
      'Priya: I had three. Carb loading for Saturday’s long run, obviously',
      'Jonas: how long?',
      'Priya: 28k from Ilkley over to Bolton Abbey and back',
      'Jonas: that is a day trip by car',
      'Priya: it is about four hours on foot. I bring jam sandwiches',
      'Jonas: jam sandwiches as sports nutrition is very you',
    ],
  },
  {
    id: 'f14-housewarming',
    start: '2026-05-06T18:20:00Z',
    turns: [
      'Priya: housewarming at the new flat on Saturday from 7! bring a bottle or a snack',
      'Jonas: I will bring a vegan chocolate cake. A real one, from the bakery near work',
      'Priya: yes please. Dev is making his famous chilli, there will be a bean one for you',
      'Jonas: the famous chilli that made everyone cry last year?',
      'Priya: he says he has toned it down. I do not believe him',
      'Jonas: also news: I did my first ever parkrun on Saturday at Heaton Park. 31:20 and I nearly died on the hill',
      'Priya: WHAT. welcome to the dark side',
      'Jonas: I am not doing a 50k',
      'Priya: that is what everyone says',
      'Jonas: I mean it. A 10k maybe, one day',
      'Priya: I will remind you of this',
      'Jonas: please do not',
    ],
  },
  {
    id: 'f12-pickle-vet',
    start: '2026-06-02T17:10:00Z',
    resumed: { 10: '2026-06-09T18:02:00Z' },
    turns: [
      'Priya: Pickle had to go to the vet today, he has been off his food',
      'Jonas: oh no, is he ok?',
      'Priya: bad tooth. He needs a dental under anaesthetic next week, £380',
      'Jonas: ouch. Do you have pet insurance?',
      'Priya: yes but it does not cover dental unless it is an accident. Cat logic',
      'Jonas: insurance logic more like',
      'Priya: the vet in Chapel Allerton is lovely though, much better than the one in Headingley',
      'Jonas: good. Give him a scratch from me',
      'Priya: he will bite you in spirit',
      'Jonas: that is love',
      'Priya: update: dental done, one tooth out, he is eating again and furious with me',
      'Jonas: back to normal then',
    ],
  },
  {
    id: 'f13-holiday-photos',
    start: '2026-08-10T15:45:00Z',
    turns: [
      'Priya: sending you a photo from Hvar, look at the water',
      'Jonas: unreal. I am in my flat doing knee exercises on a yoga mat',
      'Priya: what exercises?',
      'Jonas: straight leg raises, squats against the wall, and balancing on one leg for a minute. Physio Karen is very strict',
      'Priya: good. Do them every day or she will know',
      'Jonas: she absolutely knows',
      'Priya: we took the ferry to Vis yesterday, tiny island, amazing grilled fish',
      'Jonas: stop it',
      'Priya: tomorrow is a boat trip to the Blue Cave',
      'Jonas: tomorrow I have a wall squat',
      'Priya: same energy',
      'Jonas: it is not the same energy',
    ],
  },
];
