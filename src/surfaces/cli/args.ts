/**
 * Reading parsed option values: strings, repeatable strings, whole numbers and JSON. Only the shape of the
 * text is checked here (is it a number, is it JSON); what the values mean is the library's to validate.
 */
import { MemoryError } from '../../model/errors.ts';
import type { Values } from './command.ts';

export function optString(values: Values, name: string): string | undefined {
  const v = values[name];
  if (Array.isArray(v)) return v.length === 0 ? undefined : String(v.at(-1));
  return typeof v === 'string' ? v : undefined;
}

/** A repeatable option (`--scope a --scope b`); undefined when absent, so the library applies its default. */
export function optStrings(values: Values, name: string): string[] | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  const list = (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
  return list.length === 0 ? undefined : list;
}

export const optFlag = (values: Values, name: string): boolean => values[name] === true;

/** A whole number such as `--limit 20`; `abc`, `1.5` or `1e3` are refused before any call. */
export function optInt(values: Values, name: string): number | undefined {
  const text = optString(values, name);
  if (text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text.trim())) {
    throw new MemoryError('invalid_input', `--${name} must be a whole number, got ${quote(text)}`);
  }
  return Number(text.trim());
}

/** A decimal number such as `--confidence 0.8`. */
export function optNumber(values: Values, name: string): number | undefined {
  const text = optString(values, name);
  if (text === undefined) return undefined;
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(n)) {
    throw new MemoryError('invalid_input', `--${name} must be a number, got ${quote(text)}`);
  }
  return n;
}

/** A JSON document such as `--value '{"plan":"pro"}'` or `--value '"pro"'`. */
export function optJson(values: Values, name: string): unknown {
  const text = optString(values, name);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MemoryError(
      'invalid_input',
      `--${name} must be JSON, e.g. '{"plan":"pro"}', '42' or '"text"' (${(error as Error).message})`,
    );
  }
}

/** A value that must be one of a few words. */
export function optChoice<T extends string>(
  values: Values,
  name: string,
  choices: readonly T[],
): T | undefined {
  const text = optString(values, name);
  if (text === undefined) return undefined;
  if (!(choices as readonly string[]).includes(text)) {
    throw new MemoryError(
      'invalid_input',
      `--${name} must be one of ${choices.join(', ')}, got ${quote(text)}`,
    );
  }
  return text as T;
}

/** Drops undefined fields, so optional inputs reach the library's strict schemas only when given. */
export function defined<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Quotes a piece of user input for an error message, cut short so a huge argument does not flood the terminal. */
export const quote = (text: string): string =>
  JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
