// The API's shapes as the console reads them: the library's own types, imported for their types only.
export type { Memory, Provenance, WriteResult } from '../model/memory.ts';
export type { MemoryEvent } from '../model/event.ts';
export type { AuditRecord, FailureCount } from '../audit/record.ts';
export type { History, ReviewItem } from '../ledger/read.ts';
export type { SearchHit, SearchResult } from '../ledger/search.ts';
export type { ErasePreview } from '../ledger/erase-preview.ts';
export type { EraseResult } from '../ledger/erase.ts';
export type { ReviewPulse } from '../ledger/review-watch.ts';
export type { WhoAmI } from '../ledger/whoami.ts';
