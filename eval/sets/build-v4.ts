/**
 * Writes eval/sets/memledger-v4.json: `node eval/sets/build-v4.ts`. A standalone TUNING set in the shape of
 * memledger-v3 but with its own people and life, written without reading v3's chats or queries: one man's chats
 * with an assistant over twelve months, three colleagues' group chat over six, and the assistant's own keyed
 * notes, with the same nine query categories. Tune on this one; v3 stays held out (docs/eval-format.md#memledger-v4).
 */
import { writeChatSet } from './chat-set.ts';
import {
  ASSISTANT,
  BODIES,
  GROUP_SCOPE,
  GROUP_SESSIONS,
  LUKAS_SESSIONS,
  MEMORIES,
  NOTES_SCOPE,
  USER_SCOPE,
} from './v4/memories.ts';
import { NOTES } from './v4/notes.ts';
import { KEYWORD, KNOWLEDGE_UPDATE, PARAPHRASE, PARAPHRASE_NO_OVERLAP } from './v4/queries-a.ts';
import { FALSE_PREMISE, MULTI_HOP, MULTI_SCOPE, NEXT_TURN, TEMPORAL_REFERENCE } from './v4/queries-b.ts';

/** After every memory: a Monday evening, six days after the last chat. */
const NOW = '2026-11-30T20:00:00Z';

await writeChatSet({
  name: 'memledger-v4',
  description: `A tuning set in memledger-v3’s shape, written independently of v3’s content: one user’s chats with an assistant (${LUKAS_SESSIONS.length} sessions, December 2025 to November 2026, ${USER_SCOPE}), three colleagues’ group chat (${GROUP_SESSIONS.length} sessions, June to November 2026, ${GROUP_SCOPE}) and the assistant’s notes (keyed facts and preferences, some superseded, ${NOTES_SCOPE}), with nine query categories. Tune on this set; memledger-v3 stays held out.`,
  out: new URL('./memledger-v4.json', import.meta.url),
  now: NOW,
  assistant: ASSISTANT,
  userScope: USER_SCOPE,
  otherChatScope: GROUP_SCOPE,
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
  minPerCategory: 14,
});
