import type { Readable } from 'node:stream';
import type { CommitTreeOptions, RebaseOptions, RebaseResult } from './merge-types.js';
import type { FetchRemoteOptions, RemoteGitAccess, RemoteHead } from './remote-types.js';
import type { MirrorPushRequest } from './push-mirror-types.js';

/** Identifies a repository to the backend: lower-cased owner and repository names. */
export interface RepoKey {
  readonly owner: string;
  readonly name: string;
}

/** Git object formats (hash functions), in Forgejo's order: the first is the default. */
export const OBJECT_FORMATS = ['sha1', 'sha256'] as const;
export type ObjectFormat = (typeof OBJECT_FORMATS)[number];
export const DEFAULT_OBJECT_FORMAT: ObjectFormat = OBJECT_FORMATS[0];

/** A full object id, lower case: 40 hex digits (sha1) or 64 (sha256). */
export const FULL_HEX_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export function isObjectFormat(value: string): value is ObjectFormat {
  return (OBJECT_FORMATS as readonly string[]).includes(value);
}

/** The two smart-protocol services a client can ask for. */
export type GitService = 'upload-pack' | 'receive-pack';

export interface Signature {
  name: string;
  email: string;
  when?: Date;
}

export interface FileToCommit {
  /** Slash-separated path inside the tree, no leading slash. */
  path: string;
  content: string | Uint8Array;
}

export interface CommitFilesOptions {
  branch: string;
  message: string;
  author: Signature;
  committer?: Signature;
  files: FileToCommit[];
  /** Commit id the branch must point at now (all-zero or absent: the branch must not exist yet). */
  expectedOldId?: string;
}

/** A ref change made by a push. Ids are all-zero for a created (old) or deleted (new) ref. */
export interface RefUpdate {
  ref: string;
  oldId: string;
  newId: string;
}

export interface ServiceOptions {
  /** The client's `Git-Protocol` value (e.g. `version=2`), already checked to be harmless. */
  protocol?: string;
  /** The repository's object format, as the database records it (lets a backend reuse what depends only on it). */
  objectFormat?: ObjectFormat;
}

export interface RunServiceOptions extends ServiceOptions {
  /** The client's request bytes (HTTP body, SSH channel…), already decompressed. */
  input: Readable;
  /** HTTP uses one request per round (`--stateless-rpc`); SSH keeps one bidirectional stream. */
  stateless: boolean;
  /** Aborted when the client has gone away: the service is stopped at once and `done` rejects. */
  signal?: AbortSignal;
  /** receive-pack only: bytes of pack data a push may send (git's `receive.maxInputSize`); 0 or absent is unlimited. */
  maxInputSize?: number;
  /** receive-pack only: the owner is over its quota, so the push may only delete refs (`Quota exceeded`). */
  overQuota?: boolean;
  /**
   * receive-pack only: the pre-receive hook hands the ref updates to this endpoint (a loopback `host:port`) with
   * this secret and refuses the push when the answer says so (branch and tag protection).
   */
  hookCallback?: { endpoint: string; token: string };
}

/** A commit a push brings, as git stores it (for signature checks). */
export interface IncomingCommit {
  id: string;
  raw: Buffer;
}

/** What a push being received brings, read with its quarantined objects visible (see `GitBackend.incoming`). */
export interface IncomingObjects {
  /** True when commit `ancestor` is reachable from commit `descendant`. */
  isAncestor(ancestor: string, descendant: string): Promise<boolean>;
  /** Paths that differ between commit `from` (undefined: the empty tree) and commit `to`, at most `limit`. */
  changedPaths(from: string | undefined, to: string, limit: number): Promise<string[]>;
  /** Commits reachable from `to` and not from `from` (undefined: from no ref at all), newest first, at most `limit`. */
  newCommits(from: string | undefined, to: string, limit: number): Promise<IncomingCommit[]>;
}

export interface ServiceSession {
  /** The bytes to send back to the client. */
  output: Readable;
  /**
   * Settles when the service has finished. For receive-pack it yields the ref updates that took effect
   * (read from the client's commands and checked against the refs afterwards).
   */
  done: Promise<RefUpdate[]>;
}

