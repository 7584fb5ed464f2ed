/**
 * RepoHost core: a git forge as a library. Open a {@link RepoHost} and call its services.
 * @packageDocumentation
 */
export { RepoHost, type RepoHostOptions } from './host.js';
export * from './errors.js';
export { loadSettings, ConfigError, DEFAULT_REPORTED_VERSION, type Settings, type SettingsOverrides, type LoadSettingsOptions } from './config/settings.js';
export { parseIni, iniFromEnv } from './config/ini.js';
export { ANONYMOUS, SYSTEM, userActor, actorUser, isSiteAdmin, type Actor } from './access/actor.js';
export { AccessMode, canSeeUser, repoAccessMode, type AccessModeValue } from './access/permissions.js';
export { clampPage, type Page, type PageRequest } from './context.js';
export { parseInput, matchesSchema, schemaErrors, normalizeKeys, StringEnum } from './validation/validate.js';
export { openStorage, type Storage, type Database, type DialectName } from './storage/database.js';
export { migrateToLatest, allMigrations } from './storage/migrations.js';
export * from './git/backend.js';
export { NativeGitBackend, type NativeGitOptions } from './git/native.js';
export { UsersService, type DeleteUserOptions } from './users/service.js';
export { toApiUser } from './users/convert.js';
export { randomPassword } from './users/password.js';
export { UserSchema, CreateUserOptionSchema, type ApiUser, type CreateUserOption } from './users/schemas.js';
export { UserType, Visibility, type User } from './users/tables.js';
export { TokensService, type CreatedToken, type AuthenticatedToken } from './tokens/service.js';
export { AccessTokenSchema, CreateAccessTokenOptionSchema, type ApiAccessToken, type CreateAccessTokenOption } from './tokens/schemas.js';
export { SCOPE_CATEGORIES, KNOWN_SCOPES, normalizeScopes, scopesGrant, isPublicOnly, type ScopeCategory, type ScopeLevel } from './tokens/scopes.js';
export type { AccessToken } from './tokens/tables.js';
export { ReposService, REPO_ORDER_BY_VALUES, type RepoAccess, type RepoOrderBy } from './repos/service.js';
export { GitTransferService, type TransferRequest } from './repos/transfer.js';
export { RepositorySchema, CreateRepoOptionSchema, PermissionSchema, type ApiRepository, type CreateRepoOption } from './repos/schemas.js';
export type { Repository } from './repos/tables.js';
export { PublicSettingsService } from './settings/service.js';
export * from './settings/schemas.js';
