/**
 * Git storage in memory: bare repositories on a memfs file system owned by one backend instance, read and written
 * through isomorphic-git. Nothing is shared between instances, nothing touches the disk, no process is started.
 * What it cannot do is listed in `git/unsupported.ts`, marked `Unsupported` on its type, and throws `NotSupportedError`.
 */
import { cleanCommitMessage, parseGitmodules } from '../text.js';
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import {
  BranchMovedError,
  FULL_HEX_ID,
  OwnerStorageExistsError,
  RefConflictError,
  RepositoryExistsError,
  type AnnotatedTagOptions,
  type ChangeFilesCommit,
  type ChangedFileEntry,
  type CommitFilesOptions,
  type CommitListOptions,
  type CommitLogOptions,
  type CommitRangeOptions,
  type ContentsEntry,
  type ContentsRead,
  type GitBackend,
  type GitCommit,
  type GitHistory,
  type GitMerge,
  type GitObjects,
  type GitRefs,
  type GitStorage,
  type GitTransfer,
  type GitWrites,
  type GitObjectData,
  type GitObjectInfo,
  type GitRefEntry,
  type GitTreeEntry,
  type GitService,
  type RunServiceOptions,
  type ServiceOptions,
  type ServiceSession,
  type IncomingObjects,
  type LoggedCommit,
  type MergeTreeResult,
  type ObjectFormat,
  type ReadContentsOptions,
  type ReadObjectOptions,
  type ReadTreeOptions,
  type ReadTreeResult,
  type RefCommitInfo,
  type RefDetail,
  type RefKind,
  type RefUpdate,
  type RepoKey,
  type StoredRepository,
  type TreeEntryInfo,
  type TreeFile,
  type Unsupported,
  UNSUPPORTED,
} from '../backend.js';
import type { CommitTreeOptions } from '../merge-types.js';
import { isSafeRevision } from '../native-objects.js';
import { MEMORY_UNSUPPORTED, notSupported, type MemoryUnsupported } from '../unsupported.js';
import { pktLine } from '../pkt-line.js';
import { GitProtocolError, V2_ADVERTISEMENT, advertiseUploadPackV0, serveUploadPackV0, serveUploadPackV2 } from './upload-pack.js';
import { advertiseReceivePack, serveReceivePack } from './receive-pack.js';
import { loadMemoryLibs, type MemoryFs, type MemoryLibs } from './libs.js';
import { MemoryRepository, ZERO_ID, isValidRefName } from './repository.js';
import { changeCounts, diffTrees, mergeBases, reachable, walk, type WalkOptions } from './history.js';
import {
  identityOf,
  isoStrict,
  parseCommit,
  parseTag,
  parseTree,
  serializeCommit,
  serializeTag,
  serializeTree,
  treeEntryType,
  type ParsedCommit,
  type RawObject,
  type TreeItem,
} from './objects.js';
import { BoundedMap } from '../../bounded-map.js';
import { trimEnd } from '../../text.js';

/** Commits and trees a backend keeps parsed-ready (a few hundred bytes each): history walks read them again and again. */
const OBJECT_CACHE_ENTRIES = 4096;
/** Bytes `readObject` keeps of an object when the caller sets no limit (as the native backend). */
const DEFAULT_MAX_OBJECT_BYTES = 16 * 1024 * 1024;
/** Bytes of a symbolic link's target shown, as Forgejo reads it. */
const SYMLINK_TARGET_BYTES = 1024;
const REF_PREFIX: Record<RefKind, string> = { branches: 'refs/heads/', tags: 'refs/tags/' };