/** What an existing repository's storage says about itself (for adopting files the database does not know). */
export interface StoredRepository {
  objectFormat: ObjectFormat;
  /** The branch HEAD names, whether or not it exists yet. */
  headBranch: string;
}

/** A file of a tree, as `listFiles` reports it. */
export interface TreeFile {
  /** Slash-separated path from the tree's root. */
  path: string;
  /** Bytes of the blob. */
  size: number;
}

/** One commit as `commitLog` reads it. */
export interface LoggedCommit {
  id: string;
  parents: string[];
  /** The raw message. */
  message: string;
  authorName: string;
  authorEmail: string;
  /** Author time in strict ISO 8601 with the author's offset, as git records it. */
  authorTime: string;
  committerName: string;
  committerEmail: string;
}

export interface CommitLogOptions {
  /** The newest commit (a full id; a tag id is peeled). */
  head: string;
  /** Commits reachable from this id are left out. */
  exclude?: string;
  /** Commits read in full, newest first. */
  detailed: number;
  /** Commits counted at most (git stops walking there). */
  countLimit: number;
}

/** The formats `archive` writes: git's zip and gzipped tar, and a git bundle of the commit's history. */
export const ARCHIVE_FORMATS = ['zip', 'tar.gz', 'bundle'] as const;
export type ArchiveFormat = (typeof ARCHIVE_FORMATS)[number];

export interface ArchiveOptions {
  /** Full id of the commit to archive (resolve names with `resolveCommit` first). */
  commit: string;
  format: ArchiveFormat;
  /** Folder every path is put under (zip and tar.gz), e.g. `repo/`. */
  prefix?: string;
  /** Aborted when the client has gone away: git is stopped at once and `done` rejects. */
  signal?: AbortSignal;
}

export interface ArchiveStream {
  /** The archive's bytes, as git writes them. */
  output: Readable;
  /** Settles when git has exited: rejects if it failed or was stopped. */
  done: Promise<void>;
}

/** The four kinds of git object. */
export type GitObjectType = 'blob' | 'tree' | 'commit' | 'tag';

/** What git says of an object without reading it. */
export interface GitObjectInfo {
  /** Full object id, in the repository's object format. */
  id: string;
  type: GitObjectType;
  /** Bytes of the object's content. */
  size: number;
}

/** An object with its content, as `readObject` returns it. */
export interface GitObjectData extends GitObjectInfo {
  /** The content, at most `maxBytes` of it. */
  content: Buffer;
  /** True when `content` holds less than `size` bytes (the object was over the limit). */
  truncated: boolean;
}

export interface ReadObjectOptions {
  /** Bytes of content kept at most (default 16 MiB); a larger object is read past, not buffered whole. */
  maxBytes?: number;
}

/** One entry of a tree listing. */
export interface GitTreeEntry {
  /** Six octal digits, as git writes them: `100644`, `100755`, `120000`, `040000`, `160000`. */
  mode: string;
  /** `commit` for a submodule. */
  type: 'blob' | 'tree' | 'commit';
  id: string;
  /** Slash-separated path from the listed tree's root (invalid UTF-8 read as U+FFFD). */
  path: string;
  /** Bytes of a blob; 0 for trees and submodules. */
  size: number;
}

export interface ReadTreeOptions {
  /** List subtrees' entries too, each folder before its contents. */
  recursive?: boolean;
  /** Entries skipped from the start of the listing. */
  offset?: number;
  /** Entries returned at most (sizes are read for these only). */
  limit?: number;
  /** Read blob sizes (default true); false leaves them 0 and asks git nothing more. */
  sizes?: boolean;
}

export interface ReadTreeResult {
  /** The tree listed (a commit given is peeled to its tree). */
  id: string;
  entries: GitTreeEntry[];
  /** Entries in the whole listing, before offset and limit. */
  total: number;
}

/** A ref and the object it names (not peeled: an annotated tag's ref names the tag object). */
export interface GitRefEntry {
  /** Full name, `refs/heads/main`. */
  ref: string;
  id: string;
  type: GitObjectType;
}

