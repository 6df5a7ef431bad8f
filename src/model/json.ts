/**
 * Structure limits for JSON from callers: how deep and how many values. Checked by one iterative walk before
 * anything recursive (zod, canonical JSON, the secret scan, rendering) sees the value, so a hostile document is
 * `invalid_input` instead of a stack overflow.
 */
import { z } from 'zod';
import { MemoryError } from './errors.ts';
import { lazySchema } from './lazy-schema.ts';

export const JSON_LIMITS = {
  /** Containers inside containers. No record needs more; 3,000 overflowed zod's recursive parse. */
  depth: 64,
  /**
   * Values in one document. A `value` is at most 16,000 characters of JSON, which holds at most ~8,000 values,
   * so this refuses nothing the size limit would accept, and bounds the walk before the size is measured.
   */
  nodes: 10_000,
} as const;

export interface JsonLimits {
  depth: number;
  nodes: number;
}

/**
 * What is wrong with a value's structure, in words (no content), or null when it is within the limits.
 * Iterative, so it cannot overflow the stack however deep the value is; a cycle counts as too deep.
 * @example jsonShapeProblem([[[1]]], { depth: 2, nodes: 100 }) // 'is nested deeper than 2 levels'
 */
export function jsonShapeProblem(value: unknown, limits: JsonLimits = JSON_LIMITS): string | null {
  const stack: [unknown, number][] = [[value, 0]];
  let nodes = 1;
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limits.depth) return `is nested deeper than ${limits.depth} levels`;
    const children = Array.isArray(v) ? v : Object.values(v);
    // Counted before they are pushed, so a million-element array costs one comparison, not a million pushes.
    nodes += children.length;
    if (nodes > limits.nodes) return `has more than ${limits.nodes} values`;
    for (const child of children) stack.push([child, depth + 1]);
  }
  return null;
}

/**
 * Any JSON value within JSON_LIMITS. The limits are checked first (a transform piped into `z.json()`, so the
 * API documents it as JSON), and only a value that passes them reaches zod's recursive JSON check.
 */
export const jsonValueSchema: z.ZodType<unknown> = lazySchema(() =>
  z
    .transform((value: unknown, ctx) => {
      const problem = jsonShapeProblem(value);
      if (problem === null) return value;
      ctx.addIssue({ code: 'custom', message: `JSON ${problem}` });
      return z.NEVER;
    })
    .pipe(z.json()),
);

/**
 * How deep a request may nest: a value at its limit plus the envelope around it (an HTTP body is one level,
 * a JSON-RPC `params.arguments.value` three). Deeper requests are refused before any schema reads them.
 */
export const REQUEST_DEPTH = JSON_LIMITS.depth + 8;

/**
 * Parses request text (an HTTP body, an MCP message) and refuses nesting beyond REQUEST_DEPTH, in one place
 * for every surface. Failures are `invalid_input` with `details.problem` `syntax` or `structure`; the
 * parser's own message is not passed on, since it quotes the input.
 * @example parseJsonText('{"query":"acme"}', 'the request body') // { query: 'acme' }
 */
export function parseJsonText(text: string, what: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MemoryError('invalid_input', `${what} is not valid JSON`, { details: { problem: 'syntax' } });
  }
  const problem = requestShapeProblem(value);
  if (problem !== null) {
    throw new MemoryError('invalid_input', `${what} ${problem}`, { details: { problem: 'structure' } });
  }
  return value;
}

/** The structure check of parseJsonText, for a caller that parsed the text itself. */
export const requestShapeProblem = (value: unknown): string | null =>
  jsonShapeProblem(value, { depth: REQUEST_DEPTH, nodes: Number.POSITIVE_INFINITY });
