/** The one error type of the library: a failure class, a message for people, and the cause inside. */

export const ERROR_CLASSES = [
  'invalid_input',
  'permission',
  'not_found',
  'conflict',
  'upstream',
  'internal',
] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

export interface MemoryErrorOptions {
  cause?: unknown;
  /** Machine-readable facts about the failure (the winning id of a race, the offending field). Never content. */
  details?: Record<string, unknown>;
  /**
   * Parts of the message that are memory content (a key, a subject): the caller reads them, the audit keeps
   * the message without them, since audit outlives erasure (I8, I9).
   */
  content?: readonly (string | null | undefined)[];
}

/**
 * Every failure the library reports. Surfaces map `class` to their wire form in one function each.
 * @example throw new MemoryError('not_found', `no memory ${id}`)
 */
export class MemoryError extends Error {
  readonly class: ErrorClass;
  readonly details: Record<string, unknown>;
  /** The message as the audit keeps it: content parts replaced by `…`. */
  readonly auditMessage: string;

  constructor(errorClass: ErrorClass, message: string, options: MemoryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MemoryError';
    this.class = errorClass;
    this.details = options.details ?? {};
    this.auditMessage = withoutContent(message, options.content ?? []);
  }

  toJSON(): { class: ErrorClass; message: string; details?: Record<string, unknown> } {
    return Object.keys(this.details).length > 0
      ? { class: this.class, message: this.message, details: this.details }
      : { class: this.class, message: this.message };
  }
}

/** Wraps anything thrown into a MemoryError; an unknown failure is ours (`internal`), never the caller's fault. */
export function asMemoryError(error: unknown): MemoryError {
  if (error instanceof MemoryError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new MemoryError('internal', `internal error: ${message}`, { cause: error });
}

export function isMemoryError(error: unknown, errorClass?: ErrorClass): error is MemoryError {
  return error instanceof MemoryError && (errorClass === undefined || error.class === errorClass);
}

/** Longest parts first, so a part inside another (a key inside a subject) cannot leave a remnant. */
function withoutContent(message: string, parts: readonly (string | null | undefined)[]): string {
  let out = message;
  for (const part of [...parts]
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .sort((a, b) => b.length - a.length)) {
    out = out.split(part).join('…');
  }
  return out;
}