/** An entry of a commit's tree. */
export interface TreeEntryInfo {
  /** The last path component ('' for the root tree). */
  name: string;
  /** Slash-separated path from the root ('' for the root tree). */
  path: string;
  /** Git's six-digit mode: 100644, 100755, 120000 (symbolic link), 040000 (tree), 160000 (submodule). */
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  id: string;
  /** Bytes of a blob; 0 for trees and submodules. */
  size: number;
}

/** A tree entry as the contents API shows it. */
export interface ContentsEntry extends TreeEntryInfo {
  /** A file's bytes, when asked for and not above `maxBlobSize`. */
  content?: Buffer;
  /** A symbolic link's target. */
  target?: string;
  /** A submodule's URL, from the commit's `.gitmodules`. */
  submoduleUrl?: string;
  /** The newest commit that changed the entry (committer time in ISO 8601 with its offset). */
  lastCommit?: { id: string; when: string; authorWhen: string };
}

export interface ReadContentsOptions {
  /** Full commit id. */
  commit: string;
  /** Slash-separated path, '' for the root. */
  path: string;
  /** A file larger than this is described without its content. */
  maxBlobSize: number;
}

/** The entry at a path and, for a directory, its entries (without content). */
export interface ContentsRead {
  entry: ContentsEntry;
  children?: ContentsEntry[];
}

/** One path's change in `changeFiles`: new content (and mode), or none to remove the path. */
export interface FileChange {
  path: string;
  content?: Uint8Array;
  mode?: '100644' | '100755';
}

export interface ChangeFilesCommit {
  /** The branch moved to the new commit. */
  branch: string;
  objectFormat: ObjectFormat;
  /** The commit the change starts from; absent for a first commit. */
  parent?: string;
  /** What the branch must point at when it is moved (absent: it must not exist yet). */
  expectedOldId?: string;
  /** Applied in order; paths are validated by the caller. */
  changes: FileChange[];
  message: string;
  author: DatedSignature;
  committer: DatedSignature;
}

/** A signature whose time keeps the zone it was given in (`+0200`); UTC when absent. */
export interface DatedSignature extends Signature {
  offset?: string;
}

/** Raised by `changeFiles` when the branch no longer points where the change expected (or exists already). */
export class BranchMovedError extends Error {
  constructor(
    readonly branch: string,
    detail: string,
  ) {
    super(`branch ${branch} moved while the change was made: ${detail}`);
    this.name = 'BranchMovedError';
  }
}

/** A range of history: commits reachable from `head` and not from `exclude`, optionally touching `path`. */
export interface CommitRangeOptions {
  /** Full commit id. */
  head: string;
  /** Full commit id whose history is left out. */
  exclude?: string;
  /** Only commits that change this path (a file or a folder, taken literally). */
  path?: string;
  /** Only commits committed at or after / before this time. */
  since?: Date;
  until?: Date;
}

export interface CommitListOptions extends CommitRangeOptions {
  /** Commits passed over from the newest. */
  skip: number;
  /** Commits returned at most. */
  limit: number;
  /** Read the files each commit changed, with line counts (costs a diff per commit, in the same process). */
  changes: boolean;
}

/** What merging two commits would give: the tree (absent when git could not merge at all) and conflicting paths. */
export interface MergeTreeResult {
  tree?: string;
  conflicts: string[];
  /** Why there is no tree (unrelated histories, say). */
  error?: string;
}

/** A file that differs between two commits, as a pull request's file list shows it. */
export interface ChangedFileEntry {
  path: string;
  /** The old path of a rename or copy. */
  previousPath?: string;
  status: 'added' | 'deleted' | 'changed' | 'renamed' | 'copied';
  additions: number;
  deletions: number;
}

/** A file a commit changed against its first parent (renames are a removal and an addition). */
export interface CommitChange {
  path: string;
  status: 'added' | 'removed' | 'modified';
  additions: number;
  deletions: number;
}

