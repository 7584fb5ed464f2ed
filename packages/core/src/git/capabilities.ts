/**
 * What core asks of git storage, split by what callers need: each capability is a small interface, and
 * `GitBackend` (`backend.ts`) is all of them. A caller that needs one or two types its field or parameter by those.
 * A backend that declares a capability only to refuse it marks it `Unsupported<…>` (the memory backend does so for
 * the capabilities `git/unsupported.ts` lists): its methods are there and fail with `NotSupportedError`.
 */
import type { Readable } from 'node:stream';
import type { CommitTreeOptions, RebaseOptions, RebaseResult } from './merge-types.js';
import type { FetchRemoteOptions, RemoteGitAccess, RemoteHead } from './remote-types.js';
import type { MirrorPushRequest } from './push-mirror-types.js';
import type {
  ListedRefs,
  AnnotatedTagOptions,
  AppliedPatch,
  ArchiveOptions,
  ArchiveStream,
  ChangeFilesCommit,
  ChangedFileEntry,
  CommitFilesOptions,
  CommitListOptions,
  CommitLogOptions,
  CommitRangeOptions,
  ContentsRead,
  GitCommit,
  GitObjectData,
  GitObjectInfo,
  GitRefEntry,
  GitHookFile,
  GitHookName,
  GitService,
  IncomingObjects,
  LoggedCommit,
  MaintenanceOptions,
  MaintenanceResult,
  MergeTreeResult,
  ObjectFormat,
  ReadContentsOptions,
  ReadObjectOptions,
  ReadTreeOptions,
  ReadTreeResult,
  RefDetail,
  RefKind,
  RefUpdate,
  RepoKey,
  RunServiceOptions,
  ServiceOptions,
  ServiceSession,
  StoredRepository,
  TreeEntryInfo,
  TreeFile,
} from './types.js';

/** Storage: repositories as a whole — made, forked, moved, removed, listed, described and measured. */
export interface GitStorage {
  /** Creates an empty bare repository; fails with RepositoryExistsError if it exists. */
  create(key: RepoKey, options: { objectFormat: ObjectFormat; defaultBranch: string }): Promise<void>;
  exists(key: RepoKey): Promise<boolean>;
  /**
   * Removes a repository's storage, if present. It disappears from its place at once (never half-deleted there),
   * so a crash midway leaves only garbage that `collectGarbage` removes.
   */
  remove(key: RepoKey): Promise<void>;
  /** Every repository present in storage, whether or not the database knows it. */
  list(): Promise<RepoKey[]>;
  /** Object format and HEAD branch of a stored repository. */
  describe(key: RepoKey): Promise<StoredRepository>;
  /**
   * Removes what interrupted removals and changes left behind (removed repositories, scratch folders) that nothing
   * has touched for `olderThanMs` (default 0: all of it): younger leftovers may belong to a change another process
   * sharing the storage is making now.
   */
  collectGarbage(olderThanMs?: number): Promise<void>;
  /** Bytes of git objects (loose and packed) the repository holds. */
  size(key: RepoKey): Promise<number>;
  /**
   * Moves a repository's storage from `from` to `to` in one step (never half there), for renames and transfers.
   * Fails with RepositoryExistsError when storage exists at `to` (and with ENOENT when `from` has none).
   */
  rename(from: RepoKey, to: RepoKey): Promise<void>;
  /**
   * Moves every repository of owner `from` to owner `to` in one step (never half there), for renaming an account.
   * Resolves false when `from` has no storage (nothing moved), true when it moved. Fails with
   * OwnerStorageExistsError when `to` already holds anything (an empty place is taken over).
   */
  renameOwner(from: string, to: string): Promise<boolean>;
  /**
   * Makes `to` a fork of `from`: a new repository with `from`'s branches, tags and objects, sharing the object
   * files on disk; it outlives `from`'s deletion or move. Fails with RepositoryExistsError when `to` exists.
   */
  fork(from: RepoKey, to: RepoKey, options: { objectFormat: ObjectFormat; defaultBranch: string }): Promise<void>;
}

/** Objects: reading objects, trees, blobs and the contents API's view of a commit, over long-lived readers. */
export interface GitObjects {
  /**
   * Reads one object named by a full id or a revision (`main`, `v1^{commit}`, `<commit>:<path>`) from the
   * repository's long-lived object reader. Undefined when it names nothing (or is not a safe revision).
   */
  readObject(key: RepoKey, revision: string, options?: ReadObjectOptions): Promise<GitObjectData | undefined>;
  /** Reads many objects over the same reader, in the order asked (undefined for those that do not exist). */
  readObjects(key: RepoKey, revisions: readonly string[], options?: ReadObjectOptions): Promise<(GitObjectData | undefined)[]>;
  /** The object a revision names, with its type and size, without reading its content. */
  resolveRevision(key: RepoKey, revision: string): Promise<GitObjectInfo | undefined>;
  /** The commit `revision` names (a branch, tag, commit id, or any git revision), or undefined when none. */
  resolveCommit(key: RepoKey, revision: string): Promise<string | undefined>;
  /** Lists the tree a tree id or commit-ish names; undefined when it names none. */
  readTree(key: RepoKey, treeish: string, options?: ReadTreeOptions): Promise<ReadTreeResult | undefined>;
  /** Every blob of the commit's tree with its size, in one pass (symbolic links and submodules left out). */
  listFiles(key: RepoKey, commit: string): Promise<TreeFile[]>;
  /** Streams a blob's bytes (for content too large to read whole); `id` is a full blob id. */
  openBlob(key: RepoKey, id: string): Readable;
  /** The entry at a path of a commit's tree as the contents API shows it, or undefined when there is none. */
  readContents(key: RepoKey, options: ReadContentsOptions): Promise<ContentsRead | undefined>;
  /**
   * The newest commit from `commit` (a full id) back that changed `path`, with its committer time in strict ISO
   * 8601; undefined when none did. Remembered per commit and path, as a commit id fixes its history.
   */
  lastCommitOf(key: RepoKey, commit: string, path: string): Promise<{ id: string; when: string; authorWhen: string } | undefined>;
  /** The entries at the given paths of a commit's tree (absent paths are left out of the map). */
  statPaths(key: RepoKey, commit: string, paths: readonly string[]): Promise<Map<string, TreeEntryInfo>>;
  /** Stops the backend's long-lived processes (object readers); the backend starts them again when used. */
  close(): void;
}

/** Refs: reading branches and tags, moving refs, and HEAD. */
export interface GitRefs {
  /** Current ids of the named refs; refs that do not exist are absent from the map. */
  readRefs(key: RepoKey, refs: readonly string[]): Promise<Map<string, string>>;
  /** Refs whose full name starts with `prefix` (plain string prefix, as Forgejo matches), sorted by name. */
  listRefs(key: RepoKey, prefix: string): Promise<GitRefEntry[]>;
  /**
   * Branches or tags with their commits, in one `for-each-ref` for the names and one for the page's details:
   * `names` reads just those (short names; missing ones are left out), else the page `offset`/`limit` of all.
   */
  refDetails(key: RepoKey, kind: RefKind, select: { names: readonly string[] } | { offset: number; limit: number }): Promise<{ refs: RefDetail[]; total: number }>;
  /**
   * Moves refs in one transaction: each from `oldId` (all-zero: must not exist) to `newId` (all-zero: deleted).
   * Rejects with RefConflictError, changing nothing, when a ref is not at its `oldId`.
   */
  updateRefs(key: RepoKey, updates: readonly RefUpdate[]): Promise<void>;
  /** Points `ref` at `commit` unconditionally. */
  storeCommitRef(key: RepoKey, ref: string, commit: string): Promise<void>;
  /** Points HEAD at `refs/heads/<branch>`. */
  setDefaultBranch(key: RepoKey, branch: string): Promise<void>;
  /** The first branch by name, if there is any. */
  firstBranch(key: RepoKey): Promise<string | undefined>;
  /** True when the repository has no branches. */
  isEmpty(key: RepoKey): Promise<boolean>;
}

/** History: walking, counting and comparing commits, and the files a range changed. */
export interface GitHistory {
  /**
   * One `git log` over `exclude..head`: the first `detailed` commits in full and how many there are, up to
   * `countLimit` (the rest are only counted). Rejects when an id is unknown.
   */
  commitLog(key: RepoKey, options: CommitLogOptions): Promise<{ commits: LoggedCommit[]; count: number }>;
  /** A page of a range, newest first, in one pass (one `git log`); rejects when an id is unknown. */
  listCommits(key: RepoKey, options: CommitListOptions): Promise<GitCommit[]>;
  /** How many commits a range holds (one `rev-list --count`). */
  countCommits(key: RepoKey, options: CommitRangeOptions): Promise<number>;
  /** True when commit `ancestor` is reachable from commit `descendant` (both full ids). */
  isAncestor(key: RepoKey, ancestor: string, descendant: string): Promise<boolean>;
  /** The files that differ between two commits, with line counts. */
  changedFiles(key: RepoKey, base: string, head: string, options?: { ignoreWhitespace?: string }): Promise<ChangedFileEntry[]>;
}

/** Transfer: the smart protocol (fetches and pushes) and reading a push while it is received. */
export interface GitTransfer {
  /** The ref advertisement a smart-HTTP client fetches from `info/refs` (without the `# service` preamble). */
  advertiseRefs(key: RepoKey, service: GitService, options: ServiceOptions): Promise<Buffer>;
  /** Runs upload-pack or receive-pack over a byte stream. */
  runService(key: RepoKey, service: GitService, options: RunServiceOptions): ServiceSession;
  /**
   * HEAD and the refs protocol v2's `ls-refs` shows, so that command is answered without a git process (see
   * ls-refs.ts); undefined when the backend cannot say exactly what git would (git then answers).
   */
  listRefsForTransfer?(key: RepoKey): Promise<ListedRefs | undefined>;
  /**
   * Reads objects of a push in progress: `quarantine` is the pre-receive hook's environment (its object-directory
   * variables are used, nothing else); empty, it reads the repository as it is.
   */
  incoming(key: RepoKey, quarantine: Record<string, string>): IncomingObjects;
}

/** Writes: new commits of files and trees, and annotated tags, without a worktree. */
export interface GitWrites {
  /** Writes the given files as one commit on `branch` and returns the commit id. */
  commitFiles(key: RepoKey, options: CommitFilesOptions): Promise<string>;
  /**
   * Writes the changes as one commit on top of `parent` and moves `branch` to it only if it still points at
   * `expectedOldId` (BranchMovedError otherwise). Returns the commit, its tree and the blob id of each written path.
   */
  changeFiles(key: RepoKey, options: ChangeFilesCommit): Promise<{ commit: string; tree: string; blobs: Map<string, string> }>;
  /**
   * Commits the tree at `fromBranch` of `from` as the first commit of `branch` in `to` (same object format): a
   * repository generated from a template starts with the template's files, not its history. Returns the commit id,
   * or undefined when `from` has no such branch.
   */
  commitTreeOf(from: RepoKey, fromBranch: string, to: RepoKey, options: Omit<CommitFilesOptions, 'files' | 'expectedOldId'>): Promise<string | undefined>;
  /** Writes an annotated tag object (not its ref) and returns its id. */
  writeAnnotatedTag(key: RepoKey, options: AnnotatedTagOptions): Promise<string>;
}

/** Merge: what merging pull requests needs — merge bases, merged trees, commits of a tree, commits across forks. */
export interface GitMerge {
  /** The best common ancestor of two commits; undefined when their histories are unrelated. */
  mergeBase(key: RepoKey, a: string, b: string): Promise<string | undefined>;
  /** Merges `theirs` into `ours` without a worktree: the resulting tree and the conflicting paths. */
  mergeTree(key: RepoKey, ours: string, theirs: string): Promise<MergeTreeResult>;
  /** Writes a commit of `tree` with `parents` (git commit-tree) and returns its id; no ref moves. */
  commitTree(key: RepoKey, options: CommitTreeOptions): Promise<string>;
  /** Brings commit `id` and its history from `from` into `to` without writing a ref. */
  copyCommit(from: RepoKey, to: RepoKey, id: string): Promise<void>;
}

/** Rebase: replaying a pull request's commits onto its base (the rebase merge styles). */
export interface GitRebase {
  /** Replays `head`'s commits onto `onto` in scratch space and brings the new commits into `key`; no ref moves. */
  rebaseCommits(key: RepoKey, options: RebaseOptions): Promise<RebaseResult>;
}

/** Diffs: unified diffs and mail-formatted patches, as git writes them. */
export interface GitDiffs {
  /** A commit's diff against its first parent (`diff`) or its mail-formatted patch (`patch`); `commit` is a full id. */
  commitDiff(key: RepoKey, commit: string, format: 'diff' | 'patch'): Promise<Buffer>;
  /** `head`'s changes since `base`: one diff, or one patch per commit. */
  diffRange(key: RepoKey, base: string, head: string, format: 'diff' | 'patch', binary: boolean): Promise<Buffer>;
  /** Each path's unified diff between two commits, from one process cut at `maxBytes` (review comments quote hunks). */
  fileDiffs(key: RepoKey, base: string, head: string, paths: readonly string[], maxBytes: number): Promise<Map<string, string>>;
  /**
   * Applies a unified diff to the tree of commit `base` as `git apply --cached -3` does (Forgejo's diffpatch),
   * writing its blobs and tree; no commit is made and no ref moves.
   */
  applyPatch(key: RepoKey, base: string, patch: string): Promise<AppliedPatch>;
}

/** Archive: zip, tar.gz and bundle downloads of a commit. */
export interface GitArchive {
  /** Starts streaming an archive of a commit, as git writes it. */
  archive(key: RepoKey, options: ArchiveOptions): Promise<ArchiveStream>;
}

/** Remote: git against other servers — migrations, pull mirrors and push mirrors. */
export interface GitRemote {
  /** What a remote repository's HEAD names and its object format (`git ls-remote`), within the remote's time. */
  remoteHead(remote: RemoteGitAccess): Promise<RemoteHead>;
  /** Fetches from a remote into the repository with the given refspecs (`git fetch`), within the remote's time. */
  fetchRemote(key: RepoKey, remote: RemoteGitAccess, options: FetchRemoteOptions): Promise<void>;
  /** Pushes branches and tags to a push mirror's remote, forced (native only: remote git). */
  pushMirror(key: RepoKey, request: MirrorPushRequest): Promise<void>;
  /**
   * Every blob of the repository's object store of at most `maxSize` bytes that starts with `prefix` (LFS finds the
   * pointers of a fetched history so: what a migration or a pull mirror fetches next).
   */
  smallBlobsWithPrefix(key: RepoKey, prefix: Buffer, maxSize: number, signal?: AbortSignal): Promise<Buffer[]>;
}

/** Maintenance: housekeeping of repositories on disk (cron tasks) and the hook files pushes run. */
export interface GitMaintenance {
  /** Housekeeping (cron tasks): `fsck` checks a repository's objects, `gc` packs them; never throws for a failed run. */
  maintain(key: RepoKey, command: 'fsck' | 'gc', options: MaintenanceOptions): Promise<MaintenanceResult>;
  /** Writes the server hooks pushes run again (`resync_all_hooks`), restoring any that were removed or changed. */
  syncHooks(): Promise<void>;
  /** A repository's own server-side hooks, each named hook in `GIT_HOOK_NAMES` order. */
  readHooks(key: RepoKey): Promise<GitHookFile[]>;
  /** Sets a repository's own hook; blank content removes it. */
  writeHook(key: RepoKey, name: GitHookName, content: string): Promise<GitHookFile>;
}

/** The mark `Unsupported` puts on a method, also set on the function at run time (see `isSupported`). */
export const UNSUPPORTED: unique symbol = Symbol('git.unsupported');

/** A method a backend has only to refuse: calling it fails with `NotSupportedError` (a 501 on HTTP). */
export type UnsupportedMethod<F> = F & { readonly [UNSUPPORTED]: true };

/**
 * A capability a backend declares but does not provide: its methods are there, so the backend is still a
 * `GitBackend` and callers compile and get `NotSupportedError` at run time, but each is typed `UnsupportedMethod`.
 */
export type Unsupported<C> = { [K in keyof C]: UnsupportedMethod<C[K]> };

/** The methods of `B` marked `Unsupported`. */
export type UnsupportedMethodsOf<B> = { [K in keyof B]: B[K] extends { readonly [UNSUPPORTED]: true } ? K : never }[keyof B];

/** `true` when backend type `B` provides capability `C` (has its methods, none marked unsupported), else `false`. */
export type Supports<B, C> = [B] extends [C] ? ([UnsupportedMethodsOf<B> & keyof C] extends [never] ? true : false) : false;

/** Whether `backend` provides `method` at run time: false for a method it has only to refuse. */
export function isSupported<B extends object>(backend: B, method: keyof B): boolean {
  const value: unknown = backend[method];
  return typeof value === 'function' && !(UNSUPPORTED in value);
}
