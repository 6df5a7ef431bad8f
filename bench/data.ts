/**
 * The benchmark data set: memories in the export format (one JSONL line each), inputs for single writes,
 * and 3-term queries, all pure functions of (seed, index) so nothing has to be held in memory.
 */
import { newId } from '../src/model/ids.ts';
import type { Kind, Memory, RememberInput } from '../src/model/memory.ts';
import { mulberry32, pick, type Rng, seedFor, Zipf } from './prng.ts';
import { buildVocabulary, type Vocabulary } from './vocabulary.ts';

export interface DatasetOptions {
  memories: number;
  scopes: number;
  seed: number;
  /** Distinct words; function words included. */
  vocabulary: number;
  /** Zipf exponent of word frequencies. */
  zipfS: number;
  /** Zipf exponent of scope sizes: a few busy scopes, a long tail of small ones. */
  scopeS: number;
}

/** The non-identity part of a memory: what a writer says. */
export interface Content {
  scope: string;
  kind: Kind;
  key: string | null;
  body: string;
  value: unknown;
  subjects: string[];
  validFrom: string | null;
  confidence: number;
}

export interface BenchQuery {
  text: string;
  terms: string[];
  scope: string;
}

const BASE_MS = Date.UTC(2024, 0, 1);
/** One memory every 30 s: a million span about a year. */
const STEP_MS = 30_000;
const KIND_WEIGHTS: [Kind, number][] = [
  ['fact', 0.35],
  ['note', 0.2],
  ['preference', 0.1],
  ['decision', 0.1],
  ['episode', 0.1],
  ['commitment', 0.05],
  ['summary', 0.05],
  ['correction', 0.05],
];
const KEY_FIELDS = ['plan', 'owner', 'status', 'timezone', 'email', 'region', 'tier', 'deadline', 'budget'];
const SURFACES = ['mcp', 'cli', 'http', 'library'];
const QUERY_SALT = 0x51f15e;

export class Dataset {
  readonly options: DatasetOptions;
  readonly vocab: Vocabulary;
  readonly scopeNames: readonly string[];
  readonly #scopeZipf: Zipf;

  constructor(options: DatasetOptions) {
    this.options = options;
    this.vocab = buildVocabulary(options.vocabulary, options.zipfS, options.seed);
    this.scopeNames = Array.from({ length: options.scopes }, (_, k) => scopeName(k));
    this.#scopeZipf = new Zipf(options.scopes, options.scopeS);
  }