/** A commit as `listCommits` reads it. */
export interface GitCommit {
  id: string;
  tree: string;
  parents: string[];
  authorName: string;
  authorEmail: string;
  /** Strict ISO 8601 with the author's offset, as git records it. */
  authorTime: string;
  committerName: string;
  committerEmail: string;
  committerTime: string;
  /** The raw message. */
  message: string;
  /** With `changes` only. */
  changes?: CommitChange[];
}

/** The commit a ref leads to, as `refDetails` reads it (times in strict ISO 8601 with git's offset). */
export interface RefCommitInfo {
  id: string;
  /** The raw message. */
  message: string;
  authorName: string;
  authorEmail: string;
  authorTime: string;
  committerName: string;
  committerEmail: string;
  committerTime: string;
}

/** A branch or tag with the objects it names, read in one pass over many refs. */
export interface RefDetail {
  /** Full name, `refs/heads/main`. */
  ref: string;
  /** The object the ref names: for an annotated tag, the tag object. */
  id: string;
  type: GitObjectType;
  /** The commit the ref leads to (an annotated tag peeled); undefined when it leads to no commit. */
  commit?: RefCommitInfo;
  /** An annotated tag's own fields. */
  tag?: { taggerName: string; taggerEmail: string; taggerTime: string; message: string };
}

/** Which refs `refDetails` lists, in Forgejo's orders: branches newest commit first, tags newest first. */
export type RefKind = 'branches' | 'tags';

/** Raised by `updateRefs` when a ref no longer holds the id the update expected (nothing was changed). */
export class RefConflictError extends Error {
  constructor(detail: string) {
    super(`ref update refused: ${detail}`);
    this.name = 'RefConflictError';
  }
}

export interface AnnotatedTagOptions {
  /** Short tag name, already validated. */
  name: string;
  /** Full commit id the tag points at. */
  target: string;
  message: string;
  tagger: Signature;
}

/** Raised by `create` when the repository's storage already exists. */
export class RepositoryExistsError extends Error {
  constructor(key: RepoKey) {
    super(`repository files already exist for ${key.owner}/${key.name}`);
    this.name = 'RepositoryExistsError';
  }
}

/** Raised by `renameOwner` when the new owner's place already holds repositories. */
export class OwnerStorageExistsError extends Error {
  constructor(owner: string) {
    super(`repository files already exist for owner ${owner}`);
    this.name = 'OwnerStorageExistsError';
  }
}

/**
 * Everything core asks of git storage. Kept small on purpose: an in-memory implementation must be able to
 * provide all of it.
 */
