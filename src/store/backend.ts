/**
 * What a store backend gives the ledger, and the registry that picks one from a store spec: a path (the embedded
 * home, SQLite) or a URL whose scheme names a registered backend (`postgres://…`). The ledger sees only this.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AuditSink } from '../audit/record.ts';
import type { TokenStore } from '../auth/token-store.ts';
import { MemoryError } from '../model/errors.ts';
import { sibling } from '../sibling.ts';
import type { Durability, Store } from './port.ts';
import { sqliteBackend } from './sqlite/backend.ts';

/** What a backend can do beyond the port. Differences that are not SQL text are capabilities, never `if (kind)`. */
export interface BackendCapabilities {
  /** The store lives in files of one directory (`home`): byte checks of erasure, token and feed files beside it. */
  files: boolean;
}

/** A backend's connections, held by one ledger until it releases them. */
export interface OpenedStore {
  store: Store;
  audit: AuditSink;
  /** This open made the connections: no call of this process is in flight on them yet (outbox recovery). */
  fresh: boolean;
  /** Lets go of the connections; the backend closes them when nothing else of this process holds them. */
  release(): void;
}

/** One forward-only migration a backend applied (or found applied), by part: `store`, `audit`, `tokens`… */
export interface MigrationStep {
  part: string;
  version: number;
  name: string;
}

export interface MigrationReport {
  /** The store, as `label` shows it. */
  store: string;
  /** What this run applied, in order; empty when the store was current. */
  applied: MigrationStep[];
  /** Each part's schema version after the run. */
  versions: Record<string, number>;
}

export interface BackendOptions {
  sync?: Durability;
  /** The tenant inside a shared database; a backend whose every store is one tenant (a home) ignores it. */
  tenant?: string;
  /**
   * A database backend's URL of the schema's owner, for the maintenance erasure needs when the store's own role
   * may not do it (I9); default `MEMLEDGER_MAINTENANCE_URL`. A home ignores it.
   */
  maintenanceUrl?: string;
}

/**
 * A store named by its spec, not opened yet. Everything here is known without a connection, so a ledger that
 * opens asynchronously still knows at once where it is and which policy governs it.
 */
export interface StoreBackend {
  /** `sqlite`, `postgres`…: for messages and reports, never for branching. */
  readonly kind: string;
  /** The store as it may be shown: a path, or a URL without its password. */
  readonly label: string;
  /** The data directory when `capabilities.files`, else null. */
  readonly home: string | null;
  readonly capabilities: BackendCapabilities;
  /** The policy file that governs this store, or null for the built-in default (unless the opener gives one). */
  readonly policyPath: string | null;
  /** Creates what the store needs (a directory, a default policy) if missing; idempotent. */
  prepare(): void;
  /** Opens (and migrates) the store. Synchronous where the engine is (SQLite), a promise where it is not. */
  open(): OpenedStore | Promise<OpenedStore>;
  /** Applies forward-only migrations and says which. */
  migrate(): MigrationReport | Promise<MigrationReport>;
  /** The store's API tokens (auth.db beside a home, a table in a database); the caller closes it. */
  openTokens(): Promise<TokenStore>;
}

/** Makes a backend for a spec with a registered scheme. */
export type BackendFactory = (spec: string, options: BackendOptions) => StoreBackend;

const factories = new Map<string, BackendFactory>();

/**
 * Registers a backend for URL schemes (`postgres:`). A later registration of a scheme replaces the earlier one
 * (a test's fake backend, or a build that ships its own); the function returned puts back what it replaced.
 * @example const restore = registerBackend(['mem:'], (spec) => myBackend(spec));
 */
export function registerBackend(schemes: readonly string[], factory: BackendFactory): () => void {
  const before = schemes.map((s) => [normaliseScheme(s), factories.get(normaliseScheme(s))] as const);
  for (const [scheme] of before) factories.set(scheme, factory);
  return () => {
    for (const [scheme, previous] of before) {
      if (previous === undefined) factories.delete(scheme);
      else factories.set(scheme, previous);
    }
  };
}

/**
 * The backend a spec names: a URL with a registered scheme goes to that backend; `file:` URLs and anything that
 * is not a URL are paths of an embedded home. An unknown scheme is `invalid_input`, never a directory named
 * `postgress:` created by a typo.
 */
