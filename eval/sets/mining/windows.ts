/** Where each public transcript excerpt of the mining set is cut from: repository, commit, file and line range. */

export interface ClaudeWindow {
  id: string;
  repo: string;
  commit: string;
  path: string;
  /** The first and last line's uuid, inclusive. */
  from: string;
  to: string;
}
export interface CodexWindow {
  id: string;
  repo: string;
  commit: string;
  path: string;
  /** Zero-based line numbers of the rollout file, in order (session_meta first, so the session id is known). */
  lines: number[];
}

const SPOTTER = { repo: 'marot/spotter', commit: '8cc42b0bd39d04e71e509d7d58e6782ab435329f' };
const spotter = (session: string) => `test/fixtures/transcripts/${session}.jsonl`;
const CODEMIE = { repo: 'codemie-ai/codemie-code', commit: '8e8d4ce5ad2dfae14cb26caf5d3cddebee929990' };
const codemie = (name: string) => `src/agents/plugins/codex/__tests__/fixtures/${name}.jsonl`;
const ROLLOUT_A = codemie('rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799');
const ROLLOUT_B = codemie('rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80');

/** The six sessions of marot/spotter's fixtures (the seven junk candidates the old miner made come from these). */
export const CLAUDE_WINDOWS: ClaudeWindow[] = [
  {
    id: 'spotter-llmchain-dialyzer',
    ...SPOTTER,
    path: spotter('4d5611e5-241a-462a-8d15-5122611a9569'),
    from: '894d5e49-4eeb-4f6e-9f49-3e4a17cd6eef',
    to: '8579c0c7-26b4-4059-852f-0b85b7103e02',
  },
  {
    id: 'spotter-liveview-sandbox',
    ...SPOTTER,
    path: spotter('8463c716-a2ea-4c14-9efa-87158ebd9f20'),
    from: '6ed8466e-0c36-4aea-9409-be6c5b00cb0f',
    to: 'ba9d08cf-9791-40a5-950f-b83e95f82baa',
  },
  {
    id: 'spotter-propagator-edit',
    ...SPOTTER,
    path: spotter('ae4a77f8-aedd-4bc1-888f-c94edc91af04'),
    from: '5cc56235-f0a4-4475-b9ed-03d423dbbfcc',
    to: '7586ccf7-f4fc-43b7-a6d4-951cdbccbcd2',
  },
  {
    id: 'spotter-credo-trace-id',
    ...SPOTTER,
    path: spotter('ae4a77f8-aedd-4bc1-888f-c94edc91af04'),
    from: 'c162e421-65e0-4f12-8f44-dce01dba1c52',
    to: 'd57e418c-e0c6-446f-b8ea-ed78cfbcce9f',
  },
  {
    id: 'spotter-dialyzer-still',
    ...SPOTTER,
    path: spotter('ae4a77f8-aedd-4bc1-888f-c94edc91af04'),
    from: '36c61479-4b35-49b6-bd39-6bdd3a7cfaba',
    to: '39062bd2-cec0-481f-99ea-d7ed7ebc843f',
  },
  {
    id: 'spotter-dialyzer-maybe',
    ...SPOTTER,
    path: spotter('ae4a77f8-aedd-4bc1-888f-c94edc91af04'),
    from: '9d21cf59-dd5b-412d-bc36-725297385b18',
    to: '0ebb893d-4673-4c67-9077-d0b0a017387f',
  },
  {
    id: 'spotter-uuid-idempotency',
    ...SPOTTER,
    path: spotter('fa812bfe-b295-4cca-9c2f-fdf01028cb46'),
    from: '502ffc0f-8317-47e1-8640-8ed83c8afbee',
    to: 'ff394806-0161-44d0-b408-be3ac3ead369',
  },
  {
    id: 'spotter-bead-prompt',
    ...SPOTTER,
    path: spotter('4d5611e5-241a-462a-8d15-5122611a9569'),
    from: 'daa5a4bb-530c-4055-b20c-bde38255c99e',
    to: 'daa5a4bb-530c-4055-b20c-bde38255c99e',
  },
  {
    id: 'spotter-did-you-push',
    ...SPOTTER,
    path: spotter('258c7280-ae70-4798-800f-63464d01a85d'),
    from: '41fc1786-c22e-45ab-89c6-527c89c66d26',
    to: '41fc1786-c22e-45ab-89c6-527c89c66d26',
  },
  {
    id: 'spotter-xterm-scroll',
    ...SPOTTER,
    path: 'test/fixtures/transcripts/tool_heavy.jsonl',
    from: 'f643538d-cf06-4b9a-9bb0-9ae5c26ea07a',
    to: 'f643538d-cf06-4b9a-9bb0-9ae5c26ea07a',
  },
  {
    id: 'spotter-phx-server',
    ...SPOTTER,
    path: 'test/fixtures/transcripts/short.jsonl',
    from: '7d48cbd2-6615-4dd8-87f6-38f12b8167d6',
    to: '7d48cbd2-6615-4dd8-87f6-38f12b8167d6',
  },
];

/** Two Codex rollouts of codemie-ai/codemie-code's test fixtures. */
export const CODEX_WINDOWS: CodexWindow[] = [
  { id: 'codemie-compaction-request', ...CODEMIE, path: ROLLOUT_A, lines: [0, 22, 25, 42] },
  { id: 'codemie-rg-missing', ...CODEMIE, path: ROLLOUT_A, lines: [0, 141, 199] },
  { id: 'codemie-red-check', ...CODEMIE, path: ROLLOUT_A, lines: [0, 271, 274] },
  { id: 'codemie-final-summary', ...CODEMIE, path: ROLLOUT_A, lines: [0, 383] },
  { id: 'codemie-demo-scenario', ...CODEMIE, path: ROLLOUT_B, lines: [0, 30, 31, 32] },
];
