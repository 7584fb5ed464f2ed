/**
 * RepoHost's HTTP server: the Forgejo-compatible API v1, its swagger document, and git smart HTTP.
 * @packageDocumentation
 */
export { createApp, startServer, type RepoHostApp, type ListenOptions, type RunningServer } from './app.js';
export { ApiRouter, type RouteSpec, type RequestContext } from './api/route.js';
export { authenticate, QUERY_TOKEN_WARNING, type Authentication, type AuthMethod } from './auth.js';
export { buildOpenApiDocument } from './api/openapi.js';
