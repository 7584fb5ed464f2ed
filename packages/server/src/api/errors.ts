import { InvalidTopicsError, QuotaExceededError, RetryLaterError, isRepoHostError, type ApiInvalidTopicsError, type RepoHostErrorKind } from '@repohost/core';

/**
 * The error taxonomy, in one place: each kind core throws, the HTTP status it becomes, and the named response
 * that documents it in the OpenAPI document (Forgejo's names).
 */
export const ERROR_KINDS = {
  bad_request: { status: 400, response: 'error', description: 'APIError is error format response' },
  unauthorized: { status: 401, response: 'unauthorized', description: 'APIUnauthorizedError is a unauthorized error response' },
  forbidden: { status: 403, response: 'forbidden', description: 'APIForbiddenError is a forbidden error response' },
  not_found: { status: 404, response: 'notFound', description: 'APINotFound is a not found error response' },
  conflict: { status: 409, response: 'conflict', description: 'APIConflict is a conflict empty response' },
  locked: { status: 423, response: 'repoArchivedError', description: 'APIRepoArchivedError is an error that is raised when an archived repo should be modified' },
  validation: { status: 422, response: 'validationError', description: 'APIValidationError is error format response related to input validation' },
  precondition_failed: { status: 412, response: 'error', description: 'APIError is error format response' },
  // Forgejo documents its 405s (a merge refused, the teams of an individual's repository) as its plain error.
  method_not_allowed: { status: 405, response: 'error', description: 'APIError is error format response' },
  quota_exceeded: { status: 413, response: 'quotaExceeded', description: 'QuotaExceeded' },
  // Forgejo's document names no 413 response but quotaExceeded, which describes a quota refusal's body.
  payload_too_large: { status: 413, response: 'error', description: 'APIError is error format response' },
  too_many_requests: { status: 429, response: 'tooManyRequests', description: 'Too many failed attempts, or an API rate limit spent; retry after the number of seconds in Retry-After' },
  // Forgejo names no 501 response; the body is its plain error.
  not_supported: { status: 501, response: 'error', description: 'APIError is error format response' },
  unavailable: { status: 503, response: 'serviceUnavailable', description: 'The server is busy; retry after the number of seconds in Retry-After' },
  // Forgejo names no 502 response (its object storage errors are 500s); the body is its plain error.
  bad_gateway: { status: 502, response: 'error', description: 'APIError is error format response' },
  // Forgejo answers an ActivityPub activity it refuses with 406 and its plain error.
  not_acceptable: { status: 406, response: 'error', description: 'APIError is error format response' },
} as const satisfies Record<RepoHostErrorKind, { status: number; response: string; description: string }>;

/** How an error thrown below a route is answered. */
export interface ErrorAnswer {
  status: number;
  message: string;
  retryAfterSeconds?: number;
  /** The body, where Forgejo shapes it otherwise than `{"message","url"}`. */
  body?: Record<string, unknown>;
}

/** Status and message (and the body, for the errors Forgejo answers with one of their own) for an error thrown anywhere below a route. */
export function errorStatus(error: unknown): ErrorAnswer {
  if (error instanceof RetryLaterError) return { status: ERROR_KINDS[error.kind].status, message: error.message, retryAfterSeconds: error.retryAfterSeconds };
  if (isRepoHostError(error)) return { status: ERROR_KINDS[error.kind].status, message: error.message, body: errorBodyOf(error) };
  if (error instanceof HttpError) return { status: error.status, message: error.message };
  return { status: 500, message: 'Internal Server Error' };
}

/** The bodies Forgejo gives some refusals instead of `{"message","url"}`. */
function errorBodyOf(error: unknown): Record<string, unknown> | undefined {
  // A quota refusal names the account instead of pointing at the documentation.
  if (error instanceof QuotaExceededError) return { message: error.message, user_id: error.userId, username: error.username };
  // Topic names that cannot be stored: APIInvalidTopicsError.
  if (error instanceof InvalidTopicsError) return { invalidTopics: error.invalidTopics, message: error.reason } satisfies ApiInvalidTopicsError;
  return undefined;
}

/** An error with an explicit status, for conditions only the HTTP layer knows (body too large, …). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
