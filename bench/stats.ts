/** Latency summaries: nearest-rank percentiles over every sample, in milliseconds to the microsecond. */
import { performance } from 'node:perf_hooks';

export interface Latency {
  n: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  meanMs: number;
  minMs: number;
  maxMs: number;
  /** CPU time of the process per operation (all threads): the cost without other processes' contention. */
  cpuP50Ms?: number;
  cpuMeanMs?: number;
}

export function summarize(samples: readonly number[], cpuSamples?: readonly number[]): Latency {
  if (samples.length === 0) throw new Error('no samples to summarize');
  const sorted = Float64Array.from(samples).sort();
  const cpu =
    cpuSamples === undefined
      ? {}
      : {
          cpuP50Ms: round(percentile(Float64Array.from(cpuSamples).sort(), 0.5)),
          cpuMeanMs: round(mean(cpuSamples)),
        };
  return {
    n: sorted.length,
    p50Ms: round(percentile(sorted, 0.5)),
    p90Ms: round(percentile(sorted, 0.9)),
    p99Ms: round(percentile(sorted, 0.99)),
    meanMs: round(mean(sorted)),
    minMs: round(sorted[0]!),
    maxMs: round(sorted.at(-1)!),
    ...cpu,
  };
}

/**
 * A stopwatch for one operation: wall time, and the process's CPU time (all threads). Under contention from
 * other processes wall time inflates and CPU time does not, so the pair tells load from cost.
 */
export function stopwatch(): () => { wallMs: number; cpuMs: number } {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    return { wallMs: performance.now() - wall, cpuMs: (used.user + used.system) / 1000 };
  };
}

/** Rounds to `digits` decimals (three for milliseconds: a microsecond). */
export const round = (value: number, digits = 3): number => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

/** memledger's cost over the baseline's: 1.8 means memledger takes 1.8 times as long (or as many bytes). */
export const ratio = (memledger: number, raw: number): number => round(memledger / raw, 2);

/** One nearest-rank percentile (`p` in 0..1) of unsorted samples, rounded to the microsecond. */
export const quantile = (samples: readonly number[], p: number): number =>
  round(percentile(Float64Array.from(samples).sort(), p));

/** Nearest rank: the smallest sample with at least `p` of the samples at or below it. */
function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

function mean(samples: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < samples.length; i++) total += samples[i]!;
  return total / samples.length;
}
