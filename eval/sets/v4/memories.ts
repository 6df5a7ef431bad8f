// memledger-v4's scopes and principals, and how its hand-written sessions and notes become memories.
import { createHash } from 'node:crypto';
import type { EvalMemoryInput } from '../../format.ts';
import { GROUP } from './group.ts';
import { LUKAS_A } from './lukas-a.ts';
import { LUKAS_B } from './lukas-b.ts';
import { LUKAS_C } from './lukas-c.ts';
import { LUKAS_D } from './lukas-d.ts';
import { NOTES } from './notes.ts';

export const USER_SCOPE = 'user:lukas';
export const GROUP_SCOPE = 'project:studio-kern';
export const NOTES_SCOPE = 'agent:helper';
export const ASSISTANT = 'agent:helper';

/** A chat: its label, when its first message was sent, and its turns (user first, then alternating). */
export interface Chat {
  id: string;
  at: string;
  turns: string[];
}
/** A group-chat session: each turn starts with its speaker's initial (`A:`, `B:` or `C:`). */
export interface GroupChat {
  id: string;
  at: string;
  turns: string[];
}
export interface Note {
  id: string;
  key: string;
  at: string;
  body: string;
}

export const LUKAS_SESSIONS: Chat[] = [...LUKAS_A, ...LUKAS_B, ...LUKAS_C, ...LUKAS_D];
export const GROUP_SESSIONS: GroupChat[] = GROUP;
const SPEAKERS: Record<string, string> = { A: 'anke', B: 'bilal', C: 'chiara' };
const NAMES: Record<string, string> = { A: 'Anke', B: 'Bilal', C: 'Chiara' };

/** A number from a label's hash, so turn spacing looks like a chat and is the same on every build. */
function spread(label: string, lo: number, hi: number): number {
  const h = createHash('sha256').update(label).digest().readUInt32BE(0);
  return lo + (h % (hi - lo + 1));
}

// Assistants pad their answers; these generic closings make the assistant's turns long and alike, as they are
// in real chat logs (a turn of 40 characters or fewer, "You're welcome!", is left short).
const CLOSINGS = [
  'If it helps, I can turn this into a short checklist you can keep on your phone.',
  'Let me know how it goes, and we can adjust the plan from there.',
  'None of this replaces advice from someone who can see the whole picture, but it should be a reasonable start.',
  'Would you like me to break this down into smaller steps for the coming weeks?',
  'Happy to go through the details with you whenever you have a moment.',
  'I hope that gives you a clearer picture; tell me if anything sounds off for your situation.',
  'If you share a bit more about your constraints, I can make the suggestions more specific.',
  'Keep me posted, and good luck with it!',
];

function atPlus(start: string, seconds: number): string {
  return new Date(Date.parse(start) + seconds * 1000).toISOString().replace('.000Z', 'Z');
}

function chatMemories(c: Chat): EvalMemoryInput[] {
  let t = 0;
  return c.turns.map((text, i) => {
    const id = `${c.id}-t${i}`;
    const user = i % 2 === 0;
    if (i > 0) t += user ? spread(id, 90, 420) : spread(id, 15, 70);
    const body =
      user || text.length <= 40 ? text : `${text} ${CLOSINGS[spread(`${id}/c`, 0, CLOSINGS.length - 1)]}`;
    return {
      id,
      body,
      kind: 'episode',
      scope: USER_SCOPE,
      recorded: atPlus(c.at, t),
      by: user ? 'human:lukas' : ASSISTANT,
      session: c.id,
    };
  });
}

function groupMemories(c: GroupChat): EvalMemoryInput[] {
  let t = 0;
  return c.turns.map((line, i) => {
    const id = `${c.id}-t${i}`;
    const who = line.slice(0, 1);
    if (!(who in SPEAKERS) || line[1] !== ':') throw new Error(`${id} does not start with A:, B: or C:`);
    if (i > 0) t += spread(id, 20, 300);
    return {
      id,
      body: `${NAMES[who]}: ${line.slice(2).trim()}`,
      kind: 'episode',
      scope: GROUP_SCOPE,
      recorded: atPlus(c.at, t),
      by: `human:${SPEAKERS[who]}`,
      session: c.id,
    };
  });
}

function noteMemories(n: Note): EvalMemoryInput {
  return {
    id: n.id,
    body: n.body,
    kind: n.key.includes('prefers') ? 'preference' : 'fact',
    scope: NOTES_SCOPE,
    key: n.key,
    subjects: ['person:lukas'],
    recorded: n.at,
    by: ASSISTANT,
  };
}

/** Every memory in time order (file order breaks ties), as the format asks. */
export const MEMORIES: EvalMemoryInput[] = [
  ...LUKAS_SESSIONS.flatMap(chatMemories),
  ...GROUP_SESSIONS.flatMap(groupMemories),
  ...NOTES.map(noteMemories),
]
  .map((m, i) => ({ m, i }))
  .sort((a, b) => Date.parse(a.m.recorded) - Date.parse(b.m.recorded) || a.i - b.i)
  .map(({ m }) => m);

export const BODIES = new Map(MEMORIES.map((m) => [m.id, m.body]));
