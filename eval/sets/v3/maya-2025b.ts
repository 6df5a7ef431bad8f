/**
 * Maya's chats with her assistant, November and December 2025: the car fails its MOT and is replaced, Biscuit's
 * itchy skin and a food change, restlessness at work, the first weeks of marathon training.
 */
import type { Session } from './sessions.ts';

export const MAYA_2025B: Session[] = [
  {
    id: 'm09-car-mot',
    start: '2025-11-18T17:36:00Z',
    turns: [
      'U: My car failed its MOT today. It is a 2014 VW Polo with 98,000 miles. The garage says the rear brake pipes are corroded and two tyres are close to the limit, about £900 all in.',
      'A: Sorry to hear that, an unexpected bill is never fun. When deciding whether to repair or replace, people usually weigh the repair cost against the car’s value, how likely more big repairs are soon, and how much they rely on it. A 2014 Polo with high mileage might be worth somewhere around £3,000 to £4,000, so a £900 repair is not unreasonable if the rest of the car is sound. On the other hand, if the clutch, timing belt or suspension are also due, costs can add up. You could ask the garage what else they noticed as advisories.',
      'U: advisories were a slight oil leak and worn suspension bushes. And it is getting hard to park in Ancoats anyway',
      'A: Those advisories suggest more spending in the next year or two. If you mainly drive for longer trips, such as visiting family, it may be worth looking at a newer used car, or even at car clubs and occasional rentals if you rarely drive in the city. A small hybrid would cut fuel costs and be cheaper to tax.',
      'U: I mostly use it to visit my mum in Leicester and my sister in Bristol, plus trips to the vet. I want something reliable. Budget maybe 15 to 16k',
      'A: With that budget and that use, a three to five year old hybrid is a sensible choice. Models commonly recommended for reliability include the Toyota Yaris and Corolla hybrids, the Kia Niro and the Honda Jazz. Check the service history, the number of owners, the MOT history online (it is free on the government website with the registration), and whether the hybrid battery warranty is still in force. A test drive on the motorway is useful since you will do long trips.',
      'U: ok I will look at a few this weekend',
    ],
  },
  {
    id: 'm10-biscuit-itchy',
    start: '2025-12-03T20:40:00Z',
    turns: [
      'U: Biscuit keeps scratching and licking her paws, and she has red patches on her belly. Took her to Ancoats Vets this morning.',
      'A: Poor Biscuit, and good that you took her in. Itchy paws and a red belly have many possible causes, including fleas, environmental allergies such as pollen or dust mites, contact irritation from grass or cleaning products, and food allergies. What did the vet think?',
      'U: Dr Hughes thinks it might be a chicken allergy. She wants us to switch her to a salmon and sweet potato kibble for eight weeks and see if it clears up',
      'A: That is a common first step: an elimination trial with a single protein the dog has not eaten before. For the trial to work, she should eat only the new food for the whole period, so no chicken treats, no chews with chicken in them and no table scraps. Many owners use pieces of the new kibble as training treats. Switch gradually over about a week, and keep a short diary of scratching and skin changes so you can tell the vet at the follow-up.',
      'U: she LOVES chicken treats, this is going to be hard',
      'A: It often is! Freeze-dried fish treats or small pieces of cooked salmon are often accepted as a substitute, as long as the vet agrees. Check the ingredient list on everything, because chicken fat and chicken digest appear in lots of foods labelled as another meat.',
      'U: Follow up is on 28 January',
      'A: Noted. That gives you a good eight weeks of the trial.',
    ],
  },
  {
    id: 'm11-car-bought',
    start: '2025-12-10T13:05:00Z',
    turns: [
      'U: Decided not to fix the Polo. I sold it to a we-buy-any-car place for £1,850 and bought a 2021 Kia Niro hybrid from a dealer in Stockport, £15,400, 31,000 miles, dark blue',
      'A: Congratulations on the new car! The Niro is known for being practical and very economical, and the boot should be great for Biscuit. A few things to sort out in the first week: insurance from the moment you drive it away, updating the V5C logbook or checking the dealer has notified the DVLA, tax (it does not transfer with a used car), and a note of when the next service and MOT are due. Keep the dealer’s paperwork in case anything goes wrong within the first few months.',
      'U: insurance is £540 a year with Admiral, is that ok?',
      'A: For a 2021 hybrid in Manchester that is within the usual range, though prices vary a lot by postcode, age and driving history. It is always worth running a comparison at renewal time and checking the level of excess you are agreeing to.',
      'U: also is a dog guard needed or is a crash tested harness enough?',
      'A: Both are recognised options. The Highway Code says dogs should be suitably restrained in a car so they cannot distract you or be hurt if you stop quickly. A seat belt harness, a pet carrier, a dog cage or a dog guard are all mentioned as ways to do that. For a whippet, many owners like a crate or a padded boot area behind a guard so she can lie down on long journeys, while a crash-tested harness works well on the back seat for shorter ones.',
      'U: thanks, ordering a boot guard',
    ],
  },
  {
    id: 'm12-job-restless',
    start: '2025-12-22T21:14:00Z',
    turns: [
      'U: I need to vent. I have been a data analyst at Northwind Insurance for four years and I am so bored. My manager Graham wants to approve every chart before it goes to anyone, even internal ones.',
      'A: That sounds frustrating, especially after four years when you have clearly built up experience. Heavy sign-off processes can feel like a lack of trust even when the manager means well. It might help to separate the two issues: the work itself no longer challenging you, and the way your manager works. Have you ever raised the approval process with Graham, or would you rather look for something new?',
      'U: I raised it twice. He says it is about consistency. I think I want a new job. Ideally somewhere in healthcare or climate where the data actually matters',
      'A: That is a clear direction. Analyst roles in health tech, the NHS, research charities and climate organisations often value exactly the kind of experience you have, such as SQL, dashboards, and working with messy operational data. To get started: update your CV so it leads with outcomes rather than tasks, refresh your LinkedIn headline, and pick five or ten organisations you would be excited to work for. Many roles are advertised in January when budgets reset, so the timing is good.',
      'U: can you help me rewrite my CV summary? Currently it says: Data analyst with 4 years experience in insurance reporting, SQL, Tableau and Python.',
      'A: Here is a stronger version: “Data analyst with four years of experience turning complex insurance data into decisions. I build SQL pipelines and Tableau dashboards used by 200+ colleagues, automated monthly claims reporting with Python (saving two days a month), and enjoy explaining data to people who are not analysts. Looking to bring these skills to healthcare or climate work.” Replace the figures with your real ones, and keep each bullet below it to one achievement.',
      'U: that is much better. the claims automation is real, it saved about 3 days a month actually',
      'A: Even better, use three days then. Concrete numbers like that stand out to hiring managers.',
      'U: ok going to apply to some over christmas',
      'A: Good luck! Enjoy the break as well.',
    ],
  },
  {
    id: 'm13-training-week1',
    start: '2025-12-16T06:20:00Z',
    turns: [
      'U: First week of the marathon plan started yesterday. It is dark and freezing at 6am, how do people do this?',
      'A: Winter training is hard for everyone, so well done for starting. A few things that help: lay out your kit the night before, wear layers you can unzip, a hat and gloves, and something reflective or a head torch if you run in the dark. A run buddy or a club makes mornings easier because someone is waiting for you. Some people move their easy runs to lunchtime in winter when it is lighter; that is fine as long as you keep the weekly structure.',
      'U: I joined a running club, Northern Runners. They do Tuesday evening runs from the canal basin',
      'A: A club is a great idea for marathon training: group long runs, pacing help and lots of advice. If their Tuesday session is faster than your plan, you can treat it as your quality session and keep the other runs easy.',
      'U: also I am going to do my long runs with Biscuit when they are short?',
      'A: Dogs can be great running companions, but check with your vet first because whippets are sprinters rather than endurance runners, and many are happiest with distances of up to about 5 to 8 km at an easy pace. Watch her for signs of tiredness, bring water in warmer weather, and avoid running on icy or salted roads, which can hurt her paws.',
      'U: fair, she can do the first 5k and then I drop her home',
    ],
  },
];
