/**
 * The home's hash key as the audit writer uses it (I9): read from the store, kept a moment, replaced after an
 * erasure. A call's audit record is hashed with the key that was current when the call began, so an erasure's
 * own record is hashed with the key the erasure then destroys.
 */
import { randomBytes } from 'node:crypto';
import { type Hash, keyedHash } from '../guard/redact.ts';
import type { Store } from '../store/port.ts';

/** How long a key is trusted before it is read again: another process may have rotated it. */
const KEY_TTL_MS = 2_000;

export class HashKeys {
  readonly #store: Store;
  #cached: { id: string; hash: Hash; at: number } | null = null;
  #loading: Promise<Hash> | null = null;

  constructor(store: Store) {
    this.#store = store;
  }

  /** The current key's hash, read again once it is older than a moment. */
  async current(): Promise<Hash> {
    const c = this.#cached;
    if (c !== null && Date.now() - c.at < KEY_TTL_MS) return c.hash;
    this.#loading ??= this.#store
      .hashKey()
      .then((k) => {
        this.#cached = { id: k.id, hash: keyedHash(k.key), at: Date.now() };
        return this.#cached.hash;
      })
      .finally(() => {
        this.#loading = null;
      });
    return this.#loading;
  }

  /**
   * The key for a record written without waiting (a surface's refusal): the cached one, or, before the first
   * read finished, a key made for this process and kept nowhere, whose hashes nobody can ever test.
   */
  now(): Hash {
    return this.#cached?.hash ?? EPHEMERAL;
  }

  /** After this process erased something: the next call reads the new key. */
  forget(): void {
    this.#cached = null;
  }
}

const EPHEMERAL = keyedHash(randomBytes(32));
