/** Timestamps: ISO-8601 UTC strings with milliseconds, which sort as text and parse everywhere. */
import { z } from 'zod';
import { MemoryError } from './errors.ts';

export const nowIso = (): string => new Date().toISOString();

/** Accepts any date-time string `Date` understands with a timezone or a plain date, and returns canonical ISO. */
export function toIso(value: string, field: string): string {
  const trimmed = value.trim();
  const ok = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(trimmed);
  const ms = ok ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new MemoryError(
      'invalid_input',
      `${field} must be an ISO-8601 date or date-time, got ${JSON.stringify(value.slice(0, 40))}`,
    );
  }
  return new Date(ms).toISOString();
}

/** A zod schema for a time field: validates and canonicalises. */
export const isoTime = (field: string) =>
  z
    .string()
    .max(64)
    .transform((v, ctx) => {
      try {
        return toIso(v, field);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });
