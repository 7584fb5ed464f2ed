/**
 * The git backend core is built over: `GitBackend` is every capability of `capabilities.ts` (storage, objects,
 * refs, history, transfer, writes, merge, rebase, diffs, archive, remote, maintenance). Two implement it:
 * `native.ts` (the git binary) and `memory/backend.ts` (isomorphic-git in memory, which marks what it cannot do
 * `Unsupported`; see `unsupported.ts`). The values the capabilities take and return are in `types.ts`; both
 * files are exported from here, so callers import from this one.
 */
import type {
  GitArchive,
  GitDiffs,
  GitHistory,
  GitMaintenance,
  GitMerge,
  GitObjects,
  GitRebase,
  GitRefs,
  GitRemote,
  GitStorage,
  GitTransfer,
  GitWrites,
} from './capabilities.js';

export * from './types.js';
export * from './capabilities.js';

/**
 * Everything core asks of git storage, as one type. Kept small on purpose: an in-memory implementation must be
 * able to provide most of it. A caller that needs only a capability or two types its field by those instead.
 */
export type GitBackend = GitStorage &
  GitObjects &
  GitRefs &
  GitHistory &
  GitTransfer &
  GitWrites &
  GitMerge &
  GitRebase &
  GitDiffs &
  GitArchive &
  GitRemote &
  GitMaintenance;
