/**
 * Maya's chats with her assistant, May to September 2026: her sister Ada's wedding (speech, a flooded venue, a
 * new date), a new manager, another change of dog food, books, a Japan trip being planned, a half marathon.
 */
import type { Session } from './sessions.ts';

export const MAYA_2026B: Session[] = [
  {
    id: 'm22-wedding-speech',
    start: '2026-05-06T20:25:00Z',
    turns: [
      'U: My sister Ada is getting married on 20 June at a hotel in Bath and I am her maid of honour. I have to give a speech and I am terrified.',
      'A: Congratulations to Ada, and what an honour! Most people feel nervous about wedding speeches; the good news is that a short, warm, personal speech always goes down well. A simple structure: thank everyone and introduce yourself, share one or two stories about your sister that show who she is, say something about her partner and the two of them together, and finish with a toast. Three to five minutes is plenty.',
      'U: her fiancé is Kofi, they met at a pub quiz in Bristol six years ago. Their team was called Quiz Team Aguilera',
      'A: That is a gift for a speech! You could open the part about the couple with that: something like “Six years ago, at a pub quiz in Bristol, a team called Quiz Team Aguilera lost the music round but won something much more important.” Then say what you noticed about Ada when she met Kofi, and one thing Kofi does that shows he gets her.',
      'U: lol yes. Ada always says Kofi is the only person who can make her leave the house on time',
      'A: Perfect material: it is affectionate, funny and specific. Keep it kind rather than embarrassing, check any story you are unsure about with someone close to the couple, and practise it out loud several times, ideally standing up and with a timer. Keep notes on small cards rather than reading from your phone.',
      'U: what about the gift? they have a list but it is all kitchen stuff',
      'A: Buying from the list is always appreciated, but as maid of honour you might also give something personal, such as a framed print of the pub where they met, a book of letters from friends and family, or an experience they can share, like a cookery class. A handwritten card is a nice touch whatever you choose.',
      'U: ooh the letters idea is good, I will ask people to write something',
    ],
  },
  {
    id: 'm23-wedding-moved',
    start: '2026-05-19T08:10:00Z',
    turns: [
      'U: Wedding drama. The hotel in Bath had a burst pipe and the function room flooded, they cancelled all bookings until August',
      'A: Oh no, that is awful news for Ada and Kofi, especially with only a month to go. Their wedding insurance, if they have it, may cover extra costs, and the hotel should refund deposits or offer alternatives. Is there anything you can do to help, such as making calls or contacting guests?',
      'U: they found a barn near Frome and moved the wedding to Saturday 5 September. Same guests. Ada is actually happier, the barn is prettier',
      'A: What a relief, and a lovely outcome. For you as maid of honour, it is worth helping Ada send a clear update to guests with the new date, venue, address and any accommodation advice, and checking that suppliers such as the photographer, florist and caterer can all move to the new date.',
      'U: my dress needs taking in, I lost weight during marathon training. The seamstress says 3 weeks',
      'A: With the wedding now in September you have plenty of time. Try the dress on again closer to the date, in case your weight changes now you are running less.',
      'U: also the speech now has a bonus flood joke',
      'A: A gentle flood joke could be perfect, as long as Ada finds it funny too. Run it past her first.',
    ],
  },
  {
    id: 'm24-manager-change',
    start: '2026-06-09T18:40:00Z',
    resumed: { 6: '2026-06-10T17:32:00Z' },
    turns: [
      'U: Anika told us today she is leaving Lumen Health at the end of the month to go to a research job in Edinburgh. I am gutted, she is the best manager I have had.',
      'A: That is hard news, especially when a good manager was a big part of why the job feels right. It is worth telling her what you appreciated; a note like that means a lot, and she may stay a useful mentor and reference. It is also a chance to ask her for advice on your development before she goes.',
      'U: the new manager is Tom Reyes, he was the lead on the data engineering team. He takes over on 15 June',
      'A: A manager from data engineering often brings strengths in tooling, pipelines and data quality, which can be great for an analytics team. In the first few weeks, a one-to-one about how he likes to work, what he expects from the team and how you like to receive feedback can set things off on the right foot. You could also share the ways of working you valued under Anika so they are not lost.',
      'U: unrelated, Biscuit has had loose poo for a week. Dr Mensah thinks the salmon food does not agree with her anymore, she wants to try lamb and brown rice kibble instead',
      'A: Poor Biscuit. Changes like that are not unusual. Lamb is another single protein she has not reacted to, and lamb-based foods are often used for sensitive dogs. Transition slowly over about ten days, keep an eye on her stools and energy, and go back to the vet if there is blood, vomiting, or if she goes off her food. And remember that the no-chicken rule still applies to treats.',
      'U: bought a bag of the lamb one today. 12 kg bag, should last about 2 months',
      'A: Great. Store it in a sealed container to keep it fresh.',
    ],
  },
  {
    id: 'm25-books',
    start: '2026-07-01T21:33:00Z',
    turns: [
      'U: My work book club is picking the August book and it is my turn to suggest one. Last month was Tomorrow, and Tomorrow, and Tomorrow which I had already read.',
      'A: Fun! A good book club pick is one that gives people lots to talk about without being too long. A few ideas: Piranesi by Susanna Clarke (short and strange, with lots to discuss), Klara and the Sun by Kazuo Ishiguro (AI and love, relevant for a health tech crowd), Demon Copperhead by Barbara Kingsolver (longer, but very powerful), Lessons in Chemistry by Bonnie Garmus (funny and easy to read) or Project Hail Mary by Andy Weir (gripping science fiction that even non sci-fi readers love).',
      'U: I have just finished Piranesi myself, I loved it so much. I think Klara and the Sun would be good for the club',
      'A: Klara and the Sun is an excellent choice for that group: it is accessible, and it raises questions about care, technology and what it means to love someone, which should lead to a good discussion. Since you enjoyed Piranesi, you might like Jonathan Strange and Mr Norrell by the same author next, although it is much longer.',
      'U: I am reading Project Hail Mary now, it is so much fun',
      'A: It is a great read. Enjoy the science and the friendship at its heart; no spoilers from me!',
      'U: haha no spoilers please',
    ],
  },
  {
    id: 'm26-japan-plan',
    start: '2026-07-28T12:15:00Z',
    resumed: { 8: '2026-07-30T18:04:00Z' },
    turns: [
      'U: I booked two weeks in Japan in October! Flying Manchester to Tokyo via Helsinki on 10 October, back on 24 October.',
      'A: How exciting! Two weeks is a great length for a first trip. A popular first-timer route is Tokyo, then Hakone or Kawaguchiko for Mount Fuji and a night in a ryokan with an onsen, then Kyoto with a day trip to Nara, and possibly Osaka for food before flying home or returning to Tokyo. October is a good month, with mild weather and the start of autumn colours in the mountains.',
      'U: plan is Tokyo 5 nights, Hakone 2 nights, Kyoto 5 nights, and the last night back in Tokyo near the airport',
      'A: That is a well-balanced plan. Since the Japan Rail Pass became much more expensive in 2023, it is worth comparing it with individual tickets: for a single Tokyo–Hakone–Kyoto–Tokyo loop, separate shinkansen tickets often work out cheaper. Get an IC card such as Suica or Pasmo on your phone for metros and buses. British citizens can visit Japan as tourists for up to 90 days without a visa.',
      'U: I do not eat meat but I eat fish now, will food be hard?',
      'A: Being pescatarian in Japan is much easier than being vegetarian, because so much of the cuisine is based on fish, rice, tofu and vegetables. The main thing to watch for is that many broths and sauces contain meat or fish stock, and some dishes hide pork or chicken. Sushi, sashimi, tempura, udon in a fish-based dashi, onigiri, okonomiyaki without pork, and shojin ryori in Kyoto temples are all good options. A card in Japanese explaining what you do not eat can be helpful in restaurants.',
      'U: who looks after Biscuit for two weeks though',
      'A: Two weeks is long for a favour, so you might combine people: the foster family who had her last time, your walker Sam doing home visits, or a home boarder. Book early, because October half-term is a busy time for pet sitters.',
      'U: the Bolton foster family said yes again!',
      'A: Wonderful, Biscuit will be in familiar hands.',
    ],
  },
  {
    id: 'm27-half-marathon',
    start: '2026-08-19T06:50:00Z',
    turns: [
      'U: I signed up for the Great North Run on 13 September. I want to go under 2 hours this time.',
      'A: Great choice, it is a famous race with an amazing atmosphere from Newcastle to South Shields. A sub-2-hour half marathon means averaging about 5:41 per kilometre. With your marathon base, that is a realistic target if you have built back up since April. With about four weeks to go, focus on one quality session a week, such as 3 × 3 km at goal pace, keep your long run around 16 to 18 km, and taper in the last ten days.',
      'U: my Brooks Ghosts have about 900 km on them. I bought a pair of Asics Novablast 5 yesterday for the race, is that too late?',
      'A: Four weeks is enough time to break in new shoes, as long as you wear them for several runs including a long run before the race. The Novablast is bouncier than the Ghost, so you may notice a different feel in your calves for the first few runs, which is worth watching given your calf strain earlier in the year.',
      'U: fine, I will do the Sunday long runs in them from now on',
      'A: Sounds good. Good luck with the training block!',
    ],
  },
  {
    id: 'm28-wedding-after',
    start: '2026-09-08T19:20:00Z',
    turns: [
      'U: the wedding was on Saturday and it was perfect. The barn looked magical and my speech got a standing ovation (ok, Kofi’s uncles stood up, but still)',
      'A: That is wonderful to hear, congratulations to Ada and Kofi, and well done on the speech! Did the letters from friends and family work out as a gift?',
      'U: yes, we collected 41 letters in a little wooden box and Ada cried when she opened it',
      'A: What a lovely, lasting gift. It is something they will come back to for years.',
      'U: now I have to get ready for the Great North Run on Sunday. I did 3x3 km at 5:35 pace last week and it felt ok',
      'A: That is very promising: holding 5:35 per kilometre for those repeats suggests a sub-2-hour race is well within reach. This week, keep runs short and easy, with a few strides, sleep well and follow your usual pre-race routine. Start the race around 5:45 for the first couple of kilometres, because the start is crowded, then settle into your goal pace.',
      'U: also the Niro needs its first service with me, it is due at 39,000 miles and it is on 38,700',
      'A: Good timing to book it. Hybrid servicing at a main dealer or a specialist garage will keep the battery warranty valid, so keep the stamped service record.',
      'U: booked Kia Stockport for 22 September',
      'A: Great, one less thing to think about.',
    ],
  },
];
