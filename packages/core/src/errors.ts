/**
 * Typed errors thrown by core services. Core knows nothing of HTTP; the server maps each kind to a status in one
 * table (`ERROR_KINDS` in the server's api/errors.ts).
 */
export type RepoHostErrorKind =
  | 'not_found'
  | 'forbidden'
  | 'validation'
  | 'conflict'
  | 'unauthorized'
  | 'bad_request'
  | 'too_many_requests'
  | 'unavailable'
  | 'bad_gateway'
  | 'locked'
  | 'quota_exceeded'
  | 'payload_too_large'
  | 'precondition_failed'
  | 'method_not_allowed'
  | 'not_supported'
  | 'not_acceptable';

export abstract class RepoHostError extends Error {
  abstract readonly kind: RepoHostErrorKind;
}

/** The thing does not exist, or the actor may not know it exists. */
export class NotFoundError extends RepoHostError {
  readonly kind = 'not_found' as const;
  constructor(message = 'The target couldn\'t be found.') {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** The actor can see the thing but may not do this to it. */
export class ForbiddenError extends RepoHostError {
  readonly kind = 'forbidden' as const;
  constructor(message = 'Forbidden') {
    super(message);
    this.name = 'ForbiddenError';
  }
}

/** Credentials are missing or wrong. */
export class UnauthorizedError extends RepoHostError {
  readonly kind = 'unauthorized' as const;
  constructor(message = 'Unauthorized') {
    super(message);
    this.name = 'UnauthorizedError';
  }
}

/** Input failed validation; `field` names the offending input field (wire name). */
export class ValidationError extends RepoHostError {
  readonly kind = 'validation' as const;
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(field ? `[${field}]: ${reason}` : reason);
    this.name = 'ValidationError';
  }
}

/** The write would collide with existing state (duplicate name, …). */
export class ConflictError extends RepoHostError {
  readonly kind = 'conflict' as const;
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** The resource is read-only for now (an archived repository refuses writes). */
export class LockedError extends RepoHostError {
  readonly kind = 'locked' as const;
  constructor(message = 'repo is archived') {
    super(message);
    this.name = 'LockedError';
  }
}

/** The write would take an account past its quota (Forgejo's 413 `quota exceeded`, naming the account). */
export class QuotaExceededError extends RepoHostError {
  readonly kind = 'quota_exceeded' as const;
  constructor(
    readonly userId: number,
    readonly username: string,
  ) {
    super('quota exceeded');
    this.name = 'QuotaExceededError';
  }
}

/**
 * The request carries more than is accepted (an upload past `[attachment] MAX_SIZE`): a 413 of its own, apart from
 * a quota refusal, which answers with the same status but names the account.
 */
export class PayloadTooLargeError extends RepoHostError {
  readonly kind = 'payload_too_large' as const;
  constructor(message = 'request body too large') {
    super(message);
    this.name = 'PayloadTooLargeError';
  }
}

/** The change waits on something else first (closing an issue whose dependencies are open: Forgejo's 412). */
export class PreconditionFailedError extends RepoHostError {
  readonly kind = 'precondition_failed' as const;
  constructor(message: string) {
    super(message);
    this.name = 'PreconditionFailedError';
  }
}

/**
 * The operation does not apply to the resource as it is (Forgejo's 405 Method Not Allowed: a pull request that may
 * not be merged now, the teams of a repository an individual owns).
 */
export class MethodNotAllowedError extends RepoHostError {
  readonly kind = 'method_not_allowed' as const;
  constructor(message: string) {
    super(message);
    this.name = 'MethodNotAllowedError';
  }
}

/** The git backend in use cannot do this (the in-memory backend's list is in `git/unsupported.ts`): a 501. */
export class NotSupportedError extends RepoHostError {
  readonly kind = 'not_supported' as const;
  constructor(readonly operation: string) {
    super(`${operation} is not supported by this git backend`);
    this.name = 'NotSupportedError';
  }
}

/** A request that is well-formed but refers to something unusable (unknown template, …). */
export class BadRequestError extends RepoHostError {
  readonly kind = 'bad_request' as const;
  constructor(message: string) {
    super(message);
    this.name = 'BadRequestError';
  }
}

/** Something the server understood but will not act on (an ActivityPub activity it does not accept): 406. */
export class NotAcceptableError extends RepoHostError {
  readonly kind = 'not_acceptable' as const;
  constructor(message: string) {
    super(message);
    this.name = 'NotAcceptableError';
  }
}

/** A refusal that says when to try again: the server sends `retryAfterSeconds` as `Retry-After`. */
export abstract class RetryLaterError extends RepoHostError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The caller has failed too often (sign-in attempts). */
export class TooManyRequestsError extends RetryLaterError {
  readonly kind = 'too_many_requests' as const;
  override name = 'TooManyRequestsError';
}

/** A bounded resource (git processes, …) is busy. */
export class UnavailableError extends RetryLaterError {
  readonly kind = 'unavailable' as const;
  override name = 'UnavailableError';
}

/**
 * The database could not answer: its connection was lost (a restart, `pg_terminate_backend`), it refuses connections
 * for now (starting up, shutting down, too many clients), or it ended a transaction to be tried again (a deadlock, a
 * serialization failure). Nothing was committed by the failed statement; the caller may try again shortly (503).
 * `cause` is the driver's error, for logs only: its text names the database's address.
 */
export class DatabaseUnavailableError extends UnavailableError {
  override name = 'DatabaseUnavailableError';
  constructor(cause: unknown, message = 'the database is unavailable; try again shortly') {
    super(message, 1);
    this.cause = cause;
  }
}

/**
 * A service RepoHost relies on answered, but with a refusal or nonsense (the object storage denied access, has no such
 * bucket): a 502. One that cannot be reached at all is an `UnavailableError` (503), which may pass by itself.
 */
export class BadGatewayError extends RepoHostError {
  readonly kind = 'bad_gateway' as const;
  constructor(message: string) {
    super(message);
    this.name = 'BadGatewayError';
  }
}

export function isRepoHostError(error: unknown): error is RepoHostError {
  return error instanceof RepoHostError;
}