  /** What memory `i` says. Indexes past `memories` are fresh writes for the single-write benchmark. */
  content(i: number): Content {
    const rng = mulberry32(seedFor(this.options.seed, i));
    const v = this.vocab;
    const scope = this.scopeNames[this.#scopeZipf.sample(rng)]!;
    const kind = weighted(rng, KIND_WEIGHTS);
    const words: string[] = [];
    for (let n = 8 + pick(rng, 23); n > 0; n--) words.push(v.word(rng));
    const body = `${words[0]!.charAt(0).toUpperCase()}${words.join(' ').slice(1)}.`;
    // Keys are slots of an entity; the index suffix keeps each (scope, key) held by one memory.
    const key =
      rng() < 0.15
        ? `${v.contentWord(rng)}.${KEY_FIELDS[pick(rng, KEY_FIELDS.length)]}.${i.toString(36)}`
        : null;
    let value: unknown = null;
    if (key !== null && rng() < 0.4) {
      value = rng() < 0.5 ? { status: v.contentWord(rng), count: pick(rng, 1000) } : v.contentWord(rng);
    }
    const subjects: string[] = [];
    if (rng() < 0.2) {
      for (let n = 1 + pick(rng, 2); n > 0; n--) subjects.push(subject(rng, v));
    }
    const validFrom =
      rng() < 0.1 ? new Date(BASE_MS + i * STEP_MS - pick(rng, 90) * 86_400_000).toISOString() : null;
    const confidence = rng() < 0.2 ? Math.round((0.5 + rng() * 0.45) * 100) / 100 : 1;
    return { scope, kind, key, body, value, subjects: [...new Set(subjects)], validFrom, confidence };
  }

  /** Memory `i` as an export would carry it: every field, landed and current. */
  memory(i: number): Memory {
    const c = this.content(i);
    const rng = mulberry32(seedFor(this.options.seed ^ 0xa5a5, i));
    const at = BASE_MS + i * STEP_MS;
    const recordedAt = new Date(at).toISOString();
    const agent = c.scope.startsWith('agent:');
    const principal = agent ? `agent:${c.scope.slice(6)}` : 'human:operator';
    let fingerprint = '';
    for (let k = 0; k < 8; k++)
      fingerprint += Math.floor(rng() * 4294967296)
        .toString(16)
        .padStart(8, '0');
    return {
      id: newId('mem', at),
      ...c,
      validTo: null,
      validStart: c.validFrom ?? null,
      validEnd: null,
      supersedes: null,
      editOf: null,
      fingerprint,
      provenance: {
        principal,
        principalKind: agent ? 'agent' : 'human',
        surface: SURFACES[pick(rng, SURFACES.length)]!,
        sessionId: `ses-${Math.floor(i / 40).toString(36)}`,
      },
      recordedAt,
      state: 'active',
      trust: agent ? 'accepted' : 'confirmed',
      supersededBy: null,
      activeFrom: recordedAt,
      activeUntil: null,
      confirmedBy: agent ? null : principal,
      rule: agent ? 'agent-own-scope' : 'humans-land',
    };
  }

  /** Memory `i` as one JSONL line of the export format. */
  line(i: number): string {
    return JSON.stringify({ type: 'memory', memory: this.memory(i), events: [] });
  }

  /** Memory `i` as a caller of `remember` would pass it. */
  rememberInput(i: number): RememberInput {
    const c = this.content(i);
    const input: RememberInput = { body: c.body, scope: c.scope, kind: c.kind, confidence: c.confidence };
    if (c.key !== null) input.key = c.key;
    if (c.value !== null) input.value = c.value;
    if (c.subjects.length > 0) input.subjects = c.subjects;
    if (c.validFrom !== null) input.validFrom = c.validFrom;
    return input;
  }

  /**
   * `count` queries of three distinct content words. The target is a stored memory's scope and one word
   * of its body, so the scope has memories and the query has at least one hit; the other two words are
   * fresh Zipf draws, so queries mix common and rare words the way the bodies do.
   */
  queries(count: number, stream = 0): BenchQuery[] {
    const out: BenchQuery[] = [];
    for (let q = 0; q < count; q++) {
      const rng = mulberry32(seedFor(this.options.seed ^ QUERY_SALT ^ stream, q));
      const target = this.content(pick(rng, this.options.memories));
      const bodyWords = target.body
        .toLowerCase()
        .replace(/\./g, '')
        .split(' ')
        .filter((w) => !this.vocab.isFunctionWord(w));
      const terms = [
        bodyWords.length > 0 ? bodyWords[pick(rng, bodyWords.length)]! : this.vocab.contentWord(rng),
      ];
      while (terms.length < 3) {
        const w = this.vocab.contentWord(rng);
        if (!terms.includes(w)) terms.push(w);
      }
      out.push({ text: terms.join(' '), terms, scope: target.scope });
    }
    return out;
  }
}

/** Scope 0 is `shared` (the busiest); the rest cycle through users, agents and projects. */
function scopeName(k: number): string {
  if (k === 0) return 'shared';
  const id = k.toString().padStart(4, '0');
  return [`project:p${id}`, `user:u${id}`, `agent:a${id}`][k % 3]!;
}

function subject(rng: Rng, v: Vocabulary): string {
  const w = v.contentWord(rng);
  const r = rng();
  if (r < 0.5) return `person:${w}@example.com`;
  return r < 0.8 ? `company:${w}` : `project:${w}`;
}

function weighted<T>(rng: Rng, table: [T, number][]): T {
  let u = rng();
  for (const [item, weight] of table) {
    u -= weight;
    if (u < 0) return item;
  }
  return table.at(-1)![0];
}
