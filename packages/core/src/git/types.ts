/**
 * The values git storage reads and writes: what `GitBackend`'s capabilities (`capabilities.ts`) take and return,
 * and the errors they raise. `backend.ts` exports all of it again, so callers import from there.
 */
import type { Readable } from 'node:stream';
import type { Socket } from 'node:net';

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
  /** receive-pack only: the repository's own hooks (`hooks/<name>.d/<name>`) run too (`[security] DISABLE_GIT_HOOKS = false`). */
  userHooks?: boolean;
  /**
   * A stateless upload-pack only, with its whole `input` at hand: git writes its answer to this connected socket
   * itself, with no copy through this process. A backend that cannot streams `output` as usual.
   */
  directOutput?: DirectOutput;
}

/** The client's connection, for git to write a fetch's answer to (see `RunServiceOptions.directOutput`). */
export interface DirectOutput {
  /** A plain TCP socket (not TLS): its descriptor becomes git's stdout. */
  socket: Socket;
  /**
   * Awaited once git has started and before it is given its input (git writes nothing before it has read a
   * request), so that what the caller sends first (a response's headers) reaches the socket before git's bytes.
   * A rejection stops git.
   */
  beforeOutput(): Promise<void>;
  /** git is stopped once it has written nothing for this long (the client reads nothing); 0: never. */
  idleTimeoutMs: number;
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
  /** The bytes to send back to the client (nothing when git wrote them to `directOutput` itself). */
  output: Readable;
  /** True when git writes its answer to `directOutput`'s socket: the caller's part ends when `done` settles. */
  direct?: boolean;
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
  /**
   * The caller read the id from a ref or a history walk just now, so the object exists: a small commit or tag may
   * then be answered from memory (an object's content never changes under its id). Without it, git is asked, so an
   * object pruned since is not found.
   */
  reachable?: boolean;
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
  /** The full ref moved instead of `refs/heads/<branch>` (git notes: `refs/notes/commits`). */
  ref?: string;
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

/** A unified diff applied to a commit's tree (`applyPatch`): the tree it gives, or why it gives none. */
export type AppliedPatch =
  | { tree: string; /** The paths whose entries differ from the base tree. */ paths: string[] }
  /** `conflict`: the patch does not apply to that tree; `invalid`: it is not a patch git reads. */
  | { refused: 'conflict' | 'invalid'; message: string };

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

export interface MaintenanceOptions {
  /** Extra options (`[cron.*] ARGS`); anything not starting with `-` is dropped. */
  args: readonly string[];
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The server-side hooks a repository may have (Forgejo's, git's receive hooks). */
export const GIT_HOOK_NAMES = ['pre-receive', 'update', 'post-receive'] as const;
export type GitHookName = (typeof GIT_HOOK_NAMES)[number];

/** One of a repository's own server-side hooks (`hooks/<name>.d/<name>`); inactive, with no content, when absent. */
export interface GitHookFile {
  name: GitHookName;
  active: boolean;
  content: string;
}

export interface MaintenanceResult {
  ok: boolean;
  /** What git said (shortened), or why it was stopped. */
  output: string;
}

/** One ref as `ls-refs` reports it. */
export interface ListedRef {
  name: string;
  id: string;
  /** The ref it points at when it is a symbolic ref. */
  symrefTarget?: string;
  /** The object an annotated tag peels to (not for other objects). */
  peeled?: string;
}

/** The refs of a repository for `ls-refs`: HEAD and every ref under refs/ the service shows, in byte order. */
export interface ListedRefs {
  /** The ref HEAD names (a repository served here always has a symbolic HEAD). */
  head: string;
  refs: ListedRef[];
}
