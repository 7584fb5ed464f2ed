/**
 * RepoHost core: a git forge as a library. Open a {@link RepoHost} and call its services.
 * @packageDocumentation
 */
export { RepoHost, type RepoHostOptions } from './host.js';
export * from './errors.js';
export { loadSettings, derivedRootUrl, ConfigError, DEFAULT_REPORTED_VERSION, type Settings, type SettingsOverrides, type LoadSettingsOptions } from './config/settings.js';
export { parseIni, iniFromEnv } from './config/ini.js';
export { ANONYMOUS, SYSTEM, userActor, actorUser, isSiteAdmin, isSelf, type Actor } from './access/actor.js';
export { AccessMode, canSeeUser, repoAccessMode, ownedRepoVisibility, type AccessModeValue, type OwnedRepoVisibility } from './access/permissions.js';
export { CoreContext, type CoreTransaction, type ServiceClass } from './context.js';
export { DomainEvents, type DomainEvent, type AnyDomainEvent, type DomainEventMap, type DomainEventType } from './events/bus.js';
export { clampPage, type Page, type PageRequest, type Paging } from './paging.js';
export { API_PREFIX, apiUrl, apiDocsUrl, webUrl } from './urls.js';
export { isoTime, type ApiView } from './wire.js';
export { parseInput, acceptInput, decodeInput, fieldName, enumValues, matchesSchema, schemaErrors, StringEnum } from './validation/validate.js';
export { openStorage, type Storage, type DialectName } from './storage/database.js';
export { Store, StoreScope, type StoreClass } from './storage/store.js';
export { migrateToLatest, migrationNames } from './storage/migrator.js';
export * from './git/backend.js';
export { pktLine, FLUSH_PKT } from './git/pkt-line.js';
export { NativeGitBackend, type NativeGitOptions } from './git/native.js';
export { UsersService, type DeleteUserOptions } from './users/service.js';
export { UsersStore } from './users/store.js';
export { toApiUser } from './users/convert.js';
export { randomPassword } from './users/password.js';
export { UserSchema, CreateUserOptionSchema, VisibilitySchema, type ApiUser, type CreateUserOption } from './users/schemas.js';
export { UserType, Visibility, VISIBILITY_NAMES, canSignIn, isOrganization, type User, type UsersTables, type VisibilityName } from './users/tables.js';
export { TokensService, TOKEN_PATTERN, looksLikeToken, type CreatedToken, type AuthenticatedToken } from './tokens/service.js';
export { TokensStore } from './tokens/store.js';
export { toApiAccessToken } from './tokens/convert.js';
export { AccessTokenSchema, CreateAccessTokenOptionSchema, type ApiAccessToken, type CreateAccessTokenOption } from './tokens/schemas.js';
export { SCOPE_CATEGORIES, KNOWN_SCOPES, normalizeScopes, scopesGrant, isPublicOnly, type ScopeCategory, type ScopeLevel } from './tokens/scopes.js';
export type { AccessToken, TokensTables } from './tokens/tables.js';
export { ReposService, type RepoAccess } from './repos/service.js';
export { ReposStore, REPO_ORDERINGS } from './repos/store.js';
export { toApiRepository } from './repos/convert.js';
export { GitTransferService, type TransferRequest, type TransferOptions } from './repos/transfer.js';
export { ConcurrencyLimit } from './git/limit.js';
export { RepoStorageService, type ReconcileReport, type StorageCheck } from './repos/storage.js';
export { GitIntentStore, type GitIntentOp } from './repos/intents.js';
export { RepositorySchema, CreateRepoOptionSchema, PermissionSchema, ObjectFormatSchema, RepoOrderBySchema, REPO_ORDER_BY, type RepoOrderBy, type ApiRepository, type CreateRepoOption } from './repos/schemas.js';
export type { Repository, ReposTables, RepoGitIntent } from './repos/tables.js';
export { PublicSettingsService } from './settings/service.js';
export { SecurityService, type SignInAttempt } from './security/service.js';
export * from './settings/schemas.js';
