/**
 * memledger's public library API. Every export here is public and chosen; anything not listed is internal.
 */
// First: on an older Node this throws a plain "needs Node.js 24" before any other module body runs.
import './node-version.ts';
export { openLedger, Ledger, LedgerSession, type OpenLedgerOptions } from './ledger/ledger.ts';
export { MemoryError, ERROR_CLASSES, type ErrorClass, asMemoryError, isMemoryError } from './model/errors.ts';
export {
  KINDS,
  STATES,
  TRUST_LEVELS,
  LIMITS,
  type Kind,
  type State,
  type Trust,
  type Memory,
  type Provenance,
  type RememberInput,
  type WriteResult,
} from './model/memory.ts';
export type { MemoryEvent, EventType } from './model/event.ts';
export type { CallContext, Surface } from './model/context.ts';
export {
  type Principal,
  type Grant,
  type Role,
  type PrincipalKind,
  parseGrant,
  formatGrant,
  principalLabel,
} from './model/principal.ts';
export type { SearchInput, SearchResult, SearchHit } from './ledger/search.ts';
export type { Embedder } from './embed/embedder.ts';
export type { VectorUse } from './embed/hybrid.ts';
export { HttpEmbedder, type HttpEmbedderConfig } from './embed/http.ts';
export { LocalEmbedder, localEmbedderAvailable } from './embed/local.ts';
export type { SemanticOptions } from './embed/semantic.ts';
export type { History, ListInput, ReviewItem } from './ledger/read.ts';
export type { EraseInput, EraseResult } from './ledger/erase.ts';
export type { ErasePreview } from './ledger/erase-preview.ts';
export type {
  CredentialCheck,
  ReviewPulse,
  ReviewWatchInput,
  ReviewWatchOptions,
} from './ledger/review-watch.ts';
export type { WhoAmI } from './ledger/whoami.ts';
export type { ImportResult } from './ledger/transfer/import.ts';
export { ImportInterrupted, type ImportOptions } from './ledger/transfer/import-options.ts';
export {
  importFrom,
  readForeign,
  FOREIGN_FORMATS,
  type ForeignFormat,
  type ImportFromOptions,
  type ImportFromResult,
  type Converted as ForeignLines,
  type ForeignLine,
  type PlainLine,
} from './importers/api.ts';
export type { ApproveInput, RejectInput, RejectionLiftResult, UnrejectInput } from './ledger/verdicts.ts';
export type { DoubtInput, TrustResult } from './ledger/doubt.ts';
export type { ContextInput, ContextItem, ContextResult } from './ledger/context/context.ts';
export type { Pool as ContextPool } from './ledger/context/render.ts';
export type { Correction, CorrectionsInput } from './ledger/corrections.ts';
export type { ClaimInput, ClaimResult } from './ledger/claims.ts';
export type { CheckoutOutcome, WorkspaceCheckout, WorkspaceFiles } from './workspace/files.ts';
export type { WorkspaceSchemaResult, WorkspaceSqlInput, WorkspaceSqlResult } from './workspace/ops.ts';
export type { WorkspaceLimits } from './workspace/config.ts';
export type {
  PolicyCheck,
  PolicyCheckInput,
  PolicyOrigin,
  PolicyShow,
  PolicyStep,
} from './ledger/policy-check.ts';
export type { AuditRecord, AuditFilter, FailureCount } from './audit/record.ts';
export { type Policy, parsePolicy, DEFAULT_POLICY_DOCUMENT } from './policy/policy-file.ts';
export { resolveHome } from './store/sqlite/home.ts';
export { previewFeed, type FeedPreview } from './feeds/preview.ts';
export { noteClaims, type NoteClaim, type NoteClaims } from './feeds/notes.ts';
