/** The context of a call: where it came from and on whose behalf. Stamped into provenance and audit (I14). */

export const SURFACES = ['library', 'cli', 'mcp', 'http', 'hook', 'feed'] as const;
export type Surface = (typeof SURFACES)[number];

export interface CallContext {
  surface: Surface;
  onBehalfOf?: string;
  runId?: string;
  sessionId?: string;
  /** `name/version` of the client program, e.g. `claude-code/2.1.0`. */
  client?: string;
  tokenId?: string;
  /** The tool or route, for the audit record. Defaults to the ledger operation. */
  tool?: string;
}
