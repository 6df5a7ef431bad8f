/** The read filters `search` and `list` share: scopes, kinds, subject, key, the two clocks and a limit. */
import type { ParseArgsOptionsConfig } from 'node:util';
import { defined, optInt, optString, optStrings } from '../args.ts';
import type { Values } from '../command.ts';

export const FILTER_OPTIONS: ParseArgsOptionsConfig = {
  scope: { type: 'string', multiple: true },
  kind: { type: 'string', multiple: true },
  subject: { type: 'string' },
  key: { type: 'string' },
  'as-of': { type: 'string' },
  'valid-at': { type: 'string' },
  limit: { type: 'string' },
};

export const FILTER_USAGE = `  --scope S       only this scope (repeatable); default: every scope you may read
  --kind K        only this kind (repeatable): fact, preference, decision, note, episode, commitment,
                  correction, summary
  --subject S     only memories about this subject, e.g. person:alice@example.com
  --key K         only this key, e.g. acme.plan
  --as-of T       what we believed at time T (recorded time, I12)
  --valid-at T    what was true in the world at time T (valid time, I12)
  --limit N       at most N results`;

export interface ReadFilters {
  scopes?: string[];
  kinds?: string[];
  subject?: string;
  key?: string;
  asOf?: string;
  validAt?: string;
  limit?: number;
}

/** The filters as library input; validation of each value (scope forms, times, ranges) is the library's. */
export function readFilters(values: Values): ReadFilters {
  return defined({
    scopes: optStrings(values, 'scope'),
    kinds: optStrings(values, 'kind'),
    subject: optString(values, 'subject'),
    key: optString(values, 'key'),
    asOf: optString(values, 'as-of'),
    validAt: optString(values, 'valid-at'),
    limit: optInt(values, 'limit'),
  });
}
