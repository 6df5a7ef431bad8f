/**
 * The v3 set's memories from its hand-written tables: every turn of Maya's chats with her assistant (scope
 * `user:maya`), every turn of Priya and Jonas's chats (`project:priya-jonas`) and the assistant's notes
 * (`agent:assistant`). Turn times are spread like a real chat: a reply within a minute or so, the next message a
 * few minutes later, derived from a hash of the label so the file is the same on every build.
 */
import { createHash } from 'node:crypto';
import type { EvalMemoryInput } from '../../format.ts';
import { FRIENDS_A } from './friends-a.ts';
import { FRIENDS_B } from './friends-b.ts';
import { FRIENDS_C } from './friends-c.ts';
import { MAYA_2025A } from './maya-2025a.ts';
import { MAYA_2025B } from './maya-2025b.ts';
import { MAYA_2026A } from './maya-2026a.ts';
import { MAYA_2026B } from './maya-2026b.ts';
import { MAYA_EXTRA } from './maya-extra.ts';
import { MAYA_MORE } from './maya-more.ts';
import { NOTES } from './notes.ts';
import { type Session, turn } from './sessions.ts';

export const USER_SCOPE = 'user:maya';
export const FRIENDS_SCOPE = 'project:priya-jonas';
export const NOTES_SCOPE = 'agent:assistant';
export const ASSISTANT = 'agent:assistant';

export const MAYA_SESSIONS: Session[] = [
  ...MAYA_2025A,
  ...MAYA_2025B,
  ...MAYA_2026A,
  ...MAYA_2026B,
  ...MAYA_EXTRA,
  ...MAYA_MORE,
];
export const FRIEND_SESSIONS: Session[] = [...FRIENDS_A, ...FRIENDS_B, ...FRIENDS_C];

/** A number in [0, 1) from a label: the same on every build. */
function unit(label: string): number {
  return createHash('sha256').update(label).digest().readUInt32BE(0) / 2 ** 32;
}

/** Seconds before a turn: a reply by the assistant comes quickly; a person types for a while. */
function gapSeconds(label: string, byAssistant: boolean, chat: 'assistant' | 'friends'): number {
  const u = unit(label);
  if (byAssistant) return 15 + Math.round(u * 60);
  return chat === 'assistant' ? 60 + Math.round(u * 300) : 30 + Math.round(u * 420);
}

function speaker(session: Session, body: string, i: number): { by: string; body: string } {
  if (body.startsWith('U: ')) return { by: 'human:maya', body: body.slice(3) };
  if (body.startsWith('A: ')) return { by: ASSISTANT, body: body.slice(3) };
  const name = /^(Priya|Jonas): /.exec(body)?.[1];
  if (name !== undefined) return { by: `human:${name.toLowerCase()}`, body };
  throw new Error(`${turn(session.id, i)} has no speaker prefix`);
}

function turns(sessions: Session[], scope: string, chat: 'assistant' | 'friends'): EvalMemoryInput[] {
  return sessions.flatMap((s) => {
    let at = Date.parse(s.start);
    return s.turns.map((raw, i) => {
      const label = turn(s.id, i);
      const { by, body } = speaker(s, raw, i);
      const resumed = s.resumed?.[i];
      if (resumed !== undefined) {
        if (Date.parse(resumed) <= at) throw new Error(`${label} resumes before the turn before it`);
        at = Date.parse(resumed);
      } else if (i > 0) at += gapSeconds(label, by === ASSISTANT, chat) * 1000;
      return {
        id: label,
        body,
        kind: 'episode',
        scope,
        recorded: new Date(at).toISOString().replace('.000Z', 'Z'),
        by,
        session: s.id,
      };
    });
  });
}

export const MEMORIES: EvalMemoryInput[] = [
  ...turns(MAYA_SESSIONS, USER_SCOPE, 'assistant'),
  ...turns(FRIEND_SESSIONS, FRIENDS_SCOPE, 'friends'),
  ...NOTES.map((n) => ({
    id: n.id,
    body: n.body,
    kind: n.kind,
    scope: NOTES_SCOPE,
    key: n.key,
    recorded: n.recorded,
    by: ASSISTANT,
  })),
].sort((x, y) => x.recorded.localeCompare(y.recorded) || x.id.localeCompare(y.id));

export const BODIES = new Map(MEMORIES.map((m) => [m.id, m.body]));
