/**
 * What a refused call throws: an `ApiError` carrying the status and Forgejo's error body (`{"message", "url"}`), of
 * the subclass its status names, so callers can `catch (e) { if (e instanceof NotFoundError) … }`.
 */

/** Forgejo's and Gitea's error body (`APIError`); validation errors may carry more fields. */
export interface ApiErrorBody {
  message?: string;
  url?: string;
  errors?: unknown;
  [key: string]: unknown;
}

/** A call the server answered with a status of 400 or more. */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  /** The HTTP status. */
  readonly status: number;
  /** The method and path called (path under the API prefix, without the query). */
  readonly method: string;
  readonly path: string;
  /** The error body as sent (`{"message","url"}`), or the text of a body that is not JSON. */
  readonly body: ApiErrorBody | string | undefined;
  /** Forgejo's documentation link of the error body, if any. */
  readonly url: string | undefined;
  /** The response's headers (`Retry-After`, `X-RateLimit-*`, …). */
  readonly headers: Headers;

  constructor(status: number, method: string, path: string, body: ApiErrorBody | string | undefined, headers: Headers) {
    const message = typeof body === 'string' ? body.trim() : body?.message;
    super(message ? message : `${method} ${path}: HTTP ${status}`);
    this.status = status;
    this.method = method;
    this.path = path;
    this.body = body;
    this.url = typeof body === 'object' && typeof body.url === 'string' ? body.url : undefined;
    this.headers = headers;
  }
}

/** 400: the request was malformed (Forgejo's `APIError` for bad input). */
export class BadRequestError extends ApiError {
  override readonly name: string = 'BadRequestError';
}
/** 401: no credentials, wrong credentials, or a missing one-time password. */
export class UnauthorizedError extends ApiError {
  override readonly name: string = 'UnauthorizedError';
}
/** 403: the caller may not do this (token scope, permission, quota, …). */
export class ForbiddenError extends ApiError {
  override readonly name: string = 'ForbiddenError';
}
/** 404: not there, or not visible to the caller. */
export class NotFoundError extends ApiError {
  override readonly name: string = 'NotFoundError';
}
/** 409: conflicts with what exists. */
export class ConflictError extends ApiError {
  override readonly name: string = 'ConflictError';
}
/** 413: the request body is too large. */
export class PayloadTooLargeError extends ApiError {
  override readonly name: string = 'PayloadTooLargeError';
}
/** 422: the input did not validate (Forgejo's `validationError`). */
export class ValidationError extends ApiError {
  override readonly name: string = 'ValidationError';
}
/** 429: a rate limit is spent; `retryAfter` is the seconds to wait, when the server said. */
export class TooManyRequestsError extends ApiError {
  override readonly name: string = 'TooManyRequestsError';
  get retryAfter(): number | undefined {
    const value = Number(this.headers.get('retry-after'));
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  }
}
/** 5xx: the server failed. */
export class ServerError extends ApiError {
  override readonly name: string = 'ServerError';
}

const BY_STATUS: Readonly<Record<number, typeof ApiError>> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: ValidationError,
  429: TooManyRequestsError,
};

/** The error a refused response becomes (its body read). */
export async function errorFromResponse(response: Response, method: string, path: string): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let body: ApiErrorBody | string | undefined = text === '' ? undefined : text;
  if (text !== '' && (response.headers.get('content-type') ?? '').includes('json')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as ApiErrorBody;
    } catch {
      // Not JSON after all: keep the text.
    }
  }
  const ErrorClass = BY_STATUS[response.status] ?? (response.status >= 500 ? ServerError : ApiError);
  return new ErrorClass(response.status, method, path, body, response.headers);
}
