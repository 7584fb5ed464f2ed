/**
 * The git folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { type GitBackend } from './backend.js';
export { type GitHistory, type GitObjects } from './capabilities.js';
export { hasLineTerminator, identTail } from './ident.js';
export { ConcurrencyLimit } from './limit.js';
export { firstPktLine, formatLsRefs, parseLsRefsRequest } from './ls-refs.js';
export { gitProcessStats, type GitProcessStats } from './stats.js';
export { MemoryGitBackend } from './memory/backend.js';
export { type MergeSignature } from './merge-types.js';
export { NativeGitBackend } from './native.js';
export { RemoteGitError, type RemoteGitAccess } from './remote-types.js';
export { BranchMovedError, DEFAULT_OBJECT_FORMAT, FULL_HEX_ID, GIT_HOOK_NAMES, OBJECT_FORMATS, OwnerStorageExistsError, RefConflictError, RepositoryExistsError, isObjectFormat, type ArchiveFormat, type ChangedFileEntry, type CommitListOptions, type CommitRangeOptions, type ContentsEntry, type DatedSignature, type DirectOutput, type FileChange, type FileToCommit, type GitCommit, type GitHookFile, type GitHookName, type GitObjectData, type GitObjectInfo, type GitRefEntry, type GitService, type GitTreeEntry, type IncomingObjects, type LoggedCommit, type ObjectFormat, type RefCommitInfo, type RefDetail, type RefUpdate, type RepoKey, type ServiceSession, type Signature, type TreeFile } from './types.js';
export { cleanCommitMessage } from './text.js';
export { notSupported } from './unsupported.js';
export { WIKI_SUFFIX, wikiRepoKey } from './wiki.js';