export function backendFor(spec: string, options: BackendOptions = {}): StoreBackend {
  if (spec.trim() === '') throw new MemoryError('invalid_input', 'the store must not be empty');
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(spec)?.[1]?.toLowerCase();
  if (scheme === undefined) return sqliteBackend(spec, options);
  if (scheme === 'file') return sqliteBackend(fileURLToPath(spec), options);
  const factory = factories.get(`${scheme}:`);
  if (factory === undefined) {
    const known = ['a path', 'file://', ...[...factories.keys()].map((s) => `${s}//`)].join(', ');
    throw new MemoryError(
      'invalid_input',
      `no store backend for ${scheme}: URLs (a store is one of: ${known})`,
    );
  }
  return factory(spec, options);
}

/**
 * The store to open: an explicit store, else an explicit home (a path), else MEMLEDGER_STORE, else
 * MEMLEDGER_HOME, else ~/.memledger. An explicit choice beats the environment; of two explicit ones that
 * disagree neither wins: that is `invalid_input`.
 */
export function resolveStoreSpec(
  explicit: { store?: string | undefined; home?: string | undefined } = {},
  env: NodeJS.ProcessEnv = process.env,
): string {
  const { store, home } = explicit;
  if (store !== undefined && home !== undefined && store !== home) {
    throw new MemoryError(
      'invalid_input',
      'both a store and a home were given; name one (--store takes a path too)',
    );
  }
  const chosen =
    store ?? home ?? nonEmpty(env.MEMLEDGER_STORE) ?? env.MEMLEDGER_HOME ?? join(homedir(), '.memledger');
  if (chosen.trim() === '') throw new MemoryError('invalid_input', 'the home directory must not be empty');
  return chosen;
}

/** A URL as it may appear in messages, reports and the audit: no password, no query (it may carry secrets). */
export function safeLabel(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    u.search = '';
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}

/** An environment variable set to an empty string counts as unset: `MEMLEDGER_STORE= memledger …` clears it. */
const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value === '' ? undefined : value;

const normaliseScheme = (scheme: string): string => `${scheme.replace(/:(\/\/)?$/, '').toLowerCase()}:`;

/** The module a build with PostgreSQL ships beside src/store/postgres/*: the backend the registry loads. */
export interface PostgresBackendModule {
  openPostgres(url: string, options: BackendOptions): Promise<OpenedStore>;
  migratePostgres(url: string, options: BackendOptions): Promise<MigrationReport>;
  openPostgresTokenStore(url: string, options: BackendOptions): Promise<TokenStore>;
}

/**
 * Where the Postgres backend would be, beside this module: `.ts` when run from source, `.js` in a built package.
 * A URL, so the type checker does not require a module that a build may not have.
 */
const POSTGRES_MODULE = sibling(import.meta.url, 'postgres/backend');

/** Loads the Postgres backend on first use only: an embedded home never loads postgres.js. */
async function loadPostgres(): Promise<PostgresBackendModule> {
  // Asked of the file system, not read from an import error: a backend that is there but fails to load (a
  // dependency missing inside it) must fail as itself, not as "no backend".
  if (!existsSync(POSTGRES_MODULE)) {
    throw new MemoryError(
      'invalid_input',
      'this build has no Postgres backend (src/store/postgres/backend.ts is missing); use a path for an embedded home',
    );
  }
  return (await import(POSTGRES_MODULE.href)) as PostgresBackendModule;
}

function postgresBackend(url: string, options: BackendOptions): StoreBackend {
  return {
    kind: 'postgres',
    label: safeLabel(url),
    home: null,
    capabilities: { files: false },
    // A database has no directory for a policy.json; the opener's policy or the built-in default governs it.
    policyPath: null,
    prepare: () => undefined,
    open: async () => (await loadPostgres()).openPostgres(url, options),
    migrate: async () => (await loadPostgres()).migratePostgres(url, options),
    openTokens: async () => (await loadPostgres()).openPostgresTokenStore(url, options),
  };
}

registerBackend(['postgres:', 'postgresql:'], postgresBackend);
