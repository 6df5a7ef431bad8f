/**
 * Writes eval/sets/memledger-v3.json: `node eval/sets/build-v3.ts`. A standalone set (not v1 plus more) in the
 * shape of the public conversational-memory benchmarks: one user's chats with an assistant over fourteen months,
 * two friends' chats over eight, and the assistant's own notes, with nine categories of hand-written queries.
 * It was written without looking at how search ranks, to be run once (docs/eval-format.md#memledger-v3).
 */
import { writeChatSet } from './chat-set.ts';
import {
  ASSISTANT,
  BODIES,
  FRIEND_SESSIONS,
  FRIENDS_SCOPE,
  MAYA_SESSIONS,
  MEMORIES,
  NOTES_SCOPE,
  USER_SCOPE,
} from './v3/memories.ts';
import { NOTES } from './v3/notes.ts';
import { KEYWORD, KNOWLEDGE_UPDATE, PARAPHRASE, PARAPHRASE_NO_OVERLAP } from './v3/queries-a.ts';
import { FALSE_PREMISE, MULTI_HOP, MULTI_SCOPE, NEXT_TURN, TEMPORAL_REFERENCE } from './v3/queries-b.ts';

/** After every memory: a Monday evening, a few days after the last chat. */
const NOW = '2026-09-28T19:00:00Z';

await writeChatSet({
  name: 'memledger-v3',
  description: `A standalone set in the shape of public conversational-memory benchmarks, written blind to the ranker: one user’s chats with an assistant (${MAYA_SESSIONS.length} sessions, July 2025 to September 2026, ${USER_SCOPE}), two friends’ chats (${FRIEND_SESSIONS.length} sessions, January to August 2026, ${FRIENDS_SCOPE}) and the assistant’s notes (keyed facts and preferences, some superseded, ${NOTES_SCOPE}), with nine query categories. Written and run once.`,
  out: new URL('./memledger-v3.json', import.meta.url),
  now: NOW,
  assistant: ASSISTANT,
  userScope: USER_SCOPE,
  otherChatScope: FRIENDS_SCOPE,
  notesScope: NOTES_SCOPE,
  memories: MEMORIES,
  bodies: BODIES,
  notes: NOTES,
  queries: {
    keyword: KEYWORD,
    paraphrase: PARAPHRASE,
    'paraphrase-no-overlap': PARAPHRASE_NO_OVERLAP,
    'knowledge-update': KNOWLEDGE_UPDATE,
    'temporal-reference': TEMPORAL_REFERENCE,
    'next-turn': NEXT_TURN,
    'multi-hop': MULTI_HOP,
    'multi-scope': MULTI_SCOPE,
    'false-premise': FALSE_PREMISE,
  },
  minPerCategory: 12,
});
