import type { Readable } from 'node:stream';

/** Identifies a repository to the backend: lower-cased owner and repository names. */
export interface RepoKey {
  readonly owner: string;
  readonly name: string;
}

/** Git object formats (hash functions), in Forgejo's order: the first is the default. */
export const OBJECT_FORMATS = ['sha1', 'sha256'] as const;
export type ObjectFormat = (typeof OBJECT_FORMATS)[number];
export const DEFAULT_OBJECT_FORMAT: ObjectFormat = OBJECT_FORMATS[0];

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
}
