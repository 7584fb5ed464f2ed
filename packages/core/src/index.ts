/**
 * RepoHost core: a git forge as a library. Open a {@link RepoHost} and call its services.
 * @packageDocumentation
 */
export { RepoHost, type RepoHostOptions, type InMemoryHostOptions, type NoSecretKey } from './host.js';
export * from './errors.js';
export { loadSettings, derivedRootUrl, ConfigError, DEFAULT_REPORTED_VERSION, secretKeyFile, type Settings, type SettingsOverrides, type LoadSettingsOptions } from './config/settings.js';
export { createSecretKeyFile, generateSecretKey } from './config/secret-key.js';
export { SecretsAtRestService, type ReencryptOptions, type ReencryptReport, type SecretKindReport } from './secretsatrest/service.js';
export { parseIni, iniFromEnv } from './config/ini.js';
export { ANONYMOUS, SYSTEM, userActor, actorUser, actorTask, isActionsActor, taskActor, isSiteAdmin, isSelf, type Actor, type ActorTask } from './users/actor.js';
export {
  AccessMode,
  ACCESS_MODE_NAMES,
  UNIT_NAMES,
  canSeeUser,
  repoPermission,
  combineGrants,
  NO_GRANTS,
  unitMode,
  ownedRepoFilter,
  type AccessModeValue,
  type AccessModeName,
  type UnitName,
  type UnitModes,
  type RepoPermission,
  type RepoGrants,
  type OwnedRepoFilter,
} from './access/permissions.js';
export type { AccessService } from './access/service.js';
export type { CollaboratorsService, CollaboratorPermission } from './repos/collaborators.js';
export { toApiRepoCollaboratorPermission } from './repos/collaborator-convert.js';
export {
  AddCollaboratorOptionSchema,
  RepoCollaboratorPermissionSchema,
  COLLABORATOR_MODE_NAMES,
  type AddCollaboratorOption,
  type ApiRepoCollaboratorPermission,
  type CollaboratorModeName,
} from './repos/collaborator-schemas.js';
export type { OrgsService, OrgPermissions, MembershipAnswer } from './orgs/service.js';
export type { OrgLifecycleService } from './accounts/org-lifecycle.js';
export type { AccountLifecycleService, DeleteUserOptions } from './accounts/lifecycle.js';
export {
  OrganizationSchema,
  CreateOrgOptionSchema,
  EditOrgOptionSchema,
  OrganizationPermissionsSchema,
  RenameOrgOptionSchema,
  type ApiOrganization,
  type ApiOrganizationPermissions,
  type CreateOrgOption,
  type EditOrgOption,
  type RenameOrgOption,
} from './orgs/schemas.js';
export { toApiOrganization } from './orgs/convert.js';
export { OWNER_TEAM_NAME, type Team, type OrgUser } from './orgs/tables.js';
export type { TeamsService, TeamAccess, TeamWithOrg } from './orgs/teams.js';
export {
  TeamSchema,
  CreateTeamOptionSchema,
  EditTeamOptionSchema,
  TeamSearchQuerySchema,
  TeamSearchResultsSchema,
  type ApiTeam,
  type CreateTeamOption,
  type EditTeamOption,
  type TeamSearchQuery,
  type ApiTeamSearchResults,
} from './orgs/team-schemas.js';
export { toApiTeam } from './orgs/team-convert.js';
export { CoreContext, type CoreTransaction, type ServiceClass } from './context.js';
export { trimEnd, trimStart } from './text.js';
export { DomainEvents, type DomainEvent, type AnyDomainEvent, type DomainEventMap, type DomainEventType } from './events/bus.js';
export { clampPage, type Page, type PageRequest, type Paging } from './paging.js';
export { API_PREFIX, apiUrl, apiDocsUrl, webUrl } from './urls.js';
export { isoTime, type ApiView } from './wire.js';
export { keptInJson, sharedInJson, stringifyShared, stringifySharedBytes, type JsonInput } from './shared-json.js';
export { parseInput, acceptInput, decodeInput, fieldName, enumValues, matchesSchema, schemaErrors, StringEnum } from './validation/validate.js';
export { openStorage, backupSqlite, type Storage, type DialectName } from './storage/database.js';
export { Store, StoreScope, type StoreClass } from './storage/store.js';
export { migrateToLatest, migrationNames } from './storage/migrator.js';
export { DatabaseLocks, LockLostError, LockTimeoutError, type HeldLock, type LockOptions } from './storage/locks.js';
export { isContention } from './storage/contention.js';
export * from './git/backend.js';
export { pktLine, FLUSH_PKT } from './git/pkt-line.js';
export { NativeGitBackend, type NativeGitOptions } from './git/native.js';
export { MemoryGitBackend } from './git/memory/backend.js';
export { MEMORY_PARTIAL, MEMORY_UNSUPPORTED, type MemoryUnsupportedMethod } from './git/unsupported.js';
export { UsersService } from './users/service.js';
export { UserAdminService } from './users/admin-service.js';
export { type UserAdminColumns } from './users/admin-store.js';
export {
  EditUserOptionSchema,
  RenameUserOptionSchema,
  ADMIN_USER_SORTS,
  type EditUserOption,
  type RenameUserOption,
  type AdminUserSort,
  type AdminUserSearch,
} from './users/admin-schemas.js';
export { ApiUserViews, toApiUser, toApiUserSettings, toApiEmail, avatarUrl, avatarHash, AVATARS_PATH, DEFAULT_AVATAR_PATH } from './users/convert.js';
export { UserEmailsService, isAcceptableEmail, type OwnedEmailAddress } from './users/emails.js';
export { UserAvatarsService, type AvatarImage } from './users/avatars.js';
export { identiconPng } from './users/identicon.js';
export { imageInfo, type ImageInfo, type ImageFormat } from './users/images.js';
export { GHOST_USER, ACTIONS_USER, GHOST_USER_ID, ACTIONS_USER_ID, systemUserById, isSystemUser } from './users/system.js';
export { userVisibilityFilter, userVisibleSql, type UserVisibilityFilter } from './users/visibility.js';
export { USER_SEARCH_ORDERS, type UserSearchOrder, type UserSearchOptions } from './users/store.js';
export { randomPassword } from './users/password.js';
export { UserSchema, CreateUserOptionSchema, VisibilitySchema, type ApiUser, type CreateUserOption } from './users/schemas.js';
export {
  UserSettingsSchema,
  UserSettingsOptionsSchema,
  EmailSchema,
  CreateEmailOptionSchema,
  DeleteEmailOptionSchema,
  UpdateUserAvatarOptionSchema,
  UserSearchQuerySchema,
  UserSearchResultsSchema,
  type ApiUserSettings,
  type UserSettingsOptions,
  type ApiEmail,
  type CreateEmailOption,
  type DeleteEmailOption,
  type UpdateUserAvatarOption,
  type UserSearchQuery,
  type ApiUserSearchResults,
} from './users/schemas.js';
export { UserType, Visibility, VISIBILITY_NAMES, canSignIn, isOrganization, type User, type UsersTables, type VisibilityName, type EmailAddress } from './users/tables.js';
export { TokensService, TOKEN_PATTERN, looksLikeToken, type CreatedToken, type AuthenticatedToken } from './tokens/service.js';
export { toApiAccessToken } from './tokens/convert.js';
export { AccessTokenSchema, CreateAccessTokenOptionSchema, type ApiAccessToken, type CreateAccessTokenOption } from './tokens/schemas.js';
export { SCOPE_CATEGORIES, KNOWN_SCOPES, normalizeScopes, scopesGrant, isPublicOnly, type ScopeCategory, type ScopeLevel } from './tokens/scopes.js';
export type { AccessToken, TokensTables } from './tokens/tables.js';
export { KeysService, type AuthenticatedKey, type SshIdentity, type DeployKeyAccess, type DeployKeyFilter } from './keys/service.js';
export { type DeployKeyWithContent } from './keys/store.js';
export { toApiPublicKey, toApiDeployKey } from './keys/convert.js';
export { PublicKeySchema, CreateKeyOptionSchema, DeployKeySchema, type ApiPublicKey, type ApiDeployKey, type CreateKeyOption } from './keys/schemas.js';
export { parsePublicKey, checkKeySize, fingerprintOf, KeyParseError, MINIMUM_KEY_SIZES, type ParsedPublicKey, type KeyFamily } from './keys/openssh.js';
export { KeyType, type PublicKey, type DeployKey, type KeysTables } from './keys/tables.js';
export { GpgKeysService, normalizeKeyId, type GpgKeyForVerification } from './gpg/service.js';
export { toApiGPGKey } from './gpg/convert.js';
export {
  GPGKeySchema,
  GPGKeyEmailSchema,
  CreateGPGKeyOptionSchema,
  VerifyGPGKeyOptionSchema,
  type ApiGPGKey,
  type ApiGPGKeyEmail,
  type CreateGPGKeyOption,
  type VerifyGPGKeyOption,
} from './gpg/schemas.js';
// Types only: openpgp.js loads when a key is first read (GpgKeysService), not when the package is imported.
export type { ParsedGpgKey, ParsedGpgSubkey, GpgCapabilities } from './gpg/openpgp.js';
export type { GpgKey, GpgKeyImport, GpgKeyWithSubkeys, GpgTables } from './gpg/tables.js';
export { ReposService, type RepoAccess } from './repos/service.js';
export { REPO_ORDERINGS } from './repos/store.js';
export { toApiRepository, type PendingTransferView } from './repos/convert.js';
export { GitTransferService, type TransferRequest, type TransferOptions, type RunTransferOptions } from './repos/transfer.js';
export type { RedirectsService, RepoRedirect } from './redirects/service.js';
export { ConcurrencyLimit } from './git/limit.js';
export { gitProcessStats, type GitProcessStats } from './git/index.js';
export { WIKI_SUFFIX, wikiRepoKey } from './git/wiki.js';
export { RepoStorageService, repoStorageLock, type ReconcileReport, type StorageCheck } from './repos/storage.js';
export { RepoSettingsService, editUnits, isValidExternalUrl, isValidExternalTrackerFormat } from './repos/edit.js';
export { RepoTransferService, RepoStatus, type RepoAccessWithTransfer, type TransferOutcome, type OfferedTransfer } from './repos/transfers.js';
export { RepoParticipantsService } from './repos/participants.js';
export { RepoForksService, CreateForkOptionSchema, type CreateForkOption, type WithParent } from './repos/forks.js';
export { EditRepoOptionSchema, TransferRepoOptionSchema, InternalTrackerSchema, ExternalTrackerSchema, ExternalWikiSchema, RepoTransferSchema, DEFAULT_MERGE_STYLES, type EditRepoOption, type TransferRepoOption } from './repos/schemas.js';
export { IntentTakenOverError, type GitIntentOp } from './repos/intents.js';
export { RepositorySchema, CreateRepoOptionSchema, GenerateRepoOptionSchema, type GenerateRepoOption, PermissionSchema, ObjectFormatSchema, RepoOrderBySchema, REPO_ORDER_BY, type RepoOrderBy, type ApiRepository, type CreateRepoOption } from './repos/schemas.js';
export type { Repository, ReposTables, RepoGitIntent } from './repos/tables.js';
export { PublicSettingsService } from './settings/service.js';
export { RepoSearchService, searchPage, type RepoSearchOptions, RepoSearchQuerySchema, SearchResultsSchema, SearchErrorSchema, REPO_SEARCH_SORTS, REPO_SEARCH_MODES, searchVisibility, searchFilter, type RepoSearchQuery, type ApiSearchResults, type ApiSearchError } from './repos/search.js';
export { CATALOG_MAX_REPOSITORIES, type SearchFilter, type SearchVisibility, type SearchOrdering, type CatalogRows } from './repos/search-store.js';
export { SearchCatalog, type CatalogEntry } from './repos/search-catalog.js';
export { RepoLanguagesService, fileLanguage, languageSizes, primaryLanguage } from './repos/languages.js';
export { RepoFlagsService, ReplaceFlagsOptionSchema, type ReplaceFlagsOption } from './repos/flags.js';
export { OffloadBudgetError, OffloadMemoryError, OffloadPool, type OffloadPoolOptions } from './workers/index.js';
export { EditGitHookOptionSchema, GitHookSchema, GitHooksService, type ApiGitHook, type EditGitHookOption } from './repos/git-hooks.js';
export { RepoAvatarsService, UpdateRepoAvatarOptionSchema, type UpdateRepoAvatarOption } from './repos/avatars.js';
export { SigningKeyService } from './repos/signing.js';
export { NodeInfoSchema, NodeInfoService, type NodeInfo } from './nodeinfo/index.js';
export {
  ACTIVITY_STREAMS_CONTENT_TYPE,
  APRemoteFollowOptionSchema,
  ActivityPubSchema,
  FederationService,
  ForgeLikeSchema,
  ForgeOutboxSchema,
  REMOTE_USER_TYPE,
  SIGNATURE_FAILED,
  digestOf,
  parseSignatureHeader,
  signRequest,
  verifySignature,
  type APRemoteFollowOption,
  type ActorDocument,
  type FederationRequest,
  type FederationSigner,
  type ForgeOutbox,
} from './federation/index.js';
export { MonitoringService, type HealthCheck, type PoolStatistics, type QueueStatistics, type SiteStatistics } from './monitoring/index.js';
export { type LanguageStat } from './repos/languages-store.js';
export { RepoArchiveService, type RepoArchive } from './repos/archive.js';
export { REPO_AVATARS_PATH, repoWebPath } from './repos/convert.js';
export { TopicsService, InvalidTopicsError } from './topics/service.js';
export { toApiTopic } from './topics/convert.js';
export { isValidTopic, normalizeTopic, repairTopic, sanitizeTopics, TOPIC_MAX_LENGTH, MAX_TOPICS_PER_REPO } from './topics/names.js';
export { TopicNameSchema, TopicResponseSchema, TopicSearchResultsSchema, RepoTopicOptionsSchema, InvalidTopicsErrorSchema, type ApiTopicName, type ApiTopicResponse, type ApiTopicSearchResults, type RepoTopicOptions, type ApiInvalidTopicsError } from './topics/schemas.js';
export type { Topic, TopicsTables } from './topics/tables.js';
export { ContentsService, cleanTreePath } from './contents/service.js';
export { ForkSyncService } from './contents/fork-sync.js';
export { toApiContents, toApiFileCommit, UNSIGNED_VERIFICATION } from './contents/convert.js';
export {
  ContentsResponseSchema,
  ContentsOrListSchema,
  ContentsQuerySchema,
  FileLinksResponseSchema,
  FileResponseSchema,
  FilesResponseSchema,
  FileDeleteResponseSchema,
  FileCommitResponseSchema,
  ChangeFilesOptionsSchema,
  ChangeFileOperationSchema,
  CreateFileOptionsSchema,
  UpdateFileOptionsSchema,
  DeleteFileOptionsSchema,
  SyncForkInfoSchema,
  type ApiSyncForkInfo,
  type ApiContentsResponse,
  type ApiFileResponse,
  type ApiFilesResponse,
  type ApiFileDeleteResponse,
  type ApiFileCommitResponse,
  type ChangeFilesOptions,
  type CreateFileOptions,
  type UpdateFileOptions,
  type DeleteFileOptions,
} from './contents/schemas.js';
export { RepoTemplatesService, type LicenseVars, type ReadmeVars } from './templates/service.js';
export * from './templates/schemas.js';
export type { Label, LabelsTables, NewLabel } from './labels/tables.js';
export { SecurityService, type SignInAttempt } from './security/service.js';
export type { SignInFailure } from './security/tables.js';
export { RateLimitService, addressCaller, rateLimitCaller, type RateLimitCaller, type RateLimitResource, type RateLimitVerdict } from './ratelimit/service.js';
export * from './settings/schemas.js';
export { LabelsService, normalizeLabelColor } from './labels/service.js';
export { IssueLabelsService, parseLabelRefs, type IssueLabelsChange, type IssueLabelsMode, type IssueLabelsOptions } from './issues/issue-labels.js';
export { type LabelIssueCounts } from './issues/labels-store.js';
export * from './labels/schemas.js';
export { toApiLabel, toApiOrgLabel } from './labels/convert.js';
export { IssuesService, type IssueDetails } from './issues/service.js';
export { type IssueFilter } from './issues/store.js';
export type { Issue, IssuesTables, NewIssue, IssueDependency } from './issues/tables.js';
export * from './issues/schemas.js';
export { toApiIssue, toApiIssues } from './issues/convert.js';
export { PullsService, type PullDetails } from './pulls/service.js';
export { toApiChangedFile, toApiPullRequest, toApiPullRequests } from './pulls/convert.js';
export {
  PullRequestSchema,
  PRBranchInfoSchema,
  CreatePullRequestOptionSchema,
  EditPullRequestOptionSchema,
  PullListQuerySchema,
  ChangedFileSchema,
  PullFilesQuerySchema,
  PullCommitsQuerySchema,
  type ApiPullRequest,
  type ApiChangedFile,
  type CreatePullRequestOption,
  type EditPullRequestOption,
  type PullListQuery,
} from './pulls/schemas.js';
export { PULL_STATUS, pullHeadRef, type Pull, type PullRequest, type PullsTables } from './pulls/tables.js';
export type { PullEventBase } from './pulls/events.js';
export { PullMergeService, type MergeOutcome } from './pulls/merge.js';
export { MergeNotAllowedError } from './pulls/merge-checks.js';
export { PullUpdateService } from './pulls/merge-update.js';
export { PullAutoMergeService } from './pulls/auto-merge.js';
export { MergePullRequestOptionSchema, PullUpdateQuerySchema, type MergePullRequestOption, type PullUpdateQuery } from './pulls/merge-schemas.js';
export type { PullAutoMerge } from './pulls/merge-store.js';
export { addTrailer, composeMergeMessage, defaultMergeMessage, expandVariables, mergeTemplatePaths, templateDescription, type MergeMessageFacts } from './pulls/merge-message.js';
export { ReviewsService, type ReviewRule, type ReviewSummary } from './reviews/service.js';
export { type ApprovalFilter } from './reviews/store.js';
export { REVIEW_TYPES, type Review, type ReviewsTables } from './reviews/tables.js';
export { toApiPullReview, toApiPullReviewComment } from './reviews/convert.js';
export { cutDiffAroundLine } from './reviews/patch.js';
export * from './reviews/schemas.js';
export type { IssueEventBase } from './issues/events.js';
export type { Milestone, MilestonesTables, NewMilestone } from './milestones/tables.js';
export { MilestonesService, parseGoInt } from './milestones/service.js';
export * from './milestones/schemas.js';
export { toApiMilestone } from './milestones/convert.js';
export type { BranchRule, TagRule, ProtectionTables } from './protection/tables.js';
export { ProtectionService, firstMatchingRule, protectedFilesAmong, requiredStatusState, type MergeFacts } from './protection/service.js';
export * from './protection/schemas.js';
export { toApiBranchProtection, toApiTagProtection } from './protection/convert.js';
export { Glob, GlobSyntaxError, isGlobPattern } from './glob.js';
export { branchRuleMatcher, tagRuleMatcher, filePatterns } from './protection/glob.js';
export { type ReleaseFilter } from './releases/store.js';
export type { Release, NewRelease, ReleasesTables } from './releases/tables.js';
export { ReleasesService, parseReleaseId } from './releases/service.js';
export { ReleaseAssetsService, type ReleaseAssetForm, type OpenReleaseAsset } from './releases/assets.js';
export * from './releases/schemas.js';
export { toApiRelease, releaseApiUrl, type ReleaseDetails } from './releases/convert.js';
export type { ReleaseEventBase } from './releases/events.js';
export { IssuePinsService, MAX_PIN_REACHED } from './issues/pins.js';
export * from './issues/pins-schemas.js';
export { IssueTemplatesService, parseIssueTemplate, parseIssueConfig } from './issues/templates.js';
export * from './issues/templates-schemas.js';
export { labelScope, exclusiveScope } from './labels/scope.js';
export { CommitsService, type CommitListQuery, type CommitListPage } from './commits/service.js';
export { CommitStatusesService, type CombinedStatus, type StatusesWithCreators } from './commits/statuses.js';
export type { CommitStatus, CommitsTables, NewCommitStatus } from './commits/tables.js';
export type { CommitVerification } from './commits/verification.js';
export { toApiCommit, toApiCommitStatus, toApiVerification, rfc3339, type CommitView } from './commits/convert.js';
export {
  CommitSchema,
  CommitMetaSchema,
  CommitAffectedFilesSchema,
  CommitStatsSchema,
  RepoCommitSchema,
  CompareSchema,
  CommitStatusSchema,
  CombinedStatusSchema,
  CreateStatusOptionSchema,
  CommitStatusStateSchema,
  CommitStatusSortSchema,
  COMMIT_STATUS_STATES,
  COMMIT_STATUS_SORTS,
  type ApiCommit,
  type ApiCommitMeta,
  type ApiCompare,
  type ApiCommitStatus,
  type ApiCombinedStatus,
  type CreateStatusOption,
  type CommitStatusState,
  type CommitStatusSort,
  type CommitViewOptions,
} from './commits/schemas.js';
export { WatchMode, WATCHING_MODES } from './repos/watches.js';
export { SocialService } from './social/service.js';
export type { RepoListFilter } from './repos/list-filter.js';
export { toApiWatchInfo, toApiBlockedUser } from './social/convert.js';
export { WatchInfoSchema, BlockedUserSchema, type ApiWatchInfo, type ApiBlockedUser } from './social/schemas.js';
export type { Follow, Star, SocialTables } from './social/tables.js';
export type { UserBlocking } from './users/tables.js';
export { type UserCounterDeltas } from './users/counters.js';
export { type RepoCounterDeltas } from './repos/counters.js';
export type { RepoPush } from './repos/tables.js';
export { ActivityService, dayRange } from './activity/service.js';
export { HEATMAP_BUCKET_SECONDS, type ActUserRule, type FeedFilter, type HeatmapBucket } from './activity/store.js';
export { toApiActivity, type ActivityEntry } from './activity/convert.js';
export { ActivitySchema, UserHeatmapDataSchema, UserActivityFeedsQuerySchema, RepoActivityFeedsQuerySchema, type ApiActivity, type ApiUserHeatmapData, type UserActivityFeedsQuery, type RepoActivityFeedsQuery } from './activity/schemas.js';
export { OP_TYPE_NAMES, OpType, opTypeName, type Action as ActivityAction, type ActivityTables, type NewAction, type OpTypeName } from './activity/tables.js';
export type { LoggedCommit, CommitLogOptions } from './git/backend.js';
export { MarkupService, type RenderOptions } from './markup/service.js';
export { MarkdownOptionSchema, MarkupOptionSchema, MARKUP_MODES, type MarkdownOption, type MarkupOption, type MarkupMode } from './markup/schemas.js';
export type { GitDataService, RawFile, RawObjectType } from './gitdata/service.js';
export { GitBlobsQuerySchema, NoteOptionsSchema, NoteSchema, NoteQuerySchema, type ApiNote, type GitBlobsQuery, type NoteOptions, type NoteQuery } from './gitdata/notes.js';
export {
  GitBlobResponseSchema,
  GitEntrySchema,
  GitTreeResponseSchema,
  GitTreeQuerySchema,
  GitObjectSchema,
  ReferenceSchema,
  CommitUserSchema,
  PayloadUserSchema,
  PayloadCommitVerificationSchema,
  AnnotatedTagObjectSchema,
  TagArchiveDownloadCountSchema,
  AnnotatedTagSchema,
  RefQuerySchema,
  EditorConfigDefinitionSchema,
  type ApiGitBlobResponse,
  type ApiGitEntry,
  type ApiGitTreeResponse,
  type GitTreeQuery,
  type ApiReference,
  type ApiCommitUser,
  type ApiPayloadCommitVerification,
  type ApiAnnotatedTag,
} from './gitdata/schemas.js';
export { BranchesService } from './refs/branches.js';
export { assertCanWriteRefs } from './refs/writes.js';
export { TagsService } from './refs/tags.js';
export { toApiBranch, toApiTag, toApiPayloadCommit } from './refs/convert.js';
export * from './refs/schemas.js';
export { RefConflictError, type RefDetail, type RefCommitInfo, type RefKind, type AnnotatedTagOptions } from './git/backend.js';
// Quotas
export { QuotaService, parseSubject, type QuotaUsageSource } from './quota/service.js';
export { QUOTA_SUBJECTS, isQuotaSubject, evaluateGroups, usageOf, emptyUsage, type QuotaSubject, type QuotaUsage } from './quota/subjects.js';
export { toApiQuotaRule, toApiQuotaGroup, toApiQuotaInfo } from './quota/convert.js';
export {
  QuotaRuleInfoSchema,
  QuotaGroupSchema,
  QuotaGroupListSchema,
  QuotaUsedSchema,
  QuotaInfoSchema,
  CreateQuotaRuleOptionsSchema,
  EditQuotaRuleOptionsSchema,
  CreateQuotaGroupOptionsSchema,
  SetUserQuotaGroupsOptionsSchema,
  QuotaUsedAttachmentSchema,
  QuotaUsedPackageSchema,
  QuotaUsedArtifactSchema,
  type ApiQuotaRuleInfo,
  type ApiQuotaGroup,
  type ApiQuotaInfo,
  type ApiQuotaUsedAttachment,
  type ApiQuotaUsedPackage,
  type ApiQuotaUsedArtifact,
  type CreateQuotaRuleOptions,
  type EditQuotaRuleOptions,
  type CreateQuotaGroupOptions,
  type SetUserQuotaGroupsOptions,
} from './quota/schemas.js';
export type { QuotaTables } from './quota/tables.js';
export { WebhooksService, type HookOwner, type DeliveryRecord } from './webhooks/service.js';
export { HookDeliverer } from './webhooks/delivery.js';
export { JobsService, JobAbortedError, type Job, type JobRun, type JobHandler, type JobHandlers, type EnqueueOptions } from './jobs/service.js';
export type { JobKind, JobPayloads } from './jobs/kinds.js';
export type { JobStatus } from './jobs/tables.js';
export { CronService } from './cron/service.js';
export { CronSchema, type ApiCron } from './cron/schemas.js';
export type { CronTaskDefinition, CronTaskName, CronTaskConfig } from './cron/tasks.js';
export { CRON_TASKS } from './domains.js';
export { parseSchedule, type Schedule } from './cron/schedule.js';
export type { CronTaskRow } from './cron/tables.js';
export { PushMirrorsService, branchFilterMatcher } from './pushmirrors/service.js';
export { toApiPushMirror } from './pushmirrors/convert.js';
export { PushMirrorSchema, CreatePushMirrorOptionSchema, type ApiPushMirror, type CreatePushMirrorOption } from './pushmirrors/schemas.js';
export type { PushMirror, PushMirrorsTables } from './pushmirrors/tables.js';
export { WikiService } from './wiki/service.js';
export { toApiWikiCommit, toApiWikiPageMetaData } from './wiki/convert.js';
export { gitPathToWebPath, titleToWebPath, webPathToGitPath, webPathToTitle, type WebPath } from './wiki/names.js';
export {
  CreateWikiPageOptionsSchema,
  WikiCommitListSchema,
  WikiCommitSchema,
  WikiPageMetaDataSchema,
  WikiPageSchema,
  WikiRevisionsQuerySchema,
  type ApiWikiCommit,
  type ApiWikiCommitList,
  type ApiWikiPage,
  type ApiWikiPageMetaData,
  type CreateWikiPageOptions,
} from './wiki/schemas.js';
export type { WikiAction, WikiChangedEvent } from './wiki/events.js';
export { RepoWikiStorage, wikiBranchOf } from './repos/wiki.js';
export { MirrorsService, MIRROR_REFSPECS, refChanges, type MirrorView, type WithMirror } from './mirrors/service.js';
export type { Mirror, MirrorsTables } from './mirrors/tables.js';
export { parseMirrorInterval } from './mirrors/interval.js';
export { parseGoDuration, parseGoDurationNanos, formatGoDuration, GoDurationError } from './go-duration.js';
export { MigrateService, sourceOf, type MigrateJobPayload, type MigrationStarted } from './migrate/service.js';
export type { RepoMigration, MigrateTables } from './migrate/tables.js';
export { MigrateRepoOptionsSchema, MIGRATE_SERVICES, type MigrateRepoOptions } from './migrate/schemas.js';
export { RemoteGitError, type RemoteGitAccess, type RemoteHead, type FetchRemoteOptions } from './git/remote-types.js';
export type { MirrorPushRequest } from './git/push-mirror-types.js';
export { TwoFactorService, type TwoFactorEnrolment, type TwoFactorConfirmation } from './twofactor/service.js';
export type { TwoFactor, TwoFactorTables } from './twofactor/tables.js';
export { LoginSourcesService, type LoginSource, type LdapKind, type DirectorySignIn } from './loginsources/service.js';
export { LoginSourceType, type LoginSourceRow, type LoginSourcesTables } from './loginsources/tables.js';
export { LdapSourceOptionSchema, type LdapSourceOption } from './loginsources/schemas.js';
export { SECURITY_PROTOCOLS, type LdapConfig, type DirectoryEntry } from './loginsources/ldap.js';
export { OAuth2Service, type OAuth2ApplicationWithSecret } from './oauth2/service.js';
export { verifyClientSecret } from './oauth2/secrets.js';
export { redirectUrisOf, type OAuth2Application, type OAuth2Tables } from './oauth2/tables.js';
export { toApiOAuth2Application } from './oauth2/convert.js';
export {
  OAuth2ProviderService,
  OAuth2TokenError,
  OAuth2AuthorizeRefused,
  apiScopesOf,
  looksLikeOAuth2AccessToken,
  paramsOfRequest,
  ACCESS_TOKEN_LIFETIME,
  REFRESH_TOKEN_LIFETIME,
  AUTHORIZATION_CODE_LIFETIME,
  WEB_SESSION_LIFETIME,
  type AuthorizationParams,
  type AuthorizationRequest,
  type AuthorizationCheck,
  type TokenRequest,
  type TokenResponse,
  type OAuth2AuthenticatedToken,
  type OAuth2UserInfo,
} from './oauth2/provider.js';
export type { SigningJwk } from './oauth2/signing.js';
export type { OAuth2ProviderTables, OAuth2Grant, OAuth2Token, OAuth2AuthorizationCode } from './oauth2/provider-tables.js';
export {
  CreateOAuth2ApplicationOptionsSchema,
  OAuth2ApplicationSchema,
  type CreateOAuth2ApplicationOptions,
  type ApiOAuth2Application,
} from './oauth2/schemas.js';
export { toApiHook, toApiHookDelivery, toApiHookDeliveryItem } from './webhooks/convert.js';
export {
  CreateHookOptionSchema,
  EditHookOptionSchema,
  HookSchema,
  HookDeliveryItemSchema,
  HookDeliverySchema,
  type CreateHookOption,
  type EditHookOption,
  type ApiHook,
  type ApiHookDelivery,
  type ApiHookDeliveryItem,
} from './webhooks/schemas.js';
export type { Webhook, HookTask, HookDelivery, WebhooksTables } from './webhooks/tables.js';
export type { HookFormatter, HookRequestContent, FormattedHook, HookEventName, HookPayload } from './webhooks/formats/types.js';
export {
  ActionsService,
  ActionVariableSchema,
  CreateOrUpdateSecretOptionSchema,
  CreateVariableOptionSchema,
  SecretSchema,
  UpdateVariableOptionSchema,
  toApiActionVariable,
  toApiSecret,
  type ActionsOwner,
  type ActionVariable,
  type ActionsTables,
  type ApiActionVariable,
  type ApiSecret,
  type CreateOrUpdateSecretOption,
  type CreateVariableOption,
  type UpdateVariableOption,
  ActionRunJobSchema,
  ActionRunJobStepSchema,
  ActionRunnerSchema,
  RegisterRunnerOptionsSchema,
  RegisterRunnerResponseSchema,
  RegistrationTokenSchema,
  RunnersService,
  RunsService,
  SchedulesService,
  TasksService,
  ActionRunSchema,
  ActionTaskResponseSchema,
  DispatchWorkflowOptionSchema,
  DispatchWorkflowRunSchema,
  ListActionRunResponseSchema,
  toApiActionRun,
  toApiActionRunJob,
  toApiActionTask,
  ActionStatus,
  WORKFLOW_DIRS,
  actionsEnabled,
  isDone as isActionDone,
  statusName as actionStatusName,
  statusOfName as actionStatusOfName,
  type ActionRun,
  type ActionRunJob,
  type ActionTask,
  type ActionTaskStep,
  type ActionStatusName,
  type RunFilter,
  type StoredLogLine,
  type TaskForRunner,
  REGISTRATION_TOKEN_INVALIDATED,
  REGISTRATION_TOKEN_NOT_FOUND,
  UNREGISTERED_RUNNER,
  runnerStatus,
  toApiActionRunner,
  type ActionRunner,
  type ActionRunnerToken,
  type ApiActionRunJob,
  type ApiActionRunner,
  type ApiRegisterRunnerResponse,
  type ApiRegistrationToken,
  type RegisterRunnerOptions,
  type RegisteredRunner,
  type RunnerRegistration,
  type RunnersOwner,
  type RunnerStatus,
} from './actions/index.js';
export { ARTIFACTS_SPACE, ArtifactsService, ArtifactStatus, ActionArtifactSchema, ArtifactListQuerySchema, MAX_BLOCK_LIST_BYTES, toApiActionArtifact, type ActionArtifact, type ApiActionArtifact, type ArtifactDownload, type RuntimeTask, type SignedQuery } from './actions/index.js';
export {
  LFS_MEDIA_TYPE,
  LFS_SPACE,
  LfsLockExistsError,
  LfsService,
  RangeNotSatisfiableError,
  isValidOid as isValidLfsOid,
  parsePointer as parseLfsPointer,
  type ApiLfsLock,
  type ApiLfsLockList,
  type ApiLfsLockListVerify,
  type LfsBatchResponse,
  type LfsDownload,
  type LfsPointer,
  type LfsTokenResponse,
  type LfsTables,
} from './lfs/index.js';
export {
  DUPLICATE_PACKAGE_FILE,
  ListPackagesQuerySchema,
  NO_PACKAGE_ACCESS,
  PACKAGE_FILE_NOT_EXIST,
  PACKAGE_NOT_EXIST,
  PACKAGE_TYPES,
  PackageAccessError,
  PackageFileSchema,
  PackageQuotaError,
  PackageSchema,
  PackagesService,
  NpmPackagesService,
  MavenPackagesService,
  MAVEN_HASH_MISMATCH,
  MAVEN_INVALID_PARAMETERS,
  parseMavenPath,
  type MavenAnswer,
  type MavenPath,
  PypiPackagesService,
  PYPI_HASH_MISMATCH,
  PYPI_INVALID_NAME_OR_VERSION,
  CargoPackagesService,
  GoPackagesService,
  DebianPackagesService,
  DEBIAN_TYPE,
  ComposerPackagesService,
  COMPOSER_TYPE_PROPERTY,
  ZIP_NOT_VALID,
  HelmPackagesService,
  HELM_TYPE,
  parseChartArchive,
  type HelmMetadata,
  SPOOL_GRACE_MS,
  spoolPackageUpload,
  sweepPackageUploadSpool,
  GO_INVALID_STRUCTURE,
  GO_INVALID_VERSION,
  GO_MOD_PROPERTY,
  unescapeGoPath,
  QUOTA_TOTAL_COUNT,
  QUOTA_TOTAL_SIZE,
  QUOTA_TYPE_SIZE,
  CONTAINER_MAX_MANIFEST_SIZE,
  CONTAINER_TYPE,
  ContainerError,
  ContainerPackagesService,
  assertImageName,
  isValidDigest,
  isValidImageName,
  isValidTag,
  parseContentRangeStart,
  type ContainerBlob,
  type ContainerManifest,
  type ContainerUploadState,
  isValidGenericFileName,
  isValidGenericName,
  packageBlobKey,
  toApiPackage,
  toApiPackageFile,
  type ApiPackage,
  type ApiPackageFile,
  type FileWithBlob,
  type ListPackagesQuery,
  type Package,
  type PackageBlob,
  type PackageCoordinates,
  type PackageDownload,
  type PackageFile,
  type PackageVersion,
  type PackagesTables,
  type VersionWithPackage,
} from './packages/index.js';
export type { Comment, NewComment, CommentsTables } from './timeline/tables.js';
export { COMMENT_TYPES, COMMENT_TYPE_NAMES, commentTypeName, type CommentTypeName } from './timeline/types.js';
export {
  CommentSchema,
  CreateIssueCommentOptionSchema,
  EditIssueCommentOptionSchema,
  CommentWindowQuerySchema,
  type ApiComment,
  type CreateIssueCommentOption,
  type EditIssueCommentOption,
} from './comments/schemas.js';
export { toApiComment, issueWebUrl, type CommentRelations } from './comments/convert.js';
export { type TrackedTimeFilter } from './times/store.js';
export type { TrackedTime, Stopwatch, TimesTables } from './times/tables.js';
export { TrackedTimeSchema, StopWatchSchema, AddTimeOptionSchema, TrackedTimeQuery, TrackedTimeRangeQuery, type ApiTrackedTime, type ApiStopWatch, type AddTimeOption } from './times/schemas.js';
export { toApiTrackedTime, toApiStopWatch, secondsToText } from './times/convert.js';
export { NotificationsService } from './notifications/service.js';
export { IssueSubscriptionsService, type SubscriptionChange } from './notifications/subscriptions.js';
export { type NotificationFilter } from './notifications/store.js';
export { NotificationStatus, NotificationSource, type Notification, type NewNotification, type IssueWatch, type NotificationsTables } from './notifications/tables.js';
export {
  NotificationThreadSchema,
  NotificationSubjectSchema,
  NotificationCountSchema,
  NotificationListQuerySchema,
  NotificationMarkQuerySchema,
  NotificationThreadMarkQuerySchema,
  type ApiNotificationThread,
  type ApiNotificationSubject,
  type ApiNotificationCount,
  type NotificationListQuery,
  type NotificationMarkQuery,
  type NotificationThreadMarkQuery,
} from './notifications/schemas.js';
export { toApiNotificationThread, toApiNotificationThreads, type LoadedNotification } from './notifications/convert.js';
export { findMentions } from './notifications/mentions.js';
export { CommentsService, type CommentOnIssue, type CommentWithRelations, type CommentWindow } from './comments/service.js';
export { TimelineCommentSchema, toApiTimelineComment, type ApiTimelineComment, type TimelineEntry } from './comments/timeline.js';
export { findIssueReferences, type IssueReference } from './timeline/references.js';
export { ReactionsService, type ReactionWithUser, type ReactionAdded } from './reactions/service.js';
export type { Reaction, ReactionsTables } from './reactions/tables.js';
export { ReactionSchema, EditReactionOptionSchema, type ApiReaction, type EditReactionOption } from './reactions/schemas.js';
export { toApiReaction } from './reactions/convert.js';
export { TimesService, type TrackedTimeListQuery } from './times/service.js';
export { IssueDependenciesService, IssueMetaSchema, dependenciesEnabled, accessOfRepos, type IssueRef } from './issues/dependencies.js';
export { IssueDeadlineService, EditDeadlineOptionSchema, IssueDeadlineSchema, type EditDeadlineOption, type ApiIssueDeadline } from './issues/deadline.js';
export { deadlineOf, deadlineCommentContent } from './issues/due-dates.js';
export { IssueLockService, IssueLockOptionSchema, type IssueLockOption } from './issues/lock.js';
export { AttachmentsService, type AttachmentHolder, type AttachmentUpload, type UploadOptions, type OpenUpload, type AttachmentDownload, type AttachmentRedirect } from './attachments/service.js';
export { IssueAttachmentsService } from './issues/attachments.js';
export { CommentAttachmentsService, type LoadedComment } from './comments/attachments.js';
export { attachmentBlobKey, type Attachment, type NewAttachment, type AttachmentsTables } from './attachments/tables.js';
export { AttachmentSchema, EditAttachmentOptionsSchema, type ApiAttachment, type EditAttachmentOptions } from './attachments/schemas.js';
export { toApiAttachment, attachmentDownloadUrl } from './attachments/convert.js';
export { isAllowedType, sniffContentType } from './attachments/sniff.js';
export { BLOB_SPACES, BlobsService, type BlobSpace } from './blobs/service.js';
export { STORAGE_KINDS, resolveBlobStorages, type LocalStorageConfig, type ObjectStorageConfig, type StorageConfig, type StorageKind } from './blobs/config.js';
export { LocalBlobStorage } from './blobs/local.js';
export { ObjectBlobStorage } from './blobs/object.js';
export { BlobTooLargeError, ObjectStorageUnavailableError, type BlobStorage, type BlobSource, type ByteRange, type PutBlobOptions, type PutBlobResult, type StoredBlob, type ListedBlob } from './blobs/storage.js';
export { CrossReferencesService } from './issues/cross-references.js';
export { parseByteRange, type RangeAnswer } from './blobs/range.js';
export { importRepositoryContent, MigrationError, type ImportRepositoryContentInput, type ImportItems, type ImportStep } from './migrate/gitea/import.js';