/** A ref name `for-each-ref` may be given (the native backend's rule, so both refuse the same names). */
function isPlainRefName(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  return name !== '' && !name.startsWith('-') && !/[\x00-\x20\x7f*?[\\]/.test(name);
}

function isZero(id: string): boolean {
  return /^0+$/.test(id);
}

/** Path parts of a repository key, checked as the native backend checks them (a second fence after core's). */
function keyParts(key: RepoKey): [string, string] {
  for (const part of [key.owner, key.name]) {
    if (!part || part.includes('/') || part.includes('\\') || part === '.' || part === '..' || part.includes('\0')) {
      throw new Error(`invalid repository key part: ${JSON.stringify(part)}`);
    }
  }
  // No owner name starts with a dot (the native backend keeps its own folders so).
  if (key.owner.startsWith('.')) throw new Error(`invalid owner name: ${JSON.stringify(key.owner)}`);
  return [key.owner, key.name];
}

function gitdirOf(key: RepoKey): string {
  const [owner, name] = keyParts(key);
  return `/${owner}/${name}.git`;
}

function errorCode(error: unknown): string | undefined {
  return (error as { code?: string }).code;
}

const CONFIG = '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n';

/** One file of a change set, as the tree builder takes it (no content: the path goes). */
interface TreeEdit {
  parts: string[];
  item?: TreeItem;
}

/**
 * What the memory backend does not provide, by type: the capabilities of `git/unsupported.ts`, each method there
 * (added to the prototype below) and failing with `NotSupportedError`. With them it is a whole `GitBackend`.
 */
export interface MemoryGitBackend extends Unsupported<MemoryUnsupported> {}

/** The capabilities the memory backend provides (a few methods not for every input: `MEMORY_PARTIAL`). */
export class MemoryGitBackend implements GitStorage, GitObjects, GitRefs, GitHistory, GitTransfer, GitWrites, GitMerge {
  /** The libraries and this backend's own file system, made on first use. */
  private state: Promise<{ libs: MemoryLibs; fs: MemoryFs }> | undefined;
  /** isomorphic-git's cache of parsed packs, for this backend only. */
  private readonly cache: object = {};
  /** Commits and trees read, for this backend only; emptied when a repository goes or moves. */
  private readonly objects = new BoundedMap<string, RawObject>(OBJECT_CACHE_ENTRIES);
  /** Ref updates of one repository run one after the other, so a check of the old value and the write are one step. */
  private readonly refLocks = new Map<string, Promise<unknown>>();

  private ready(): Promise<{ libs: MemoryLibs; fs: MemoryFs }> {
    return (this.state ??= loadMemoryLibs().then((libs) => ({ libs, fs: libs.newFs() })));
  }

  private async open(key: RepoKey): Promise<MemoryRepository> {
    const gitdir = gitdirOf(key);
    const { libs, fs } = await this.ready();
    return new MemoryRepository(libs, fs, gitdir, this.cache, this.objects);
  }

  /** The repository, which must exist (git fails on a missing repository too). */
  private async repo(key: RepoKey): Promise<MemoryRepository> {
    const repo = await this.open(key);
    if (!(await this.isDirectory(repo.fs, repo.gitdir))) throw new Error(`not a git repository: ${key.owner}/${key.name}`);
    return repo;
  }

  private async isDirectory(fs: MemoryFs, path: string): Promise<boolean> {
    try {
      return (await fs.promises.stat(path)).isDirectory();
    } catch {
      return false;
    }
  }

  private async withRefLock<T>(key: RepoKey, work: () => Promise<T>): Promise<T> {
    const lockKey = gitdirOf(key);
    const previous = this.refLocks.get(lockKey) ?? Promise.resolve();
    const run = previous.then(work, work);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.refLocks.set(lockKey, settled);
    void settled.then(() => {
      if (this.refLocks.get(lockKey) === settled) this.refLocks.delete(lockKey);
    });
    return run;
  }

  /** Moves `ref` from `expected` (all-zero or absent: must not exist) to `id`; false, changing nothing, when it moved. */
  private async compareAndSet(key: RepoKey, repo: MemoryRepository, ref: string, id: string, expected: string | undefined): Promise<boolean> {
    return this.withRefLock(key, async () => {
      const current = await repo.resolveRef(ref);
      const wanted = expected === undefined || isZero(expected) ? undefined : expected;
      if (current !== wanted || (current === undefined && (await repo.clashes(ref)))) return false;
      await repo.writeRef(ref, id);
      return true;
    });
  }

  async create(key: RepoKey, options: { objectFormat: ObjectFormat; defaultBranch: string }): Promise<void> {
    if (options.objectFormat !== 'sha1') throw notSupported('create', `${options.objectFormat} repositories`);
    const repo = await this.open(key);
    const { fs } = repo;
    await fs.promises.mkdir(repo.gitdir.slice(0, repo.gitdir.lastIndexOf('/')), { recursive: true });
    try {
      // Not recursive: fails if the folder exists, which keeps two creators apart.
      await fs.promises.mkdir(repo.gitdir);
    } catch (error) {
      if (errorCode(error) === 'EEXIST') throw new RepositoryExistsError(key);
      throw error;
    }
    for (const folder of ['objects', 'objects/info', 'objects/pack', 'refs', 'refs/heads', 'refs/tags', 'info']) {
      await fs.promises.mkdir(`${repo.gitdir}/${folder}`);
    }
    await fs.promises.writeFile(`${repo.gitdir}/config`, CONFIG);
    await repo.setHead(options.defaultBranch);
  }

  async exists(key: RepoKey): Promise<boolean> {
    const repo = await this.open(key);
    return this.isDirectory(repo.fs, repo.gitdir);
  }

  async remove(key: RepoKey): Promise<void> {
    const repo = await this.open(key);
    // One step on the memory file system: never half there.
    await repo.fs.promises.rm(repo.gitdir, { recursive: true, force: true });
    this.objects.clear();
  }

  async list(): Promise<RepoKey[]> {
    const { fs } = await this.ready();
    const keys: RepoKey[] = [];
    for (const owner of await readdirOrEmpty(fs, '/')) {
      if (owner.startsWith('.') || !(await this.isDirectory(fs, `/${owner}`))) continue;
      for (const entry of await readdirOrEmpty(fs, `/${owner}`)) {
        if (entry.endsWith('.git') && entry.length > 4 && (await this.isDirectory(fs, `/${owner}/${entry}`))) keys.push({ owner, name: entry.slice(0, -4) });
      }
    }
    return keys;
  }

  async describe(key: RepoKey): Promise<StoredRepository> {
    const repo = await this.repo(key);
    return { objectFormat: 'sha1', headBranch: await repo.headBranch() };
  }

  async collectGarbage(): Promise<void> {
    // Removals and renames are single steps here: nothing is ever left behind.
  }

  async commitFiles(key: RepoKey, options: CommitFilesOptions): Promise<string> {
    const repo = await this.repo(key);
    const edits: TreeEdit[] = [];
    for (const file of options.files) {
      const parts = file.path.split('/').filter((p) => p !== '');
      if (parts.length === 0 || parts.some((p) => p === '.' || p === '..' || p === '.git')) throw new Error(`invalid file path in commit: ${file.path}`);
      const id = await repo.write('blob', Buffer.from(file.content));
      edits.push({ parts, item: { mode: '100644', name: parts.at(-1)!, id } });
    }
    const tree = await this.editTree(repo, undefined, edits);
    const now = new Date();
    const id = await repo.write(
      'commit',
      serializeCommit({
        tree,
        parents: [],
        author: identityOf(options.author, now),
        committer: identityOf(options.committer ?? options.author, now),
        message: options.message,
      }),
    );
    if (!(await this.compareAndSet(key, repo, `refs/heads/${options.branch}`, id, options.expectedOldId))) {
      throw new RefConflictError(`refs/heads/${options.branch} is not at ${options.expectedOldId ?? ZERO_ID}`);
    }
    return id;
  }

  /** Writes the trees of `base` (undefined: empty) with the edits applied, in order; returns the root tree's id. */
  private async editTree(repo: MemoryRepository, base: string | undefined, edits: readonly TreeEdit[]): Promise<string> {
    const items = new Map(((base ? await repo.tree(base) : undefined) ?? []).map((item) => [item.name, item]));
    const below = new Map<string, TreeEdit[]>();
    for (const edit of edits) {
      const [first, ...rest] = edit.parts;
      if (rest.length === 0) {
        below.delete(first!);
        if (edit.item) items.set(first!, edit.item);
        else items.delete(first!);
      } else {
        let list = below.get(first!);
        if (!list) below.set(first!, (list = []));
        list.push({ parts: rest, item: edit.item });
      }
    }
    for (const [name, list] of below) {
      const existing = items.get(name);
      const subtree = await this.editTree(repo, existing?.mode === '040000' ? existing.id : undefined, list);
      // A folder left empty goes, as git's index would drop it.
      if ((await repo.tree(subtree))?.length === 0) items.delete(name);
      else items.set(name, { mode: '040000', name, id: subtree });
    }
    return repo.write('tree', serializeTree([...items.values()]));
  }

  async setDefaultBranch(key: RepoKey, branch: string): Promise<void> {
    if (!isValidRefName(`refs/heads/${branch}`)) throw new Error(`invalid branch name: ${branch}`);
    await (await this.repo(key)).setHead(branch);
  }

  async readRefs(key: RepoKey, refs: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (refs.length === 0) return found;
    const repo = await this.repo(key);
    for (const ref of new Set(refs)) {
      const id = ref.startsWith('refs/') ? await repo.resolveRef(ref) : undefined;
      if (id) found.set(ref, id);
    }
    return found;
  }

  async isEmpty(key: RepoKey): Promise<boolean> {
    return (await this.firstBranch(key)) === undefined;
  }

  async firstBranch(key: RepoKey): Promise<string | undefined> {
    const first = (await (await this.repo(key)).refs()).find((r) => r.ref.startsWith('refs/heads/'));
    return first?.ref.slice('refs/heads/'.length);
  }

  /** Bytes of the object files (loose and packed), as stored. */
  async size(key: RepoKey): Promise<number> {
    const repo = await this.repo(key);
    let total = 0;
    const visit = async (path: string): Promise<void> => {
      for (const name of await readdirOrEmpty(repo.fs, path)) {
        const child = `${path}/${name}`;
        const stat = await repo.fs.promises.stat(child);
        if (stat.isDirectory()) await visit(child);
        else total += stat.size;
      }
    };
    await visit(`${repo.gitdir}/objects`);
    return total;
  }

  async advertiseRefs(key: RepoKey, service: GitService, options: ServiceOptions): Promise<Buffer> {
    const repo = await this.repo(key);
    // Pushes speak protocol v0 whatever the client offers, as git's receive-pack does.
    if (service === 'receive-pack') return advertiseReceivePack(repo);
    return isProtocolV2(options.protocol) ? V2_ADVERTISEMENT : advertiseUploadPackV0(repo);
  }

  runService(key: RepoKey, service: GitService, options: RunServiceOptions): ServiceSession {
    if (!options.stateless) throw notSupported('runService', `${service} over a stream`);
    const output = new PassThrough();
    let applied: RefUpdate[] = [];
    const done = (async (): Promise<RefUpdate[]> => {
      const request = await readAll(options.input, options.signal);
      const repo = await this.repo(key);
      let answer: Buffer[];
      if (service === 'upload-pack') answer = isProtocolV2(options.protocol) ? await serveUploadPackV2(repo, request) : await serveUploadPackV0(repo, request);
      else {
        const received = await serveReceivePack({ repo, moveRef: (update) => this.moveRef(key, repo, update) }, request, options).catch((error: unknown) => {
          // A request that cannot be read (a pkt-line longer than the body) is refused before any ref moves: answered
          // with git's `ERR` line as a finished push that changed nothing, so the response is not cut off.
          if (error instanceof GitProtocolError) return { output: pktLine(`ERR ${error.message}\n`), applied: [] };
          throw error;
        });
        applied = received.applied;
        answer = [received.output];
      }
      for (const chunk of answer) {
        if (options.signal?.aborted) throw new Error('git upload-pack stopped: the client went away');
        if (!output.write(chunk)) await once(output, 'drain', { signal: options.signal });
      }
      output.end();
      return applied;
    })();
    done.catch((error: unknown) => {
      // git reads an `ERR` line as the server's refusal; a client that went away hears nothing.
      if (error instanceof GitProtocolError && !output.writableEnded) output.end(pktLine(`ERR ${error.message}\n`));
      else output.destroy();
    });
    return { output, done };
  }

  /** One ref of a push, moved only from the value the client saw. */
  private moveRef(key: RepoKey, repo: MemoryRepository, update: RefUpdate): Promise<boolean> {
    return this.withRefLock(key, async () => {
      const current = await repo.resolveRef(update.ref);
      if (current !== (isZero(update.oldId) ? undefined : update.oldId)) return false;
      if (current === undefined && (await repo.clashes(update.ref))) return false;
      if (isZero(update.newId)) await repo.deleteRef(update.ref);
      else await repo.writeRef(update.ref, update.newId);
      return true;
    });
  }

  async resolveCommit(key: RepoKey, revision: string): Promise<string | undefined> {
    if (revision === '' || revision.startsWith('-') || !isSafeRevision(revision)) return undefined;
    return (await (await this.repo(key)).resolve(`${revision}^{commit}`))?.id;
  }

  async commitLog(key: RepoKey, options: CommitLogOptions): Promise<{ commits: LoggedCommit[]; count: number }> {
    const { head, exclude, detailed, countLimit } = options;
    if (!FULL_HEX_ID.test(head) || (exclude !== undefined && !FULL_HEX_ID.test(exclude))) throw new Error('commitLog takes full commit ids');
    const repo = await this.repo(key);
    const peeled = await repo.peelTo(head, 'commit');
    if (!peeled) throw new Error(`bad revision ${head}`);
    if (exclude !== undefined && !(await repo.peelTo(exclude, 'commit'))) throw new Error(`bad revision ${exclude}`);
    const commits: LoggedCommit[] = [];
    let count = 0;
    const limit = Math.max(1, countLimit);
    for await (const { id, commit } of walk(repo, { heads: [peeled.id], exclude: exclude === undefined ? undefined : [exclude] })) {
      if (count < detailed) {
        commits.push({
          id,
          parents: commit.parents,
          message: commit.message,
          authorName: commit.author.name,
          authorEmail: commit.author.email,
          authorTime: isoStrict(commit.author),
          committerName: commit.committer.name,
          committerEmail: commit.committer.email,
        });
      }
      count++;
      if (count >= limit) break;
    }
    return { commits, count };
  }

  async listFiles(key: RepoKey, commit: string): Promise<TreeFile[]> {
    const repo = await this.repo(key);
    const root = await repo.peelTo(commit, 'tree');
    if (!root) throw new Error(`not a tree: ${commit}`);
    const files: TreeFile[] = [];
    const visit = async (tree: string, prefix: string): Promise<void> => {
      for (const item of (await repo.tree(tree)) ?? []) {
        if (item.mode === '040000') await visit(item.id, `${prefix}${item.name}/`);
        else if (item.mode !== '120000' && item.mode !== '160000') {
          files.push({ path: prefix + item.name, size: (await repo.read(item.id))?.content.length ?? 0 });
        }
      }
    };
    await visit(root.id, '');
    return files;
  }

  async rename(from: RepoKey, to: RepoKey): Promise<void> {
    const source = gitdirOf(from);
    const target = gitdirOf(to);
    if (source === target) return;
    const { fs } = await this.ready();
    if (!(await this.isDirectory(fs, source))) throw Object.assign(new Error(`no repository at ${from.owner}/${from.name}`), { code: 'ENOENT' });
    if (await this.exists(to)) throw new RepositoryExistsError(to);
    await fs.promises.mkdir(target.slice(0, target.lastIndexOf('/')), { recursive: true });
    await fs.promises.rename(source, target);
    this.objects.clear();
  }

  async renameOwner(from: string, to: string): Promise<boolean> {
    const { fs } = await this.ready();
    const source = `/${keyParts({ owner: from, name: 'x' })[0]}`;
    const target = `/${keyParts({ owner: to, name: 'x' })[0]}`;
    if (source === target) return false;
    const held = await readdirOrEmpty(fs, target);
    if (!(await this.isDirectory(fs, source))) {
      // Nothing to move; still refuse a place that holds someone's files, so a repair never takes them.
      if (held.length > 0) throw new OwnerStorageExistsError(to);
      return false;
    }
    if (held.length > 0) throw new OwnerStorageExistsError(to);
    // An empty place is taken over.
    await fs.promises.rm(target, { recursive: true, force: true });
    await fs.promises.rename(source, target);
    this.objects.clear();
    return true;
  }

  async readObject(key: RepoKey, revision: string, options: ReadObjectOptions = {}): Promise<GitObjectData | undefined> {
    if (!isSafeRevision(revision)) return undefined;
    const found = await (await this.repo(key)).resolve(revision);
    if (!found) return undefined;
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_OBJECT_BYTES;
    const { content } = found.object;
    const truncated = content.length > maxBytes;
    return { id: found.id, type: found.object.type, size: content.length, content: truncated ? content.subarray(0, maxBytes) : content, truncated };
  }

  async readObjects(key: RepoKey, revisions: readonly string[], options: ReadObjectOptions = {}): Promise<(GitObjectData | undefined)[]> {
    const found: (GitObjectData | undefined)[] = [];
    for (const revision of revisions) found.push(await this.readObject(key, revision, options));
    return found;
  }

  async resolveRevision(key: RepoKey, revision: string): Promise<GitObjectInfo | undefined> {
    if (!isSafeRevision(revision)) return undefined;
    const found = await (await this.repo(key)).resolve(revision);
    return found && { id: found.id, type: found.object.type, size: found.object.content.length };
  }

  async readTree(key: RepoKey, treeish: string, options: ReadTreeOptions = {}): Promise<ReadTreeResult | undefined> {
    if (!isSafeRevision(treeish)) return undefined;
    const repo = await this.repo(key);
    // `<rev>:<path>` names a tree already; a suffix there would be read as part of the path.
    const root = await repo.resolve(treeish.includes(':') ? treeish : `${treeish}^{tree}`);
    if (!root || root.object.type !== 'tree') return undefined;
    const all: GitTreeEntry[] = [];
    const visit = async (tree: string, prefix: string): Promise<void> => {
      for (const item of (await repo.tree(tree)) ?? []) {
        const entry: GitTreeEntry = { mode: item.mode, type: treeEntryType(item.mode), id: item.id, path: prefix + item.name, size: 0 };
        all.push(entry);
        if (options.recursive && entry.type === 'tree') await visit(item.id, `${entry.path}/`);
      }
    };
    await visit(root.id, '');
    const start = Math.max(0, options.offset ?? 0);
    const end = options.limit === undefined ? all.length : Math.min(all.length, start + Math.max(0, options.limit));
    const page = all.slice(start, end);
    if (options.sizes !== false) {
      for (const entry of page) if (entry.type === 'blob') entry.size = (await repo.read(entry.id))?.content.length ?? 0;
    }
    return { id: root.id, entries: page, total: all.length };
  }

  async listRefs(key: RepoKey, prefix: string): Promise<GitRefEntry[]> {
    // eslint-disable-next-line no-control-regex
    if (/[\x00-\x1f\x7f]/.test(prefix)) return [];
    const repo = await this.repo(key);
    const refs: GitRefEntry[] = [];
    for (const { ref, id } of await repo.refs()) {
      if (!ref.startsWith(prefix)) continue;
      const object = await repo.read(id);
      if (object) refs.push({ ref, id, type: object.type });
    }
    return refs;
  }

  openBlob(key: RepoKey, id: string): Readable {
    if (!FULL_HEX_ID.test(id)) throw new Error('openBlob takes a full blob id');
    const backend = this;
    return Readable.from(
      (async function* () {
        const found = await (await backend.repo(key)).read(id);
        if (found?.type !== 'blob') throw new Error(`no blob ${id}`);
        yield found.content;
      })(),
      { objectMode: false },
    );
  }

  close(): void {
    // No process or handle to stop: the repositories live as long as this backend.
  }

  async readContents(key: RepoKey, options: ReadContentsOptions): Promise<ContentsRead | undefined> {
    const { commit, path: treePath, maxBlobSize } = options;
    if (!FULL_HEX_ID.test(commit)) throw new Error('readContents takes a full commit id');
    const repo = await this.repo(key);
    const root = await repo.peelTo(commit, 'tree');
    if (!root) return undefined;
    const found = await repo.entryAt(root.id, treePath);
    if (!found) return undefined;
    let submodules: Map<string, string> | undefined;
    const describe = async (item: TreeItem, path: string, withContent: boolean): Promise<ContentsEntry> => {
      const type = treeEntryType(item.mode);
      const blob = type === 'blob' ? await repo.read(item.id) : undefined;
      const entry: ContentsEntry = { name: path === '' ? '' : path.slice(path.lastIndexOf('/') + 1), path, mode: item.mode, type, id: item.id, size: blob?.content.length ?? 0 };
      if (item.mode === '120000') entry.target = blob ? blob.content.subarray(0, SYMLINK_TARGET_BYTES).toString('utf8') : '';
      else if (type === 'commit') {
        if (!submodules) {
          const file = await repo.entryAt(root.id, '.gitmodules');
          const text = file && file.mode !== '040000' ? (await repo.read(file.id))?.content.toString('utf8') : undefined;
          submodules = parseGitmodules(text ?? '');
        }
        entry.submoduleUrl = submodules.get(path);
      } else if (blob && withContent) entry.content = entry.size <= maxBlobSize ? blob.content : undefined;
      return entry;
    };
    const entry = await describe(found, treePath, true);
    if (found.mode !== '040000') {
      entry.lastCommit = await this.lastCommitOf(key, commit, treePath);
      return { entry };
    }
    const prefix = treePath === '' ? '' : `${treePath}/`;
    const children: ContentsEntry[] = [];
    for (const item of (await repo.tree(found.id)) ?? []) children.push(await describe(item, prefix + item.name, false));
    const last = await this.lastCommitsOfChildren(repo, commit, treePath, children.map((c) => c.path));
    for (const child of children) child.lastCommit = last.get(child.path);
    return { entry, children };
  }

  /**
   * The newest commit that changed each entry of a folder: one walk over the folder's history (as `git log
   * --name-only -- <folder>`: merges show no changes), stopped once every entry has its commit.
   */
  private async lastCommitsOfChildren(repo: MemoryRepository, commit: string, folder: string, paths: readonly string[]): Promise<Map<string, { id: string; when: string; authorWhen: string }>> {
    const found = new Map<string, { id: string; when: string; authorWhen: string }>();
    const remaining = new Set(paths);
    if (remaining.size === 0) return found;
    for await (const { id, commit: parsed } of walk(repo, { heads: [commit], path: folder === '' ? undefined : folder })) {
      if (parsed.parents.length > 1) continue;
      const parent = parsed.parents[0] ? await repo.commit(parsed.parents[0]) : undefined;
      for (const path of [...remaining]) {
        const mine = (await repo.entryAt(parsed.tree, path))?.id;
        const theirs = parent ? (await repo.entryAt(parent.tree, path))?.id : undefined;
        if (mine !== theirs) {
          remaining.delete(path);
          found.set(path, { id, when: isoStrict(parsed.committer), authorWhen: isoStrict(parsed.author) });
        }
      }
      if (remaining.size === 0) break;
    }
    return found;
  }

  async lastCommitOf(key: RepoKey, commit: string, path: string): Promise<{ id: string; when: string; authorWhen: string } | undefined> {
    if (!FULL_HEX_ID.test(commit)) throw new Error('lastCommitOf takes a full commit id');
    const repo = await this.repo(key);
    for await (const { id, commit: parsed } of walk(repo, { heads: [commit], path: path === '' ? undefined : path })) {
      return { id, when: isoStrict(parsed.committer), authorWhen: isoStrict(parsed.author) };
    }
    return undefined;
  }

  async statPaths(key: RepoKey, commit: string, paths: readonly string[]): Promise<Map<string, TreeEntryInfo>> {
    if (!FULL_HEX_ID.test(commit)) throw new Error('statPaths takes a full commit id');
    const repo = await this.repo(key);
    const found = new Map<string, TreeEntryInfo>();
    const root = await repo.peelTo(commit, 'tree');
    if (!root) return found;
    for (const path of paths) {
      const item = await repo.entryAt(root.id, path);
      if (!item) continue;
      const type = treeEntryType(item.mode);
      const size = type === 'blob' ? ((await repo.read(item.id))?.content.length ?? 0) : 0;
      found.set(path, { name: path === '' ? '' : path.slice(path.lastIndexOf('/') + 1), path, mode: item.mode, type, id: item.id, size });
    }
    return found;
  }

  async changeFiles(key: RepoKey, options: ChangeFilesCommit): Promise<{ commit: string; tree: string; blobs: Map<string, string> }> {
    if (options.objectFormat !== 'sha1') throw notSupported('changeFiles', `${options.objectFormat} repositories`);
    const repo = await this.repo(key);
    const blobs = new Map<string, string>();
    const edits: TreeEdit[] = [];
    for (const change of options.changes) {
      const parts = change.path.split('/');
      if (change.content === undefined) {
        edits.push({ parts });
        continue;
      }
      const id = await repo.write('blob', Buffer.from(change.content));
      blobs.set(change.path, id);
      edits.push({ parts, item: { mode: change.mode ?? '100644', name: parts.at(-1)!, id } });
    }
    const parent = options.parent ? await repo.commit(options.parent) : undefined;
    if (options.parent && !parent) throw new Error(`not a commit: ${options.parent}`);
    const tree = await this.editTree(repo, parent?.tree, edits);
    const now = new Date();
    const commit = await repo.write(
      'commit',
      serializeCommit({
        tree,
        parents: options.parent ? [options.parent] : [],
        author: identityOf(options.author, now),
        committer: identityOf(options.committer, now),
        message: options.message,
      }),
    );
    if (!(await this.compareAndSet(key, repo, options.ref ?? `refs/heads/${options.branch}`, commit, options.expectedOldId))) {
      throw new BranchMovedError(options.branch, `expected ${options.expectedOldId ?? ZERO_ID}`);
    }
    return { commit, tree, blobs };
  }

  private rangeWalk(options: CommitRangeOptions): WalkOptions {
    if (!FULL_HEX_ID.test(options.head) || (options.exclude !== undefined && !FULL_HEX_ID.test(options.exclude))) {
      throw new Error('commit ranges take full commit ids');
    }
    if (options.path !== undefined && (options.path === '' || options.path.includes('\0'))) throw new Error('invalid path filter');
    return {
      heads: [options.head],
      exclude: options.exclude === undefined ? undefined : [options.exclude],
      // A literal pathspec: a trailing slash names the same folder.
      path: options.path === undefined ? undefined : trimEnd(options.path, '/'),
      since: options.since && Math.floor(options.since.getTime() / 1000),
      until: options.until && Math.floor(options.until.getTime() / 1000),
    };
  }

  async countCommits(key: RepoKey, options: CommitRangeOptions): Promise<number> {
    const range = this.rangeWalk(options);
    const repo = await this.repo(key);
    let count = 0;
    for await (const _ of walk(repo, range)) count++;
    return count;
  }

  async listCommits(key: RepoKey, options: CommitListOptions): Promise<GitCommit[]> {
    // The native backend's `--diff-merges=first-parent` (for the changes) walks the full history of a path.
    const range = { ...this.rangeWalk(options), fullHistory: options.changes };
    const repo = await this.repo(key);
    const skip = Math.max(0, Math.floor(options.skip));
    const limit = Math.max(0, Math.floor(options.limit));
    const commits: GitCommit[] = [];
    if (limit === 0) return commits;
    let seen = 0;
    for await (const { id, commit } of walk(repo, range)) {
      if (seen++ < skip) continue;
      const listed: GitCommit = {
        id,
        tree: commit.tree,
        parents: commit.parents,
        authorName: commit.author.name,
        authorEmail: commit.author.email,
        authorTime: isoStrict(commit.author),
        committerName: commit.committer.name,
        committerEmail: commit.committer.email,
        committerTime: isoStrict(commit.committer),
        message: commit.message,
      };
      if (options.changes) {
        // Against the first parent, every file (even under a path filter), as Forgejo counts.
        const parent = commit.parents[0] ? await repo.commit(commit.parents[0]) : undefined;
        const changes = await diffTrees(repo, parent?.tree, commit.tree);
        listed.changes = await Promise.all(changes.map(async (change) => ({ path: change.path, status: change.status, ...(await changeCounts(repo, change)) })));
      }
      commits.push(listed);
      if (commits.length >= limit) break;
    }
    return commits;
  }

  async refDetails(key: RepoKey, kind: RefKind, select: { names: readonly string[] } | { offset: number; limit: number }): Promise<{ refs: RefDetail[]; total: number }> {
    const repo = await this.repo(key);
    const prefix = REF_PREFIX[kind];
    const all = new Map((await repo.refs()).filter((r) => r.ref.startsWith(prefix)).map((r) => [r.ref, r.id]));
    if ('names' in select) {
      const wanted = [...new Set(select.names.filter(isPlainRefName).map((n) => prefix + n))].filter((ref) => all.has(ref));
      const refs: RefDetail[] = [];
      for (const ref of wanted) {
        const detail = await this.refDetail(repo, ref, all.get(ref)!);
        if (detail) refs.push(detail);
      }
      return { refs, total: refs.length };
    }
    const details: RefDetail[] = [];
    for (const [ref, id] of all) {
      const detail = await this.refDetail(repo, ref, id);
      if (detail) details.push(detail);
    }
    // Forgejo's orders, as `for-each-ref` sorts them: branches by committer date, tags by their commit's date when
    // annotated (lightweight tags have none and come last), newest first; then by name.
    const sortTime = (detail: RefDetail): number => {
      const time = kind === 'branches' ? detail.commit?.committerTime : detail.tag ? detail.commit?.committerTime : undefined;
      return time ? Date.parse(time) : 0;
    };
    details.sort((a, b) => sortTime(b) - sortTime(a) || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
    return { refs: details.slice(select.offset, select.offset + select.limit), total: details.length };
  }

  private async refDetail(repo: MemoryRepository, ref: string, id: string): Promise<RefDetail | undefined> {
    const object = await repo.read(id);
    if (!object) return undefined;
    const detail: RefDetail = { ref, id, type: object.type };
    const commitInfo = (commitId: string, commit: ParsedCommit): RefCommitInfo => ({
      id: commitId,
      message: commit.message,
      authorName: commit.author.name,
      authorEmail: commit.author.email,
      authorTime: isoStrict(commit.author),
      committerName: commit.committer.name,
      committerEmail: commit.committer.email,
      committerTime: isoStrict(commit.committer),
    });
    if (object.type === 'commit') detail.commit = commitInfo(id, parseCommit(object.content));
    if (object.type === 'tag') {
      const tag = parseTag(object.content);
      const tagger = tag.tagger;
      detail.tag = {
        taggerName: tagger?.name ?? '',
        taggerEmail: tagger?.email ?? '',
        taggerTime: tagger ? isoStrict(tagger) : '',
        message: withoutSignature(tag.message),
      };
      // `%(*…)` peels once: a tag of a tag shows no commit.
      const target = await repo.read(tag.object);
      if (target?.type === 'commit') detail.commit = commitInfo(tag.object, parseCommit(target.content));
    }
    return detail;
  }

  async updateRefs(key: RepoKey, updates: readonly RefUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    for (const u of updates) {
      if (!u.ref.startsWith('refs/') || !isPlainRefName(u.ref) || !isValidRefName(u.ref) || !FULL_HEX_ID.test(u.newId) || !FULL_HEX_ID.test(u.oldId)) {
        throw new Error(`invalid ref update: ${JSON.stringify(u)}`);
      }
    }
    const repo = await this.repo(key);
    for (const u of updates) {
      if (!isZero(u.newId) && !(await repo.read(u.newId))) throw new Error(`ref update to a missing object: ${u.newId}`);
    }
    // One transaction: every ref is checked before any moves, with no other update of this repository in between.
    await this.withRefLock(key, async () => {
      const deleted = new Set(updates.filter((u) => isZero(u.newId)).map((u) => u.ref));
      for (const u of updates) {
        const current = await repo.resolveRef(u.ref);
        if (current !== (isZero(u.oldId) ? undefined : u.oldId)) throw new RefConflictError(`${u.ref} is at ${current ?? 'nothing'}, expected ${u.oldId}`);
        if (!isZero(u.newId) && current === undefined && (await repo.clashes(u.ref, deleted))) throw new RefConflictError(`${u.ref} clashes with an existing ref`);
      }
      for (const u of updates) {
        if (isZero(u.newId)) await repo.deleteRef(u.ref);
        else await repo.writeRef(u.ref, u.newId);
      }
    });
  }

  async writeAnnotatedTag(key: RepoKey, options: AnnotatedTagOptions): Promise<string> {
    if (!FULL_HEX_ID.test(options.target) || !isPlainRefName(options.name)) throw new Error('writeAnnotatedTag takes a full commit id and a valid name');
    const repo = await this.repo(key);
    if ((await repo.read(options.target))?.type !== 'commit') throw new Error(`not a commit: ${options.target}`);
    return repo.write(
      'tag',
      serializeTag({ object: options.target, type: 'commit', tag: options.name, tagger: identityOf(options.tagger, new Date()), message: cleanCommitMessage(options.message) }),
    );
  }

  async isAncestor(key: RepoKey, ancestor: string, descendant: string): Promise<boolean> {
    if (!FULL_HEX_ID.test(ancestor) || !FULL_HEX_ID.test(descendant)) throw new Error('isAncestor takes full commit ids');
    const repo = await this.repo(key);
    if (!(await repo.commit(ancestor)) || !(await repo.commit(descendant))) throw new Error('isAncestor: not a commit');
    return (await reachable(repo, [descendant])).has(ancestor);
  }

  async mergeBase(key: RepoKey, a: string, b: string): Promise<string | undefined> {
    if (!FULL_HEX_ID.test(a) || !FULL_HEX_ID.test(b)) throw new Error('mergeBase takes full commit ids');
    const repo = await this.repo(key);
    if (!(await repo.commit(a)) || !(await repo.commit(b))) throw new Error('mergeBase: not a commit');
    return (await mergeBases(repo, a, b))[0];
  }

  /**
   * Merges `theirs` into `ours` with isomorphic-git's merge (diff3 on files both sides changed), writing the
   * merged trees and blobs; no ref moves. A conflicted merge answers with the conflicting paths and ours'
   * tree (git would write one with conflict markers); histories with several merge bases are not merged here.
   */
  async mergeTree(key: RepoKey, ours: string, theirs: string): Promise<MergeTreeResult> {
    if (!FULL_HEX_ID.test(ours) || !FULL_HEX_ID.test(theirs)) throw new Error('mergeTree takes full commit ids');
    const repo = await this.repo(key);
    const [oursCommit, theirsCommit] = await Promise.all([repo.commit(ours), repo.commit(theirs)]);
    if (!oursCommit || !theirsCommit) throw new Error('mergeTree: not a commit');
    const bases = await mergeBases(repo, ours, theirs);
    if (bases.length === 0) return { conflicts: [], error: 'refusing to merge unrelated histories' };
    if (bases.includes(theirs)) return { tree: oursCommit.tree, conflicts: [] };
    if (bases.includes(ours)) return { tree: theirsCommit.tree, conflicts: [] };
    if (bases.length > 1) throw notSupported('mergeTree', 'histories with several merge bases');
    const { libs } = await this.ready();
    try {
      const merged = await libs.git.merge({
        fs: repo.fs.client,
        gitdir: repo.gitdir,
        ours,
        theirs,
        fastForward: false,
        // Not a dry run: that leaves the merged trees and blobs unwritten. The merge commit it also writes is
        // garbage no ref names (noUpdateBranch).
        noUpdateBranch: true,
        abortOnConflict: true,
        author: { name: 'RepoHost', email: 'repohost@localhost', timestamp: 0, timezoneOffset: 0 },
        cache: this.cache,
      });
      if (!merged.tree) throw new Error('isomorphic-git merged without a tree');
      return { tree: merged.tree, conflicts: [] };
    } catch (error) {
      const failure = error as { code?: string; data?: { filepaths?: unknown } };
      if (failure.code === 'MergeConflictError' && Array.isArray(failure.data?.filepaths)) {
        return { tree: oursCommit.tree, conflicts: [...new Set(failure.data.filepaths.map(String))] };
      }
      throw error;
    }
  }

  /** The files that differ between two commits, with line counts; renames found for identical content only. */
  async changedFiles(key: RepoKey, base: string, head: string, options: { ignoreWhitespace?: string } = {}): Promise<ChangedFileEntry[]> {
    if (options.ignoreWhitespace) throw notSupported('changedFiles', 'ignoreWhitespace');
    if (!FULL_HEX_ID.test(base) || !FULL_HEX_ID.test(head)) throw new Error('changedFiles takes full commit ids');
    const repo = await this.repo(key);
    const [from, to] = await Promise.all([repo.peelTo(base, 'tree'), repo.peelTo(head, 'tree')]);
    if (!from || !to) throw new Error('changedFiles: not a commit');
    const changes = await diffTrees(repo, from.id, to.id);
    const removedById = new Map<string, number>();
    changes.forEach((c, i) => {
      if (c.status === 'removed' && c.oldId && !removedById.has(c.oldId)) removedById.set(c.oldId, i);
    });
    const renamed = new Map<number, string>();
    const files: ChangedFileEntry[] = [];
    for (const change of changes) {
      const source = change.status === 'added' && change.newId ? removedById.get(change.newId) : undefined;
      if (source !== undefined && !renamed.has(source)) {
        renamed.set(source, change.path);
        files.push({ path: change.path, previousPath: changes[source]!.path, status: 'renamed', additions: 0, deletions: 0 });
        continue;
      }
      const counts = await changeCounts(repo, change);
      files.push({ path: change.path, status: change.status === 'removed' ? 'deleted' : change.status === 'added' ? 'added' : 'changed', ...counts });
    }
    const renamedFrom = new Set([...renamed.keys()].map((i) => changes[i]!.path));
    // git lists a rename once, at its new path, in path order.
    return files.filter((f) => f.status === 'renamed' || !(f.status === 'deleted' && renamedFrom.has(f.path))).sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  }

  async storeCommitRef(key: RepoKey, ref: string, commit: string): Promise<void> {
    if (!FULL_HEX_ID.test(commit)) throw new Error('storeCommitRef takes full commit ids');
    if (!/^refs\/[A-Za-z0-9._/-]+$/.test(ref) || ref.includes('..') || !isValidRefName(ref)) throw new Error(`invalid ref name: ${ref}`);
    const repo = await this.repo(key);
    if (!(await repo.read(commit))) throw new Error(`no object ${commit}`);
    await this.withRefLock(key, () => repo.writeRef(ref, commit));
  }

  async commitTree(key: RepoKey, options: CommitTreeOptions): Promise<string> {
    if (!FULL_HEX_ID.test(options.tree) || options.parents.some((p) => !FULL_HEX_ID.test(p))) throw new Error('commitTree takes full ids');
    const repo = await this.repo(key);
    if ((await repo.read(options.tree))?.type !== 'tree') throw new Error(`not a tree: ${options.tree}`);
    for (const parent of options.parents) if (!(await repo.commit(parent))) throw new Error(`not a commit: ${parent}`);
    const now = new Date();
    return repo.write(
      'commit',
      serializeCommit({
        tree: options.tree,
        parents: [...options.parents],
        author: identityOf(options.author, now),
        committer: identityOf(options.committer, now),
        message: cleanCommitMessage(options.message),
      }),
    );
  }

  /**
   * Copies what `roots` reach in `from` (commits and their history, trees, blobs, tags) that `to` lacks; a commit
   * `to` has is taken to come with its history, as git takes it.
   */
  private async copyObjects(from: MemoryRepository, to: MemoryRepository, roots: readonly string[]): Promise<void> {
    const seen = new Set<string>();
    const stack = [...roots];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      if (await to.has(id)) continue;
      const object = await from.read(id);
      if (!object) throw new Error(`object ${id} is missing from ${from.gitdir}`);
      if (object.type === 'commit') {
        const commit = parseCommit(object.content);
        stack.push(commit.tree, ...commit.parents);
      } else if (object.type === 'tree') {
        for (const item of parseTree(object.content)) if (item.mode !== '160000') stack.push(item.id);
      } else if (object.type === 'tag') stack.push(parseTag(object.content).object);
      await to.write(object.type, object.content);
    }
  }

  /** A new repository with `from`'s branches, tags and the objects they reach (copied: nothing is shared here). */
  async fork(from: RepoKey, to: RepoKey, options: { objectFormat: ObjectFormat; defaultBranch: string }): Promise<void> {
    const source = await this.repo(from);
    const refs = (await source.refs()).filter((r) => r.ref.startsWith('refs/heads/') || r.ref.startsWith('refs/tags/'));
    await this.create(to, options);
    try {
      const target = await this.repo(to);
      await this.copyObjects(source, target, refs.map((r) => r.id));
      for (const { ref, id } of refs) await target.writeRef(ref, id);
    } catch (error) {
      await this.remove(to);
      throw error;
    }
  }

  async copyCommit(from: RepoKey, to: RepoKey, id: string): Promise<void> {
    if (!FULL_HEX_ID.test(id)) throw new Error('copyCommit takes a full id');
    const [source, target] = await Promise.all([this.repo(from), this.repo(to)]);
    if (!(await source.commit(id)) && !(await target.commit(id))) throw new Error(`not a commit: ${id}`);
    await this.copyObjects(source, target, [id]);
  }

  async commitTreeOf(from: RepoKey, fromBranch: string, to: RepoKey, options: Omit<CommitFilesOptions, 'files' | 'expectedOldId'>): Promise<string | undefined> {
    const [source, target] = await Promise.all([this.repo(from), this.repo(to)]);
    const head = await source.resolveRef(`refs/heads/${fromBranch}`);
    const commit = head ? await source.commit(head) : undefined;
    if (!commit) return undefined;
    await this.copyObjects(source, target, [commit.tree]);
    const now = new Date();
    const id = await target.write(
      'commit',
      serializeCommit({
        tree: commit.tree,
        parents: [],
        author: identityOf(options.author, now),
        committer: identityOf(options.committer ?? options.author, now),
        message: options.message,
      }),
    );
    if (!(await this.compareAndSet(to, target, `refs/heads/${options.branch}`, id, undefined))) throw new RefConflictError(`refs/heads/${options.branch} exists`);
    return id;
  }

  /** A push here never has quarantined objects: what it reads is the repository as it is. */
  incoming(key: RepoKey, _quarantine: Record<string, string>): IncomingObjects {
    return {
      isAncestor: (ancestor, descendant) => this.isAncestor(key, ancestor, descendant),
      changedPaths: async (from, to, limit) => {
        const repo = await this.repo(key);
        const [a, b] = await Promise.all([from ? repo.peelTo(from, 'tree') : undefined, repo.peelTo(to, 'tree')]);
        if (!b || (from && !a)) throw new Error('changedPaths: not a commit');
        return (await diffTrees(repo, a?.id, b.id)).slice(0, limit).map((c) => c.path);
      },
      newCommits: async (from, to, limit) => {
        const repo = await this.repo(key);
        const exclude = from ? [from] : (await repo.refs()).map((r) => r.id);
        const found: { id: string; raw: Buffer }[] = [];
        for await (const { id } of walk(repo, { heads: [to], exclude })) {
          if (found.length >= limit) break;
          const raw = await repo.read(id);
          if (raw) found.push({ id, raw: raw.content });
        }
        return found;
      },
    };
  }
}

/** Compiles only when `B` is a whole `GitBackend`. */
type WholeBackend<B extends GitBackend> = B;
/** A capability added to `GitBackend` is implemented by the memory backend or marked unsupported in `git/unsupported.ts`. */
type MemoryIsWhole = WholeBackend<MemoryGitBackend>;

/**
 * The methods of `git/unsupported.ts`, each failing with the one error that names it (synchronous ones throw) and
 * carrying the `UNSUPPORTED` mark its type declares.
 */
const SYNCHRONOUS: ReadonlySet<string> = new Set<keyof GitBackend>(['runService', 'openBlob', 'incoming', 'close']);
for (const method of MEMORY_UNSUPPORTED) {
  const refuse = () => {
    const error = notSupported(method);
    if (SYNCHRONOUS.has(method)) throw error;
    return Promise.reject(error);
  };
  Object.defineProperty(MemoryGitBackend.prototype, method, {
    value: Object.assign(refuse, { [UNSUPPORTED]: true }),
    writable: true,
    configurable: true,
  });
}

function isProtocolV2(protocol: string | undefined): boolean {
  return protocol?.split(':').includes('version=2') ?? false;
}

/** A request body whole (smart HTTP's are small and capped by the server). */
async function readAll(input: Readable, signal: AbortSignal | undefined): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of input) {
    if (signal?.aborted) throw new Error('git upload-pack stopped: the client went away');
    parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(parts);
}

async function readdirOrEmpty(fs: MemoryFs, path: string): Promise<string[]> {
  try {
    return await fs.promises.readdir(path);
  } catch {
    return [];
  }
}

/** A tag's message without the signature git appends to it (Forgejo shows the two apart). */
function withoutSignature(contents: string): string {
  const at = contents.search(/-----BEGIN (?:PGP|SSH) SIGNATURE-----/);
  return at < 0 ? contents : contents.slice(0, at);
}

