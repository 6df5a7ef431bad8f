/**
 * Maya's chats with her assistant, January to April 2026: interviews and a new job, Biscuit's allergy trial, a
 * calf strain, moving to a house in Chorlton, adding fish back, and the marathon itself.
 */
import type { Session } from './sessions.ts';

export const MAYA_2026A: Session[] = [
  {
    id: 'm14-interview-prep',
    start: '2026-01-13T19:02:00Z',
    turns: [
      'U: I have a second round interview on Friday at Lumen Health, a startup that does remote monitoring for heart patients. Senior data analyst. They said there will be a SQL case study.',
      'A: Congratulations on reaching the second round! For a SQL case study, expect to be given a small schema, for example patients, devices, readings and alerts, and asked to answer business questions: how many patients had an alert in the last 30 days, which devices stop sending data, what the average time is from alert to clinician response. Practise joins, window functions such as ROW_NUMBER and LAG, date arithmetic, and handling NULLs. Talk through your assumptions out loud; interviewers care as much about how you reason as about the exact query.',
      'U: what questions should I ask them at the end?',
      'A: Good questions show curiosity and help you judge the role. For example: How does the data team decide what to work on, and who are its main stakeholders? What does success look like in the first six months? How is clinical data governed and who signs off on analyses that affect patients? What is the tooling, for example warehouse, BI and version control? How does the team handle disagreement about what the data shows? And what is the biggest challenge the team faces right now?',
      'U: the hiring manager is Anika Shah, she leads the analytics team',
      'A: It can help to look at her background on LinkedIn beforehand, so you can relate your experience to the problems her team works on. Asking her about how she likes to work with analysts is also a good way to find out whether the approval culture is different from what you have now.',
      'U: yes that is exactly what I want to know lol',
    ],
  },
  {
    id: 'm15-offer',
    start: '2026-01-27T12:48:00Z',
    resumed: { 4: '2026-01-29T17:45:00Z' },
    turns: [
      'U: I GOT THE JOB! Lumen Health offered me senior data analyst at £56,000',
      'A: Congratulations, that is fantastic news and well deserved! Before you accept, take a moment to look at the whole package: salary, pension contribution, holiday, flexible working, equity if any, learning budget and the notice period. It is normal and expected to negotiate politely, especially at a startup.',
      'U: I currently earn £47,500. Should I ask for more?',
      'A: You are already getting a good increase, but asking for a little more is usually safe if you do it respectfully and with a reason. You could say you are very excited about the role and, given your experience with automating reporting and the market rate for senior analysts in Manchester, ask whether they could go to £60,000, or ask for a higher pension contribution or an extra week of holiday if the salary is fixed. The worst outcome in most cases is that they say the offer is their best.',
      'U: they came back with £58,000 and 28 days holiday. I accepted! Start date is 2 March',
      'A: That is a great result: well negotiated. Now for the notice period at Northwind: check your contract, write a short, positive resignation letter, and offer a handover plan. Leaving on good terms matters, especially in a city where analysts often cross paths.',
      'U: notice is one month, so my last day at Northwind is 27 February. Graham was surprisingly nice about it',
      'A: That is good to hear. Use the last few weeks to document your reports and the claims automation so whoever takes over can run them.',
    ],
  },
  {
    id: 'm16-biscuit-followup',
    start: '2026-01-28T17:30:00Z',
    turns: [
      'U: Biscuit’s follow-up was today. Her belly is completely clear and she has almost stopped licking her paws. Dr Hughes says it was probably the chicken.',
      'A: That is great news! It sounds like the elimination trial worked. Some vets suggest a short challenge, feeding the old food again briefly to confirm the allergy, but many owners simply stay on the new food if the dog is doing well. Did the vet recommend keeping her on the salmon food long term?',
      'U: yes, she stays on the salmon and sweet potato kibble. No chicken anything.',
      'A: Sounds like a plan. It is worth telling anyone who looks after her, such as dog walkers or the foster family, so nobody gives her chicken treats by accident.',
      'U: good point, I will tell the walker. We use a walker called Sam on my office days',
    ],
  },
  {
    id: 'm17-calf-strain',
    start: '2026-02-10T20:16:00Z',
    turns: [
      'U: Disaster. I felt a sharp pain in my left calf at 21 km on Sunday’s long run and had to walk home. It is still sore going down stairs.',
      'A: I am sorry, that is really frustrating in the middle of a build. A sudden sharp pain in the calf during a run is often a muscle strain. Rest it for now, avoid running through pain, and use gentle movement as comfort allows. If you cannot walk without limping, if there is significant swelling or bruising, or if it does not improve within a week, see a physiotherapist or your GP. Sudden calf pain with swelling and warmth that is not linked to an injury should always be checked urgently.',
      'U: saw a physio today, Rachel at the sports clinic in Didsbury. Grade 1 strain. She says no running for ten days, then easy running only, and calf raises every day',
      'A: That is a fairly mild strain, which is good news. Follow her plan closely: calf strength exercises are key to preventing it from coming back. During the break you can usually keep your fitness with cycling, swimming or the cross trainer if they are pain free. When you return, start with short easy runs on flat routes and increase gradually.',
      'U: so what about the marathon? It is in ten weeks',
      'A: Ten weeks is still enough time to finish a marathon, especially as you had built a good base. What you may need to adjust is the goal. Losing about two weeks of running and rebuilding carefully might mean your longest runs are shorter than planned. Many runners in this situation switch to a goal of finishing comfortably and enjoying the day, and then see how the last long runs go before choosing a target pace.',
      'U: yeah I think I will aim for 4:30 instead of 4:15 and just enjoy it',
      'A: That is a very sensible decision. A 4:30 goal is about 6:24 per kilometre, which gives you room to start conservatively and still finish strong.',
    ],
  },
  {
    id: 'm18-house-move-plan',
    start: '2026-02-24T19:44:00Z',
    resumed: { 2: '2026-02-26T18:20:00Z', 6: '2026-02-28T11:05:00Z' },
    turns: [
      'U: I found a house! A two bed terrace in Chorlton with a little garden for Biscuit. 27 Beech Road. The rent is £1,350 which is more than the flat but the new salary helps.',
      'A: That sounds lovely, and a garden will make a big difference for Biscuit. Before signing: check the tenancy agreement for the pet clause in writing, the length of the fixed term and any break clause, who is responsible for the garden, the energy performance certificate, and that your deposit will be protected in a government-approved scheme. Take dated photos of every room on move-in day.',
      'U: signed it! Moving day is Saturday 14 March. I have to give notice on the Ancoats flat',
      'A: Congratulations! Here is a moving checklist. Now: give notice to your current landlord in writing, book a van or removals, and start decluttering. Two weeks before: arrange broadband at the new address (installation can take a while), book the carpet clean your landlord asked for, and start packing rooms you use less. One week before: tell your bank, employer, GP, DVLA (driving licence and the Niro’s logbook), car insurer, council tax and the electoral roll about the new address, set up mail redirection, and update Biscuit’s microchip details. On the day: take meter readings at both properties and keep essentials and Biscuit’s things in a separate bag.',
      'U: that is a lot. also the new job starts 2 March so the move is in my second week, great timing',
      'A: It is a lot at once, but it is manageable with a bit of planning. Most new employers are understanding about a moving day, and since you will work from home some days, you could ask to make the Friday before the move a home day. Packing a box or two every evening over the next few weeks will make the last weekend much less stressful.',
      'U: booked a man with a van for 8am on the 14th, £220',
    ],
  },
  {
    id: 'm19-new-house-settled',
    start: '2026-03-21T10:12:00Z',
    turns: [
      'U: We are in! Moved into Beech Road last Saturday. Biscuit runs laps around the garden every morning.',
      'A: Congratulations on the move! It sounds like Biscuit has already claimed the garden. Moves can unsettle dogs, so keep her routine of meals and walks as normal as you can for the next couple of weeks, and check the fences and gate for gaps since sighthounds can squeeze through surprisingly small spaces.',
      'U: there was a gap under the back gate, my neighbour helped me put a board across it. Also I registered Biscuit with Chorlton Vets, closer than Ancoats. The vet there is Dr Mensah',
      'A: Good thinking on both. Ask Ancoats Vets to transfer her records, including the note about her chicken allergy, so Dr Mensah has the full history.',
      'U: broadband is not installed until the 30th, I am working off my phone hotspot',
      'A: That is annoying. If your hotspot struggles on video calls, many new starters book a desk at the office or a café with good wifi for the meeting-heavy days until the line is installed.',
      'U: the new job is going well. Anika does not ask to approve my charts, she just asked me what I think the data says!',
      'A: That sounds like a refreshing change and exactly what you were hoping for. Enjoy it!',
      'U: ha yes. Four weeks to the marathon, last long run of 29 km tomorrow',
      'A: Good luck with the long run. Practise exactly what you plan to eat, drink and wear on race day.',
    ],
  },
  {
    id: 'm20-pescatarian-taper',
    start: '2026-04-08T18:55:00Z',
    turns: [
      'U: Small diet change: I have started eating fish again, so pescatarian now rather than vegetarian. I was struggling to recover and get enough protein. Still no meat though.',
      'A: That is a practical change, and it gives you easy sources of protein and omega-3 fats, such as salmon, sardines, mackerel, tuna and prawns. Oily fish twice a week is a common recommendation. You can keep your vegetarian meals as the base and add fish a few times a week.',
      'U: it is taper week. How should I eat in the days before the race?',
      'A: In the last two to three days before a marathon, many runners carbohydrate load: increasing carbs to roughly 8 to 10 grams per kilogram of body weight per day while reducing fibre and fat a bit so it is easier on the stomach. Think rice, pasta, bread, potatoes, bagels, porridge, bananas and juice. Keep portions of familiar foods, avoid trying new dishes, and stay well hydrated without overdoing water. The night before, a simple, early dinner you know you tolerate well is ideal.',
      'U: I am nervous about hitting the wall',
      'A: That is a common worry. The wall usually comes from running out of stored carbohydrate, often made worse by starting too fast. The best defences are carb loading, fuelling from early in the race (for example a gel every 30 to 40 minutes from the first half hour), and running the first half at or slightly slower than your goal pace. If it gets hard late on, break the remaining distance into small pieces and keep taking on fuel.',
      'U: ok. 4:30 pace, gels every 35 minutes, do not go out too fast',
      'A: Perfect plan. Good luck on Sunday!',
    ],
  },
  {
    id: 'm21-marathon-done',
    start: '2026-04-20T19:30:00Z',
    turns: [
      'U: I DID IT. Manchester Marathon yesterday in 4:22:37!!',
      'A: Congratulations, that is an amazing achievement, and well under your 4:30 goal, after an injury in the middle of training too! How did the race go?',
      'U: first half felt easy, I was on 2:08 at halfway. Then at about 32 km my legs just went and I walked a couple of water stations. My sister Ada was at 35 km with a sign that said RUN MAYA RUN and that got me to the end',
      'A: That is a classic first-marathon experience, and you still ran a strong second half. Having someone you love cheering at 35 km makes a huge difference. For recovery: walk gently for the next few days, eat and sleep well, and avoid running for at least a week; many people wait two weeks before any hard effort. Soreness on stairs for two or three days is normal.',
      'U: my legs are destroyed. I can barely go down the stairs',
      'A: That will pass! Gentle walks with Biscuit, a warm bath and plenty of food are your friends this week.',
      'U: will I do another one? maybe. Not this year',
      'A: Many people feel that way right after. There is plenty of time to decide, and a half marathon in the autumn can be a nice goal in between.',
    ],
  },
];
