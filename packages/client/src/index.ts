/**
 * `@repohost/client`: a typed client of the Forgejo API v1 as RepoHost serves it, generated from the server's own
 * route declarations (see README.md).
 */
export { RepoHostClient, type Bound, type BoundGroup } from './client.js';
export {
  createTransport,
  apiRoot,
  pageRequest,
  type CallOptions,
  type CallRequest,
  type ClientOptions,
  type Credentials,
  type Page,
  type PageRequest,
  type RequestBody,
  type Transport,
} from './transport.js';
export {
  ApiError,
  BadRequestError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  PayloadTooLargeError,
  ValidationError,
  TooManyRequestsError,
  ServerError,
  type ApiErrorBody,
} from './errors.js';
export * from './generated.js';
