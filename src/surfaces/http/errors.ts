/** The one mapping from a library failure class to an HTTP status and the wire body `{"error":{"class","message"}}`. */
import { asMemoryError, type ErrorClass, type MemoryError } from '../../model/errors.ts';

export interface ErrorBody {
  error: { class: ErrorClass; message: string };
}

/**
 * 401 when no usable credential was presented (the token store marks those `details.authentication`),
 * 403 when the credential is fine but not allowed; 413 for a body over the size limit.
 */
export function httpStatus(error: MemoryError): 400 | 401 | 403 | 404 | 409 | 413 | 500 | 502 {
  switch (error.class) {
    case 'invalid_input':
      return error.details.tooLarge === true ? 413 : 400;
    case 'permission':
      return error.details.authentication === undefined ? 403 : 401;
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'upstream':
      return 502;
    case 'internal':
      return 500;
  }
}

export function errorBody(error: unknown): { status: ReturnType<typeof httpStatus>; body: ErrorBody } {
  const e = asMemoryError(error);
  return { status: httpStatus(e), body: { error: { class: e.class, message: e.message } } };
}
