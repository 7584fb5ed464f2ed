/**
 * The repos folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
import './events.js';
export { type RenamedBranch } from './events.js';
export { type RepoAccess } from './access.js';
export { RepoArchiveService } from './archive.js';
export { RepoAvatarsService, UpdateRepoAvatarOptionSchema, type UpdateRepoAvatarOption } from './avatars.js';
export { CollaboratorsService } from './collaborators.js';
export { REPO_AVATARS_PATH, repoWebPath, toApiRepository } from './convert.js';
export { forksDomain, gitIntentsDomain, reposDomain } from './domain.js';
export { RepoSettingsService } from './edit.js';
export { RepoFlagsService, ReplaceFlagsOptionSchema, type ReplaceFlagsOption } from './flags.js';
export { RepoForksService } from './forks.js';
export { type RepoLabels } from './labels.js';
export { EditGitHookOptionSchema, GitHookSchema, GitHooksService, type ApiGitHook, type EditGitHookOption } from './git-hooks.js';
export { RepoLanguagesService } from './languages.js';
export { repoListCondition, type RepoListFilter } from './list-filter.js';
export { assertValidBranchName, assertValidRepoName, isValidRefName } from './names.js';
export { RepoParticipantsService } from './participants.js';
export { ReposPort } from './port.js';
export { type PushCheck, type PushPolicy, type PusherKind } from './push-policy.js';
export { RepositoryMetaSchema, RepositorySchema, type ApiRepositoryMeta } from './schemas.js';
export { RepoSearchService, searchVisibility } from './search.js';
export { ReposService, repoKey } from './service.js';
export { SigningKeyService } from './signing.js';
export { RepoStorageService, repoStorageLock, type ReconcileReport } from './storage.js';
export { RepoStatus, type ReposTables, type Repository } from './tables.js';
export { type RepoTopics } from './topics.js';
export { GitTransferService, type RenameFollower } from './transfer.js';
export { RepoTransferService } from './transfers.js';
export { type SearchVisibility } from './types.js';
export { MERGE_STYLES, UPDATE_STYLES, defaultUnits, parseTopics, serializeUnits, viewUnits, type MergeStyle, type PullsUnit, type UpdateStyle } from './units.js';
export { WATCHING_MODES, WatchMode } from './watches.js';
export { RepoWikiStorage, wikiBranchOf } from './wiki.js';