export interface GitBackend {
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
  /** Removes what interrupted removals left behind; run at start-up, before anything else uses storage. */
  collectGarbage(): Promise<void>;
  /** Writes the given files as one commit on `branch` and returns the commit id. */
  commitFiles(key: RepoKey, options: CommitFilesOptions): Promise<string>;
  /** Points HEAD at `refs/heads/<branch>`. */
  setDefaultBranch(key: RepoKey, branch: string): Promise<void>;
  /** Current ids of the named refs; refs that do not exist are absent from the map. */
  readRefs(key: RepoKey, refs: readonly string[]): Promise<Map<string, string>>;
  /** True when the repository has no branches. */
  isEmpty(key: RepoKey): Promise<boolean>;
  /** The first branch by name, if there is any. */
  firstBranch(key: RepoKey): Promise<string | undefined>;
  /** Bytes of git objects (loose and packed) the repository holds. */
  size(key: RepoKey): Promise<number>;
  /** The ref advertisement a smart-HTTP client fetches from `info/refs` (without the `# service` preamble). */
  advertiseRefs(key: RepoKey, service: GitService, options: ServiceOptions): Promise<Buffer>;
  /** Runs upload-pack or receive-pack over a byte stream. */
  runService(key: RepoKey, service: GitService, options: RunServiceOptions): ServiceSession;
  /** The commit `revision` names (a branch, tag, commit id, or any git revision), or undefined when none. */
  resolveCommit(key: RepoKey, revision: string): Promise<string | undefined>;
  /**
   * One `git log` over `exclude..head`: the first `detailed` commits in full and how many there are, up to
   * `countLimit` (the rest are only counted). Rejects when an id is unknown.
   */
  commitLog(key: RepoKey, options: CommitLogOptions): Promise<{ commits: LoggedCommit[]; count: number }>;
  /** Every blob of the commit's tree with its size, in one pass (symbolic links and submodules left out). */
  listFiles(key: RepoKey, commit: string): Promise<TreeFile[]>;
  /** Starts streaming an archive of a commit, as git writes it. */
  archive(key: RepoKey, options: ArchiveOptions): Promise<ArchiveStream>;
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
   * Commits the tree at `fromBranch` of `from` as the first commit of `branch` in `to` (same object format): a
   * repository generated from a template starts with the template's files, not its history. Returns the commit id,
   * or undefined when `from` has no such branch.
   */
  commitTreeOf(from: RepoKey, fromBranch: string, to: RepoKey, options: Omit<CommitFilesOptions, 'files' | 'expectedOldId'>): Promise<string | undefined>;
  /**
   * Reads one object named by a full id or a revision (`main`, `v1^{commit}`, `<commit>:<path>`) from the
   * repository's long-lived object reader. Undefined when it names nothing (or is not a safe revision).
   */
  readObject(key: RepoKey, revision: string, options?: ReadObjectOptions): Promise<GitObjectData | undefined>;
  /** Reads many objects over the same reader, in the order asked (undefined for those that do not exist). */
  readObjects(key: RepoKey, revisions: readonly string[], options?: ReadObjectOptions): Promise<(GitObjectData | undefined)[]>;
  /** The object a revision names, with its type and size, without reading its content. */
  resolveRevision(key: RepoKey, revision: string): Promise<GitObjectInfo | undefined>;
  /** Lists the tree a tree id or commit-ish names; undefined when it names none. */
  readTree(key: RepoKey, treeish: string, options?: ReadTreeOptions): Promise<ReadTreeResult | undefined>;
  /** Refs whose full name starts with `prefix` (plain string prefix, as Forgejo matches), sorted by name. */
  listRefs(key: RepoKey, prefix: string): Promise<GitRefEntry[]>;
  /** Streams a blob's bytes (for content too large to read whole); `id` is a full blob id. */
  openBlob(key: RepoKey, id: string): Readable;
  /** Stops the backend's long-lived processes (object readers); the backend starts them again when used. */
  close(): void;
  /** The entry at a path of a commit's tree as the contents API shows it, or undefined when there is none. */
  readContents(key: RepoKey, options: ReadContentsOptions): Promise<ContentsRead | undefined>;
  /**
   * The newest commit from `commit` (a full id) back that changed `path`, with its committer time in strict ISO
   * 8601; undefined when none did. Remembered per commit and path, as a commit id fixes its history.
   */
  lastCommitOf(key: RepoKey, commit: string, path: string): Promise<{ id: string; when: string; authorWhen: string } | undefined>;
  /** The entries at the given paths of a commit's tree (absent paths are left out of the map). */
  statPaths(key: RepoKey, commit: string, paths: readonly string[]): Promise<Map<string, TreeEntryInfo>>;
  /**
   * Writes the changes as one commit on top of `parent` and moves `branch` to it only if it still points at
   * `expectedOldId` (BranchMovedError otherwise). Returns the commit, its tree and the blob id of each written path.
   */
  changeFiles(key: RepoKey, options: ChangeFilesCommit): Promise<{ commit: string; tree: string; blobs: Map<string, string> }>;
  /** How many commits a range holds (one `rev-list --count`). */
  countCommits(key: RepoKey, options: CommitRangeOptions): Promise<number>;
  /** A page of a range, newest first, in one pass (one `git log`); rejects when an id is unknown. */
  listCommits(key: RepoKey, options: CommitListOptions): Promise<GitCommit[]>;
  /** A commit's diff against its first parent (`diff`) or its mail-formatted patch (`patch`); `commit` is a full id. */
  commitDiff(key: RepoKey, commit: string, format: 'diff' | 'patch'): Promise<Buffer>;
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
  /** Writes an annotated tag object (not its ref) and returns its id. */
  writeAnnotatedTag(key: RepoKey, options: AnnotatedTagOptions): Promise<string>;
  /** True when commit `ancestor` is reachable from commit `descendant` (both full ids). */
  isAncestor(key: RepoKey, ancestor: string, descendant: string): Promise<boolean>;
  /**
   * Makes `to` a fork of `from`: a new repository with `from`'s branches, tags and objects, sharing the object
   * files on disk; it outlives `from`'s deletion or move. Fails with RepositoryExistsError when `to` exists.
   */
  fork(from: RepoKey, to: RepoKey, options: { objectFormat: ObjectFormat; defaultBranch: string }): Promise<void>;
  /** Pushes branches and tags to a push mirror's remote, forced (native only: remote git). */
  pushMirror(key: RepoKey, request: MirrorPushRequest): Promise<void>;
  /** The best common ancestor of two commits; undefined when their histories are unrelated. */
  mergeBase(key: RepoKey, a: string, b: string): Promise<string | undefined>;
  /** Merges `theirs` into `ours` without a worktree: the resulting tree and the conflicting paths. */
  mergeTree(key: RepoKey, ours: string, theirs: string): Promise<MergeTreeResult>;
  /** The files that differ between two commits, with line counts. */
  changedFiles(key: RepoKey, base: string, head: string, options?: { ignoreWhitespace?: string }): Promise<ChangedFileEntry[]>;
  /** `head`'s changes since `base`: one diff, or one patch per commit. */
  diffRange(key: RepoKey, base: string, head: string, format: 'diff' | 'patch', binary: boolean): Promise<Buffer>;
  /** Each path's unified diff between two commits, from one process cut at `maxBytes` (review comments quote hunks). */
  fileDiffs(key: RepoKey, base: string, head: string, paths: readonly string[], maxBytes: number): Promise<Map<string, string>>;
  /** Points `ref` at `commit` unconditionally. */
  storeCommitRef(key: RepoKey, ref: string, commit: string): Promise<void>;
  /** Writes a commit of `tree` with `parents` (git commit-tree) and returns its id; no ref moves. */
  commitTree(key: RepoKey, options: CommitTreeOptions): Promise<string>;
  /** Replays `head`'s commits onto `onto` in scratch space and brings the new commits into `key`; no ref moves. */
  rebaseCommits(key: RepoKey, options: RebaseOptions): Promise<RebaseResult>;
  /** Brings commit `id` and its history from `from` into `to` without writing a ref. */
  copyCommit(from: RepoKey, to: RepoKey, id: string): Promise<void>;
  /**
   * Reads objects of a push in progress: `quarantine` is the pre-receive hook's environment (its object-directory
   * variables are used, nothing else); empty, it reads the repository as it is.
   */
  incoming(key: RepoKey, quarantine: Record<string, string>): IncomingObjects;
  /** What a remote repository's HEAD names and its object format (`git ls-remote`), within the remote's time. */
  remoteHead(remote: RemoteGitAccess): Promise<RemoteHead>;
  /** Fetches from a remote into the repository with the given refspecs (`git fetch`), within the remote's time. */
  fetchRemote(key: RepoKey, remote: RemoteGitAccess, options: FetchRemoteOptions): Promise<void>;
  /** Housekeeping (cron tasks): `fsck` checks a repository's objects, `gc` packs them; never throws for a failed run. */
  maintain(key: RepoKey, command: 'fsck' | 'gc', options: MaintenanceOptions): Promise<MaintenanceResult>;
  /** Writes the server hooks pushes run again (`resync_all_hooks`), restoring any that were removed or changed. */
  syncHooks(): Promise<void>;
}

export interface MaintenanceOptions {
  /** Extra options (`[cron.*] ARGS`); anything not starting with `-` is dropped. */
  args: readonly string[];
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface MaintenanceResult {
  ok: boolean;
  /** What git said (shortened), or why it was stopped. */
  output: string;
}
