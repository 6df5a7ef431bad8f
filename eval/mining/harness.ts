/**
 * The mining evaluation: each fragment is written as the file its connector reads (a Claude Code session, a
 * Codex rollout, a Markdown note) into a temporary folder, read back by the real connector and mined by the
 * sync's own path (previewFeed, through the public API), and what would be proposed is matched against the
 * labelled keeps.
 * Precision = matched candidates / candidates; recall = matched keeps / keeps; a candidate holding a string the
 * fragment forbids (a secret) is a leak, counted apart and never matched.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { previewFeed } from '../../src/index.ts';
import { round } from '../metrics.ts';
import { type Half, halfOf } from '../split.ts';
import type { Expected, Fragment, MiningSet } from './format.ts';

type Candidate = Awaited<ReturnType<typeof previewFeed>>['proposals'][number]['candidate'];
import { DEFAULT_THRESHOLD, matchPairs } from './match.ts';

export interface MiningOptions {
  /** Only the fragments of one half (eval/split.ts); the report still names each half it ran. */
  half?: Half;
  /** List every wrong candidate and every missed keep. */
  misses?: boolean;
  threshold?: number;
}

export interface MiningGroup {
  fragments: number;
  keeps: number;
  candidates: number;
  /** Candidates that matched a keep (one to one). */
  correct: number;
  precision: number;
  recall: number;
  /** Candidates holding a forbidden string: a secret that got through. Must be 0. */
  leaks: number;
}

export interface MiningMiss {
  fragment: string;
  half: Half;
  /** `wrong`: a candidate that matched no keep; `missed`: a keep no candidate matched; `leak`: a secret. */
  type: 'wrong' | 'missed' | 'leak';
  body: string;
  kind: string;
  rule?: string;
}

export interface MiningReport {
  set: string;
  mode: 'mining';
  threshold: number;
  overall: MiningGroup;
  halves: Partial<Record<Half, MiningGroup>>;
  origins: Record<string, MiningGroup>;
  connectors: Record<string, MiningGroup>;
  ms: number;
  misses?: MiningMiss[];
}

interface Judged {
  fragment: Fragment;
  half: Half;
  keeps: Expected[];
  candidates: Candidate[];
  correct: number;
  leaks: number;
  misses: MiningMiss[];
}

export async function runMiningEval(set: MiningSet, options: MiningOptions = {}): Promise<MiningReport> {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const started = performance.now();
  const root = mkdtempSync(join(tmpdir(), 'memledger-mining-eval-'));
  const judged: Judged[] = [];
  try {
    for (const fragment of set.fragments) {
      const half = halfOf(fragment.id);
      if (options.half !== undefined && half !== options.half) continue;
      const dir = join(root, fragment.id);
      const candidates = await proposeFor(fragment, dir);
      judged.push(judge(fragment, half, candidates, threshold));
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const group = (pick: (j: Judged) => boolean) => summarise(judged.filter(pick));
  const report: MiningReport = {
    set: set.name,
    mode: 'mining',
    threshold,
    overall: group(() => true),
    halves: {},
    origins: {},
    connectors: {},
    ms: Math.round(performance.now() - started),
  };
  for (const half of ['tuning', 'held-out'] as const) {
    if (judged.some((j) => j.half === half)) report.halves[half] = group((j) => j.half === half);
  }
  for (const origin of [...new Set(judged.map((j) => j.fragment.origin))].sort())
    report.origins[origin] = group((j) => j.fragment.origin === origin);
  for (const c of [...new Set(judged.map((j) => j.fragment.connector))].sort())
    report.connectors[c] = group((j) => j.fragment.connector === c);
  if (options.misses === true) report.misses = judged.flatMap((j) => j.misses);
  return report;
}

/** Writes the fragment where its connector looks, reads it back and mines it as a sync would. */
async function proposeFor(fragment: Fragment, dir: string): Promise<Candidate[]> {
  mkdirSync(dir, { recursive: true });
  if (fragment.connector === 'folder') {
    writeFileSync(join(dir, 'NOTES.md'), `${fragment.lines.map((l) => l.text).join('\n')}\n`);
  } else {
    const body = `${fragment.lines.map((l) => JSON.stringify(l.record)).join('\n')}\n`;
    const name =
      fragment.connector === 'codex'
        ? `rollout-2025-07-08T14-00-00-${sessionOf(fragment)}.jsonl`
        : `${sessionOf(fragment)}.jsonl`;
    writeFileSync(join(dir, name), body);
  }
  return (await previewFeed(fragment.connector, dir)).proposals.map((p) => p.candidate);
}

/** The session id a fragment's lines carry (the file name of a Claude Code session is its id). */
function sessionOf(fragment: Fragment): string {
  for (const l of fragment.lines) {
    const r = l.record as { sessionId?: unknown; payload?: { id?: unknown } } | undefined;
    if (typeof r?.sessionId === 'string') return r.sessionId;
    if (typeof r?.payload?.id === 'string') return r.payload.id;
  }
  return '00000000-0000-4000-a000-000000000000';
}

function judge(fragment: Fragment, half: Half, all: Candidate[], threshold: number): Judged {
  const keeps = fragment.lines.flatMap((l) => l.keep);
  const leaking = (c: Candidate) => fragment.forbid.some((s) => c.body.includes(s));
  const candidates = all.filter((c) => !leaking(c));
  const leaks = all.length - candidates.length;
  const pairs = matchPairs(candidates, keeps, threshold);
  const matchedC = new Set(pairs.map((p) => p.candidate));
  const matchedK = new Set(pairs.map((p) => p.keep));
  const misses: MiningMiss[] = [
    ...all.filter(leaking).map((c) => ({
      fragment: fragment.id,
      half,
      type: 'leak' as const,
      body: '[withheld]',
      kind: c.kind,
      rule: c.rule,
    })),
    ...candidates
      .filter((_, i) => !matchedC.has(i))
      .map((c) => ({
        fragment: fragment.id,
        half,
        type: 'wrong' as const,
        body: c.body,
        kind: c.kind,
        rule: c.rule,
      })),
    ...keeps
      .filter((_, i) => !matchedK.has(i))
      .map((k) => ({ fragment: fragment.id, half, type: 'missed' as const, body: k.body, kind: k.kind })),
  ];
  // A leak is a candidate too: it counts against precision.
  return { fragment, half, keeps, candidates: all, correct: pairs.length, leaks, misses };
}

function summarise(judged: Judged[]): MiningGroup {
  const keeps = judged.reduce((n, j) => n + j.keeps.length, 0);
  const candidates = judged.reduce((n, j) => n + j.candidates.length, 0);
  const correct = judged.reduce((n, j) => n + j.correct, 0);
  return {
    fragments: judged.length,
    keeps,
    candidates,
    correct,
    // No candidates at all proposes nothing wrong: precision 1 (recall shows what was lost).
    precision: round(candidates === 0 ? 1 : correct / candidates),
    recall: round(keeps === 0 ? 1 : correct / keeps),
    leaks: judged.reduce((n, j) => n + j.leaks, 0),
  };
}
