/**
 * RepoHost's HTTP server: the Forgejo-compatible API v1, its swagger document, git smart HTTP, and git over SSH.
 * @packageDocumentation
 */
export { createApp, startServer, configureHttpServer, type RepoHostApp, type ListenOptions, type RunningServer } from './app.js';
export { ServerMetrics, type Exposition } from './metrics.js';
export { ApiRouter, RouteGroup, PagingQuery } from './api/router.js';
export { defineGroups, type Groups } from './api/groups.js';
export type { RouteSpec, Reply, ReplyValue, RequestBase, HandlerContext, PathParams, RegisteredRoute, GroupOptions, Guard } from './api/contract.js';
export * as guards from './api/guards.js';
export { ERROR_KINDS } from './api/errors.js';
export { authenticate, QUERY_TOKEN_WARNING, type Authentication, type AuthMethod } from './auth.js';
export { buildOpenApiDocument } from './api/openapi.js';
export { startSshServer, answerLfsAuthenticate, parseGitCommand, parseLfsAuthenticateCommand, splitCommandLine, sshErrorMessage, SshCommandError, type SshServerOptions, type RunningSshServer, type GitCommand, type LfsAuthenticateCommand } from './ssh/index.js';
