import { oneLine } from '../core/visible.js';

/**
 * Errors an emulated service answers with: the wire's Error {code, message}
 * and an HTTP status. Messages echo names from requests and the store, so
 * every message is made one line here, its control characters escaped
 * (`\u001b`), before any client shows it.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra response headers (e.g. Retry-After). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    const text = oneLine(message);
    // An answer, not a fault: nothing reads where it was made (only internal errors' stacks are logged), and
    // capturing that cost a refused request more than its own work.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(text);
    Error.stackTraceLimit = limit;
  }
}

export const invalid = (message: string): ApiError => new ApiError(400, 'INVALID_ARGUMENT', message);
export const unauthenticated = (message: string): ApiError => new ApiError(401, 'UNAUTHENTICATED', message);
export const forbidden = (message: string): ApiError => new ApiError(403, 'PERMISSION_DENIED', message);
export const notFound = (message: string): ApiError => new ApiError(404, 'NOT_FOUND', message);
export const alreadyExists = (message: string): ApiError => new ApiError(409, 'ALREADY_EXISTS', message);
export const failedPrecondition = (message: string): ApiError => new ApiError(409, 'FAILED_PRECONDITION', message);
