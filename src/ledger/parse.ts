/** Validating inputs at the library boundary: zod issues become one `invalid_input` naming each field. */
import type { z } from 'zod';
import { MemoryError } from '../model/errors.ts';

export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .slice(0, 5)
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
  throw new MemoryError('invalid_input', `invalid ${what}: ${problems}`, {
    details: { fields: parsed.error.issues.map((i) => i.path.join('.')).filter((p) => p !== '') },
  });
}
