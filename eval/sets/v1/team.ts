/**
 * The team: sixteen people and the preferences an agent would remember about each, hand-written, in each
 * person's own user scope. Some preferences change during the year (knowledge updates).
 */
import { at, type SetBuilder } from './builder.ts';

export interface Person {
  id: string;
  name: string;
  role: string;
  /** Preference phrases by attribute, written as the rest of a sentence after the person's name. */
  prefs: Record<string, string>;
  /** Attribute → a later phrase that replaces the first (written months later under the same key). */
  changes?: Record<string, string>;
}

export const PEOPLE: Person[] = [
  {
    id: 'dana',
    name: 'Dana Whitfield',
    role: 'engineering manager',
    prefs: {
      timezone: 'works from Lisbon (Europe/Lisbon) and keeps afternoons free for one-on-ones',
      editor: 'uses VS Code with the Vim keybindings extension',
      review: 'wants every pull request to carry a short test plan and a screenshot for UI changes',
      merge: 'prefers squash merges so main reads as one commit per change',
      channel: 'wants anything urgent as a Slack DM, never an email',
      meetings: 'declines meetings without an agenda',
      status: 'likes a written Friday status with risks listed first',
      language: 'pushes for TypeScript everywhere except the ingest workers',
      focus: 'blocks Wednesday mornings for planning and does not answer chat then',
    },
    changes: { timezone: 'moved to Amsterdam (Europe/Amsterdam) in June and now starts at 8:30' },
  },
  {
    id: 'omar',
    name: 'Omar Haddad',
    role: 'backend engineer',
    prefs: {
      timezone: 'is based in Toronto (America/Toronto)',
      editor: 'lives in Neovim with a tmux split for tests',
      review: 'reviews in two passes: design first, then nits, and labels nits as optional',
      merge: 'rebases feature branches and merges with a merge commit for multi-commit work',
      channel: 'reads GitHub notifications twice a day; ping in the team channel for anything blocking',
      meetings: 'prefers async design docs over design meetings',
      status: 'posts a daily standup note in the backend thread',
      language: 'favours Go for long-running services and Postgres for anything relational',
      focus: 'does deep work before noon Eastern and pairs after lunch',
    },
    changes: { editor: 'switched from Neovim to Zed in April, still with Vim mode' },
  },
  {
    id: 'priya',
    name: 'Priya Raman',
    role: 'frontend engineer',
    prefs: {
      timezone: 'works from Bangalore (Asia/Kolkata), overlapping with Europe in her afternoon',
      editor: 'uses WebStorm with the Prettier plugin on save',
      review: 'asks reviewers to run the Storybook preview before approving visual changes',
      merge: 'prefers squash merges with a conventional-commit title',
      channel: 'prefers comments on the Linear ticket over chat messages',
      meetings: 'keeps video off in large meetings and asks for recordings',
      status: 'shares weekly demo videos of UI work in progress',
      language: 'prefers React with TypeScript strict mode and CSS modules over Tailwind',
      focus: 'has no-meeting Thursdays',
    },
  },
  {
    id: 'li',
    name: 'Li Wei',
    role: 'site reliability engineer',
    prefs: {
      timezone: 'is in Singapore (Asia/Singapore)',
      editor: 'uses Emacs with Magit for everything git',
      review: 'insists that Terraform plans are pasted into the pull request before review',
      merge: 'merges infrastructure changes only after the plan has been applied in staging',
      channel: 'wants paging through PagerDuty, not chat, for production problems',
      meetings: 'runs the weekly reliability review on Tuesdays',
      status: 'writes incident timelines in UTC',
      language: 'prefers Terraform with small modules and Bash only for glue',
      focus: 'is unreachable during his gym hour at 18:00 local time',
    },
  },
  {
    id: 'mateo',
    name: 'Mateo Alvarez',
    role: 'mobile engineer',
    prefs: {
      timezone: 'works from Buenos Aires (America/Argentina/Buenos_Aires)',
      editor: 'uses Android Studio for Kotlin and Xcode for Swift',
      review: 'wants screen recordings from a real device for any navigation change',
      merge: 'uses release branches and cherry-picks fixes into them',
      channel: 'prefers voice notes on Slack for long explanations',
      meetings: 'likes short daily syncs with the designer',
      status: 'tracks app store review status in the mobile channel',
      language: 'prefers native code over React Native for anything with animations',
      focus: 'takes Friday afternoons for bug bashing',
    },
  },
  {
    id: 'sofia',
    name: 'Sofia Lindqvist',
    role: 'product manager',
    prefs: {
      timezone: 'is in Stockholm (Europe/Stockholm)',
      editor: 'writes specs in Notion and keeps the roadmap in Linear',
      review: 'wants to sign off on copy changes before they ship',
      merge: 'has no opinion on merge style but wants release notes for every customer-visible change',
      channel: 'prefers a Loom video over a long written explanation',
      meetings: 'books customer calls only on Tuesdays and Thursdays',
      status: 'expects a roadmap update in the first week of each month',
      language: 'asks engineers to avoid jargon in tickets customers might read',
      focus: 'keeps Monday mornings for roadmap grooming',
    },
    changes: {
      meetings: 'now books customer calls on Mondays and Wednesdays after the sales team asked for it',
    },
  },
  {
    id: 'kwame',
    name: 'Kwame Mensah',
    role: 'support lead',
    prefs: {
      timezone: 'works from Accra (Africa/Accra), which is UTC all year',
      editor: 'drafts macros in the Zendesk editor and keeps snippets in a shared doc',
      review: 'wants support-facing changes announced 48 hours ahead in the support channel',
      merge: 'asks that hotfixes are tagged so support can tell customers the version',
      channel: 'wants escalations in the support-escalations channel with the ticket link',
      meetings: 'runs the customer feedback review every second Friday',
      status: 'publishes the weekly ticket volume report on Monday',
      language: 'writes customer replies in plain English without internal codenames',
      focus: 'covers the early shift and logs off at 16:00 UTC',
    },
  },
  {
    id: 'yuki',
    name: 'Yuki Tanaka',
    role: 'data engineer',
    prefs: {
      timezone: 'is in Tokyo (Asia/Tokyo)',
      editor: 'uses JupyterLab for exploration and PyCharm for pipeline code',
      review: 'wants sample output rows attached to any change in a transformation',
      merge: 'prefers small pull requests under 300 lines',
      channel: 'prefers email for anything that needs a decision',
      meetings: 'wants meetings recorded because of the time difference',
      status: 'reports pipeline freshness in a dashboard instead of written updates',
      language: 'prefers Python with type hints and dbt for warehouse models',
      focus: 'works late on Thursdays to overlap with the Americas',
    },
    changes: { channel: 'now prefers the data-eng Slack channel over email for decisions' },
  },
  {
    id: 'noah',
    name: 'Noah Brennan',
    role: 'security engineer',
    prefs: {
      timezone: 'is in Dublin (Europe/Dublin)',
      editor: 'uses VS Code in a locked-down dev container',
      review: 'must review any change that touches authentication, sessions or permissions',
      merge: 'requires signed commits on the auth-gateway repository',
      channel: 'wants security reports through the private security channel, never in public threads',
      meetings: 'holds office hours for security questions on Wednesday at 15:00 Dublin time',
      status: 'sends a monthly dependency vulnerability summary',
      language: 'prefers Rust for parsers that handle untrusted input',
      focus: 'does not take calls during the quarterly pen-test week',
    },
  },
  {
    id: 'amara',
    name: 'Amara Okafor',
    role: 'product designer',
    prefs: {
      timezone: 'works from London (Europe/London)',
      editor: 'designs in Figma and keeps the component library there in sync with Storybook',
      review: 'wants a design review before any new component is merged',
      merge: 'asks engineers to link the Figma frame in the pull request',
      channel: 'prefers Figma comments for feedback on designs',
      meetings: 'runs design critique on Monday afternoons',
      status: 'posts design updates in the product channel every Thursday',
      language: 'insists on the 8-pixel spacing scale and the shared colour tokens',
      focus: 'keeps Friday mornings meeting-free for exploration',
    },
  },
  {
    id: 'jonas',
    name: 'Jonas Becker',
    role: 'backend engineer',
    prefs: {
      timezone: 'is in Berlin (Europe/Berlin)',
      editor: 'uses IntelliJ IDEA with the Go plugin',
      review: 'asks for benchmarks with any change to a hot path',
      merge: 'prefers merge commits to keep the branch history intact',
      channel: 'wants technical discussion in GitHub issues so it is searchable later',
      meetings: 'prefers walking one-on-ones by phone',
      status: 'updates the on-call handover doc at the end of each shift',
      language: 'likes Go with the standard library and few dependencies',
      focus: 'is off every other Friday',
    },
  },
  {
    id: 'chen',
    name: 'Chen Jing',
    role: 'QA engineer',
    prefs: {
      timezone: 'works from Shanghai (Asia/Shanghai)',
      editor: 'writes Playwright tests in VS Code',
      review: 'wants a reproduction step list in every bug fix pull request',
      merge: 'asks that flaky test fixes are merged separately from features',
      channel: 'reports bugs in Linear and mentions the owner in the ticket',
      meetings: 'joins the release go/no-go call on Tuesdays',
      status: 'shares the regression test pass rate before each release',
      language: 'prefers Playwright over Cypress for browser tests',
      focus: 'runs the full regression suite on Monday mornings',
    },
  },
  {
    id: 'ines',
    name: 'Ines Moreau',
    role: 'technical writer',
    prefs: {
      timezone: 'is in Paris (Europe/Paris)',
      editor: 'writes docs in Markdown in VS Code with the Vale linter',
      review: 'wants engineers to review docs for accuracy, not for style',
      merge: 'merges docs changes only after the preview deploy has been checked',
      channel: 'prefers to be tagged on the pull request rather than messaged',
      meetings: 'attends sprint reviews to catch features that need docs',
      status: 'keeps a changelog draft updated during the sprint',
      language: 'follows the Google developer documentation style guide',
      focus: 'takes Wednesday afternoons for writing without interruptions',
    },
  },
  {
    id: 'raj',
    name: 'Raj Patel',
    role: 'billing engineer',
    prefs: {
      timezone: 'works from Austin (America/Chicago)',
      editor: 'uses VS Code with the REST Client extension for API calls',
      review: 'wants a second reviewer on anything that changes invoice amounts',
      merge: 'deploys billing changes only on Tuesdays and Wednesdays',
      channel: 'prefers a phone call for anything involving a customer refund',
      meetings: 'syncs with finance every Thursday',
      status: 'reconciles Stripe payouts every Monday and reports gaps',
      language: 'insists on integer cents for money, never floating point',
      focus: 'avoids releases in the last three days of the month because of invoicing',
    },
  },
  {
    id: 'elena',
    name: 'Elena Petrova',
    role: 'CTO',
    prefs: {
      timezone: 'splits time between New York (America/New_York) and Sofia',
      editor: 'rarely codes now but reads pull requests on the GitHub mobile app',
      review: 'wants architecture decision records for anything that adds a new datastore',
      merge: 'expects main to be deployable at every commit',
      channel: 'prefers a one-paragraph email summary for decisions she needs to make',
      meetings: 'keeps a standing architecture review on the first Monday of the month',
      status: 'wants a quarterly engineering health report with DORA metrics',
      language: 'is wary of adding new languages to the stack without a migration plan',
      focus: 'is unavailable on Friday afternoons for board work',
    },
  },
  {
    id: 'tom',
    name: 'Tom Nakamura',
    role: 'sales engineer',
    prefs: {
      timezone: 'works from San Francisco (America/Los_Angeles)',
      editor: 'keeps demo scripts in a Google Doc and runs demos from a staging tenant',
      review: 'wants a heads-up before the demo tenant is reset',
      merge: 'has no merge rights and asks for changes through Linear',
      channel: 'prefers Slack threads for customer technical questions',
      meetings: 'books technical deep dives with prospects on Wednesday mornings Pacific',
      status: 'logs every promise to a prospect in the CRM',
      language: 'asks for Python snippets in customer-facing examples',
      focus: 'travels to customer sites most Tuesdays',
    },
  },
];

const KIND_OF: Record<string, 'preference' | 'fact'> = { timezone: 'fact', status: 'preference' };

/** Writes each preference in the person's scope under `user.<attribute>`; changes supersede by key. */
export function buildTeam(b: SetBuilder): void {
  for (const p of PEOPLE) {
    const first = p.name.split(' ')[0]!;
    for (const [attr, phrase] of Object.entries(p.prefs)) {
      const day = b.rng.int(0, 120);
      b.add({
        id: `user-${p.id}-${attr}`,
        body: `${first} ${phrase}.`,
        kind: KIND_OF[attr] ?? 'preference',
        scope: `user:${p.id}`,
        key: `user.${attr}`,
        subjects: [`person:${p.id}@fernhill.dev`],
        recorded: at(day, b.rng),
        by: b.rng.next() < 0.5 ? `human:${p.id}` : 'human:dana',
      });
    }
    for (const [attr, phrase] of Object.entries(p.changes ?? {})) {
      b.add({
        id: `user-${p.id}-${attr}-2`,
        body: `${first} ${phrase}.`,
        kind: KIND_OF[attr] ?? 'preference',
        scope: `user:${p.id}`,
        key: `user.${attr}`,
        subjects: [`person:${p.id}@fernhill.dev`],
        recorded: at(b.rng.int(200, 330), b.rng),
        by: `human:${p.id}`,
      });
    }
  }
}
