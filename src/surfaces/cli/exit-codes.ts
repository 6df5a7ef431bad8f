/** Exit codes: 0 on success, one distinct code per error class so scripts can branch on the failure. */
import type { ErrorClass } from '../../model/errors.ts';

export const EXIT_CODES: Record<ErrorClass, number> = {
  internal: 1,
  invalid_input: 2,
  permission: 3,
  not_found: 4,
  conflict: 5,
  upstream: 6,
};

export const exitCodeFor = (errorClass: ErrorClass): number => EXIT_CODES[errorClass];
