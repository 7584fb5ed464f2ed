import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import {
  FULL_HEX_ID,
  OwnerStorageExistsError,
  RepositoryExistsError,
  type AppliedPatch,
  type ArchiveOptions,
  type ArchiveStream,
  type CommitFilesOptions,
  type CommitLogOptions,
  type CommitListOptions,
  type CommitRangeOptions,
  type GitCommit,
  type GitBackend,
  type LoggedCommit,
  type GitService,
  isObjectFormat,
  type ObjectFormat,
  type StoredRepository,
  type RefUpdate,
  type RepoKey,
  type RunServiceOptions,
  type ServiceOptions,
  type ServiceSession,
  type Signature,
  type TreeFile,
  type ChangeFilesCommit,
  type ContentsRead,
  type ReadContentsOptions,
  type TreeEntryInfo,
} from './backend.js';
import { ReceiveCommandReader } from './pkt-line.js';
import { HOOK_CLIENT_SCRIPT } from './native-hook-client.js';
import { incomingObjects } from './native-incoming.js';
import { commitDiff, countCommits, listCommits } from './native-commits.js';
import { RefListings, isAncestor, refDetails, updateRefs, writeAnnotatedTag } from './native-refs.js';
import { TransferRefListings } from './native-ls-refs.js';
import type { ListedRefs } from './types.js';
import { changedFiles, diffRange, mergeBase, mergeTree, storeCommitRef } from './native-pulls.js';
import { fileDiffs } from './native-reviews.js';
import type { ChangedFileEntry, MergeTreeResult } from './backend.js';
import type { AnnotatedTagOptions, RefDetail, RefKind } from './backend.js';
import { applyPatch, changeFiles, lastCommitOf, readContents, statPaths } from './native-contents.js';
import { forkRepository } from './native-forks.js';
import { pushMirror } from './native-push-mirror.js';
import { fetchFromRemote, readRemoteHead } from './native-remote.js';
import { smallBlobsWithPrefix } from './native-small-blobs.js';
import type { FetchRemoteOptions, RemoteGitAccess, RemoteHead } from './remote-types.js';
import type { MirrorPushRequest } from './push-mirror-types.js';
import { commitTree, copyCommit, rebaseCommits } from './native-merge.js';
import type { CommitTreeOptions, RebaseOptions, RebaseResult } from './merge-types.js';
import { ObjectReaderPool, isSafeRevision, readTree, streamBlob, listRefs, type ObjectReaderOptions } from './native-objects.js';
import type { GitObjectData, GitObjectInfo, GitRefEntry, IncomingObjects, ReadObjectOptions, ReadTreeOptions, ReadTreeResult } from './backend.js';
import type { MaintenanceOptions, MaintenanceResult } from './backend.js';
import { runMaintenance } from './native-maintenance.js';
import { USER_HOOKS, readRepoHooks, writeRepoHook } from './native-hooks.js';
import type { DirectOutput, GitHookFile, GitHookName } from './types.js';
import { gitCounters } from './stats.js';
import { gitSpawner, type GitProcess } from './native-spawner.js';
import { watchWrites, writesObservable } from './write-watch.js';

export interface NativeGitOptions {
  /** Folder holding `<owner>/<name>.git` bare repositories ([repository] ROOT). */
  root: string;
  /** The git binary. */
  gitPath?: string;
  /** Idle time and number of the long-lived object readers (`git/native-objects.ts`). */
  objectReaders?: ObjectReaderOptions;
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

/**
 * Refuses a push that deletes the branch HEAD names (git passes `<old> <new> <ref>` lines; a new id of zeros is a
 * deletion), and, when `REPOHOST_OVER_QUOTA` is set, every update that is not a deletion. When the server asked
 * for a push check (`REPOHOST_HOOK_ENDPOINT`, set only for repositories with protection rules), the whole input
 * then goes to the server through `push-check.cjs` (see `native-hook-client.ts`), which decides. The message
 * reaches the client as `remote: …`.
 */
const PRE_RECEIVE_CHECKS = `#!/bin/sh
# Only shell builtins until the server is asked: a push without protection rules starts no other process.
updates=
head=
while read -r old new ref; do
  updates="$updates$old $new $ref
"
  case "$new" in
    *[!0]*)
      # Set by the server for an owner over its quota: only deletions get through, as in Forgejo.
      if [ -n "$REPOHOST_OVER_QUOTA" ]; then
        echo "Quota exceeded" >&2
        exit 1
      fi
      ;;
    *)
      [ -n "$head" ] || head=$(git symbolic-ref -q HEAD)
      if [ "$ref" = "$head" ]; then
        echo "branch \${ref#refs/heads/} is the default branch and cannot be deleted" >&2
        exit 1
      fi
      ;;
  esac
done
if [ -n "$REPOHOST_HOOK_ENDPOINT" ]; then
  printf '%s' "$updates" | "$REPOHOST_NODE" "$REPOHOST_HOOK_CLIENT" || exit 1
fi
`;

/** RepoHost's checks, then (where repositories' own hooks may run) the repository's pre-receive hook. */
const PRE_RECEIVE_HOOK = `${PRE_RECEIVE_CHECKS}exit 0
`;
const PRE_RECEIVE_WITH_USER_HOOK = `${PRE_RECEIVE_CHECKS}if [ -x hooks/pre-receive.d/pre-receive ]; then
  printf '%s' "$updates" | hooks/pre-receive.d/pre-receive || exit 1
fi
exit 0
`;

/** What `git init --bare` writes, parents before children, to be written again for each new repository. */
interface RepositoryTemplate {
  folders: string[];
  files: { path: string; content: Buffer }[];
}

/** `commitLog`'s fields, each ended by NUL (`-z` ends each commit with one too): the message last. */
const LOG_FORMAT = '%H%x00%P%x00%an%x00%ae%x00%cn%x00%ce%x00%aI%x00%B';
const LOG_FIELDS = 8;
/** Bytes of one field `commitLog` keeps: a message is cut there. */
const LOG_FIELD_BYTES = 64 * 1024;
/** Bytes `readObject` keeps of an object when the caller sets no limit. */
const DEFAULT_MAX_OBJECT_BYTES = 16 * 1024 * 1024;

/**
 * util-linux's `setpriv`, when present: git is started through it with a parent-death signal, so a git process
 * dies with the server (kill -9 included) instead of finishing a push nobody will record. Started by the spawner's
 * helper, it dies with the helper, which ends as soon as the server has gone.
 */
const SETPRIV = process.platform === 'linux' && existsSync('/usr/bin/setpriv') ? '/usr/bin/setpriv' : undefined;

/**
 * Counts a git process as started and running (`/metrics`) once it has started, until it exits. One that could not
 * be started never says 'spawn' and is not counted (its 'error' is its callers' to handle). 'close' stands in for an
 * 'exit' that never came, and 'error' for both when the helper that started it has gone.
 */
function countRunning(child: GitProcess): void {
  child.once('spawn', () => {
    gitCounters.started += 1;
    gitCounters.running += 1;
    let counted = true;
    const exited = () => {
      if (!counted) return;
      counted = false;
      gitCounters.running -= 1;
    };
    child.once('exit', exited);
    child.once('close', exited);
    child.once('error', exited);
  });
}

/** Git storage on disk, driven through the `git` binary. */
export class NativeGitBackend implements GitBackend {
  private readonly root: string;
  private readonly gitPath: string;

  constructor(options: NativeGitOptions) {
    this.root = path.resolve(options.root);
    this.gitPath = options.gitPath ?? 'git';
    this.objects = new ObjectReaderPool(this, options.objectReaders);
  }

  /** One long-lived `git cat-file` per repository in use (see `git/native-objects.ts`). */
  readonly objects: ObjectReaderPool;

  private started = 0;

  /** Branch and tag listings kept while the refs on disk are unchanged (see `git/native-refs.ts`). */
  private readonly refListings = new RefListings();
  private readonly transferRefs = new TransferRefListings();

  /** How many git processes this backend has started: lets tests prove a page does not start one per item. */
  get processesStarted(): number {
    return this.started;
  }

  readObject(key: RepoKey, revision: string, options: ReadObjectOptions = {}): Promise<GitObjectData | undefined> {
    return this.objects.request(key, 'contents', revision, options.maxBytes ?? DEFAULT_MAX_OBJECT_BYTES, options.reachable === true);
  }

  readObjects(key: RepoKey, revisions: readonly string[], options: ReadObjectOptions = {}): Promise<(GitObjectData | undefined)[]> {
    return Promise.all(revisions.map((revision) => this.readObject(key, revision, options)));
  }

  async resolveRevision(key: RepoKey, revision: string): Promise<GitObjectInfo | undefined> {
    const found = await this.objects.request(key, 'info', revision, 0);
    return found && { id: found.id, type: found.type, size: found.size };
  }

  readTree(key: RepoKey, treeish: string, options: ReadTreeOptions = {}): Promise<ReadTreeResult | undefined> {
    return readTree(this.objects, key, treeish, options);
  }

  listRefs(key: RepoKey, prefix: string): Promise<GitRefEntry[]> {
    return listRefs(this, key, prefix);
  }

  openBlob(key: RepoKey, id: string): Readable {
    return streamBlob(this, key, id);
  }

  close(): void {
    this.objects.closeAll();
  }

  /** Absolute path of a repository's bare folder. Names were validated by core; the check here is a second fence. */
  pathOf(key: RepoKey): string {
    for (const part of [key.owner, key.name]) {
      if (!part || part.includes('/') || part.includes('\\') || part === '.' || part === '..' || part.includes('\0')) {
        throw new Error(`invalid repository key part: ${JSON.stringify(part)}`);
      }
    }
    return path.join(this.root, key.owner, `${key.name}.git`);
  }

  private env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LANG: 'C',
      GIT_TERMINAL_PROMPT: '0',
      GIT_CONFIG_NOSYSTEM: '1',
      ...extra,
    };
  }

  /**
   * Starts git; every git process of the server is started here, tied to the server's life. Public for the
   * backend's own modules (`git/native-*.ts`), not for other domains: they go through the GitBackend interface.
   * With `stdout`, git writes its output to that socket itself.
   */
  spawnGit(args: string[], env: Record<string, string> = {}, stdout?: Socket): GitProcess {
    this.started++;
    const child = SETPRIV
      ? gitSpawner.spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', this.gitPath, ...args], this.env(env), stdout)
      : gitSpawner.spawn(this.gitPath, args, this.env(env), stdout);
    countRunning(child);
    return child;
  }

  /** Runs git to the end, collecting its output (see `spawnGit`). */
  run(args: string[], options: { input?: Buffer | string; env?: Record<string, string> } = {}): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      const child = this.spawnGit(args, options.env);
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.on('data', (c: Buffer) => err.push(c));
      child.on('error', reject);
      child.on('close', (code) =>
        resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), code: code ?? -1 }),
      );
      child.stdin.on('error', () => {});
      child.stdin.end(options.input ?? '');
    });
  }

  private async git(key: RepoKey, args: string[], options: { input?: Buffer | string; env?: Record<string, string> } = {}): Promise<Buffer> {
    const result = await this.run(['--git-dir', this.pathOf(key), ...args], options);
    if (result.code !== 0) throw new Error(`git ${args[0]} failed (${result.code}): ${result.stderr.trim()}`);
    return result.stdout;
  }

  /**
   * Creates the bare repository without starting git: the folders and files of a bare repository that git made
   * once per object format (see `template`) are written under the new name, with HEAD naming the default branch.
   */
  async create(key: RepoKey, options: { objectFormat: ObjectFormat; defaultBranch: string }): Promise<void> {
    const template = await this.template(options.objectFormat);
    const dir = this.pathOf(key);
    // Readable by the server's account only: private repositories' contents live here.
    await mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
    try {
      // Not recursive: fails if the folder exists, which is what keeps two creators apart.
      await mkdir(dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new RepositoryExistsError(key);
      throw error;
    }
    try {
      for (const folder of template.folders) await mkdir(path.join(dir, folder), { mode: 0o700 });
      await Promise.all([
        ...template.files.map((file) => writeFile(path.join(dir, file.path), file.content, { mode: 0o600, flag: 'wx' })),
        writeFile(path.join(dir, 'HEAD'), `ref: refs/heads/${options.defaultBranch}\n`, { mode: 0o600, flag: 'wx' }),
      ]);
    } catch (error) {
      await this.remove(key);
      throw error;
    }
  }

  /** Bare-repository skeletons by object format, made by git once per backend. */
  private readonly templates = new Map<ObjectFormat, Promise<RepositoryTemplate>>();

  private template(format: ObjectFormat): Promise<RepositoryTemplate> {
    let template = this.templates.get(format);
    if (!template) {
      template = this.makeTemplate(format);
      // A failure is not kept: the next create tries again.
      template.catch(() => this.templates.delete(format));
      this.templates.set(format, template);
    }
    return template;
  }

  /** Runs `git init` once in a scratch folder and reads back what it wrote (without sample hooks and HEAD). */
  private async makeTemplate(format: ObjectFormat): Promise<RepositoryTemplate> {
    await mkdir(this.trash, { recursive: true, mode: 0o700 });
    const scratch = path.join(this.trash, `template-${format}-${randomBytes(6).toString('hex')}`);
    try {
      const init = await this.run(['init', '--bare', '--quiet', '--shared=0600', `--object-format=${format}`, scratch]);
      if (init.code !== 0) throw new Error(`git init failed: ${init.stderr.trim()}`);
      const settings: [string, string][] = [
        // --shared turns this on; Forgejo allows force pushes unless a branch is protected.
        ['receive.denyNonFastforwards', 'false'],
        // Let clients ask for partial clones, and advertise push options.
        ['uploadpack.allowFilter', 'true'],
        ['uploadpack.allowAnySHA1InWant', 'true'],
        ['receive.advertisePushOptions', 'true'],
      ];
      for (const [name, value] of settings) {
        const set = await this.run(['--git-dir', scratch, 'config', name, value]);
        if (set.code !== 0) throw new Error(`git config failed: ${set.stderr.trim()}`);
      }
      const template: RepositoryTemplate = { folders: [], files: [] };
      const walk = async (relative: string): Promise<void> => {
        for (const entry of await readdir(path.join(scratch, relative), { withFileTypes: true })) {
          const entryPath = relative ? `${relative}/${entry.name}` : entry.name;
          if (entry.isDirectory()) {
            template.folders.push(entryPath);
            await walk(entryPath);
          } else if (entry.isFile() && entryPath !== 'HEAD' && !entryPath.endsWith('.sample')) {
            template.files.push({ path: entryPath, content: await readFile(path.join(scratch, entryPath)) });
          }
        }
      };
      await walk('');
      return template;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  async exists(key: RepoKey): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isDirectory();
    } catch {
      return false;
    }
  }

  private get trash(): string {
    return path.join(this.root, '.trash');
  }

  async remove(key: RepoKey): Promise<void> {
    const dir = this.pathOf(key);
    this.objects.forget(key);
    const doomed = path.join(this.trash, `${key.owner}-${key.name}-${randomBytes(6).toString('hex')}`);
    await mkdir(this.trash, { recursive: true, mode: 0o700 });
    try {
      await rename(dir, doomed);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    await rm(doomed, { recursive: true, force: true });
  }

  async list(): Promise<RepoKey[]> {
    const keys: RepoKey[] = [];
    for (const owner of await readdirOrEmpty(this.root)) {
      // `.trash` and other dot-folders are ours, not owners (no owner name starts with a dot).
      if (!owner.isDirectory() || owner.name.startsWith('.')) continue;
      for (const entry of await readdirOrEmpty(path.join(this.root, owner.name))) {
        if (entry.isDirectory() && entry.name.endsWith('.git') && entry.name.length > 4) {
          keys.push({ owner: owner.name, name: entry.name.slice(0, -4) });
        }
      }
    }
    return keys;
  }

  async describe(key: RepoKey): Promise<StoredRepository> {
    const format = (await this.git(key, ['rev-parse', '--show-object-format'])).toString().trim();
    const head = await this.run(['--git-dir', this.pathOf(key), 'symbolic-ref', '--short', 'HEAD']);
    return {
      objectFormat: isObjectFormat(format) ? format : 'sha1',
      headBranch: head.code === 0 ? head.stdout.toString().trim() : '',
    };
  }

  async collectGarbage(olderThanMs = 0): Promise<void> {
    // Another process on a shared volume may be using a scratch folder here right now: only what nothing has
    // touched for `olderThanMs` goes (a scratch folder's time moves whenever an entry in it is written).
    const before = Date.now() - olderThanMs;
    for (const entry of await readdirOrEmpty(this.trash)) {
      const full = path.join(this.trash, entry.name);
      let modified: number;
      try {
        modified = (await stat(full)).mtimeMs;
      } catch {
        continue;
      }
      if (modified <= before) await rm(full, { recursive: true, force: true });
    }
  }

  async commitFiles(key: RepoKey, options: CommitFilesOptions): Promise<string> {
    const tree = await this.writeTree(key, options.files);
    const committer = options.committer ?? options.author;
    const id = (
      await this.git(key, ['commit-tree', tree, '-F', '-'], {
        input: options.message,
        env: { ...signatureEnv('AUTHOR', options.author), ...signatureEnv('COMMITTER', committer) },
      })
    )
      .toString()
      .trim();
    const zero = '0'.repeat(id.length);
    await this.git(key, ['update-ref', `refs/heads/${options.branch}`, id, options.expectedOldId ?? zero]);
    return id;
  }

  /** Builds (nested) tree objects for a flat list of files and returns the root tree id. */
  private async writeTree(key: RepoKey, files: CommitFilesOptions['files']): Promise<string> {
    interface Dir {
      files: Map<string, string>;
      dirs: Map<string, Dir>;
    }
    const root: Dir = { files: new Map(), dirs: new Map() };
    for (const file of files) {
      const parts = file.path.split('/').filter((p) => p !== '');
      if (parts.length === 0 || parts.some((p) => p === '.' || p === '..' || p === '.git')) {
        throw new Error(`invalid file path in commit: ${file.path}`);
      }
      let dir = root;
      for (const part of parts.slice(0, -1)) {
        let next = dir.dirs.get(part);
        if (!next) dir.dirs.set(part, (next = { files: new Map(), dirs: new Map() }));
        dir = next;
      }
      const blob = (await this.git(key, ['hash-object', '-w', '--stdin'], { input: Buffer.from(file.content) })).toString().trim();
      dir.files.set(parts.at(-1)!, blob);
    }
    const write = async (dir: Dir): Promise<string> => {
      const lines: string[] = [];
      for (const [name, id] of dir.files) lines.push(`100644 blob ${id}\t${name}`);
      for (const [name, sub] of dir.dirs) lines.push(`040000 tree ${await write(sub)}\t${name}`);
      return (await this.git(key, ['mktree'], { input: lines.join('\n') + '\n' })).toString().trim();
    };
    return write(root);
  }

  async commitTreeOf(from: RepoKey, fromBranch: string, to: RepoKey, options: Omit<CommitFilesOptions, 'files' | 'expectedOldId'>): Promise<string | undefined> {
    // The template's objects arrive under a scratch ref (fetch writes them to the pack store), which goes again below.
    const scratch = `refs/repohost/template-${randomBytes(6).toString('hex')}`;
    const fetched = await this.run(['--git-dir', this.pathOf(to), 'fetch', '--quiet', '--no-tags', this.pathOf(from), `+refs/heads/${fromBranch}:${scratch}`]);
    if (fetched.code !== 0) return undefined;
    try {
      const committer = options.committer ?? options.author;
      const id = (
        await this.git(to, ['commit-tree', `${scratch}^{tree}`, '-F', '-'], {
          input: options.message,
          env: { ...signatureEnv('AUTHOR', options.author), ...signatureEnv('COMMITTER', committer) },
        })
      )
        .toString()
        .trim();
      await this.git(to, ['update-ref', `refs/heads/${options.branch}`, id, '0'.repeat(id.length)]);
      return id;
    } finally {
      await this.git(to, ['update-ref', '-d', scratch]).catch(() => undefined);
    }
  }

  async setDefaultBranch(key: RepoKey, branch: string): Promise<void> {
    await this.git(key, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
  }

  async readRefs(key: RepoKey, refs: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (refs.length === 0) return found;
    const out = await this.git(key, ['for-each-ref', '--format=%(objectname) %(refname)', ...refs]);
    const wanted = new Set(refs);
    for (const line of out.toString().split('\n')) {
      const space = line.indexOf(' ');
      if (space < 0) continue;
      const ref = line.slice(space + 1);
      // for-each-ref treats arguments as prefixes; keep exact matches only.
      if (wanted.has(ref)) found.set(ref, line.slice(0, space));
    }
    return found;
  }

  async isEmpty(key: RepoKey): Promise<boolean> {
    return (await this.firstBranch(key)) === undefined;
  }

  async firstBranch(key: RepoKey): Promise<string | undefined> {
    const out = (await this.git(key, ['for-each-ref', '--count=1', '--format=%(refname)', 'refs/heads/'])).toString().trim();
    return out ? out.slice('refs/heads/'.length) : undefined;
  }

  /**
   * Bytes of objects, loose and packed, from `git count-objects` (as Forgejo measures it): it reads the pack index
   * sizes and the loose-object folders, not every file, so a push does not pay for the repository's whole history.
   */
  async size(key: RepoKey): Promise<number> {
    const out = (await this.git(key, ['count-objects', '-v'])).toString();
    let kib = 0;
    for (const line of out.split('\n')) {
      const match = /^(size|size-pack|size-garbage): (\d+)$/.exec(line.trim());
      if (match) kib += Number(match[2]);
    }
    return kib * 1024;
  }

  /**
   * Protocol v2's upload-pack advertisement lists capabilities, not refs: every repository made from the same
   * skeleton gets the same one for its object format, so it is kept by format instead of starting git each time.
   */
  private readonly v2Advertisements = new Map<ObjectFormat, Buffer>();

  async advertiseRefs(key: RepoKey, service: GitService, options: ServiceOptions): Promise<Buffer> {
    const format = service === 'upload-pack' && options.protocol === 'version=2' ? options.objectFormat : undefined;
    const cached = format && this.v2Advertisements.get(format);
    if (cached) return cached;
    const advertisement = await this.advertiseWithGit(key, service, options);
    if (format) this.v2Advertisements.set(format, advertisement);
    return advertisement;
  }

  private async advertiseWithGit(key: RepoKey, service: GitService, options: ServiceOptions): Promise<Buffer> {
    const result = await this.run([...serviceConfig(service), service, '--stateless-rpc', '--advertise-refs', this.pathOf(key)], {
      env: protocolEnv(options.protocol),
    });
    if (result.code !== 0) throw new Error(`git ${service} --advertise-refs failed: ${result.stderr.trim()}`);
    return result.stdout;
  }

  /** Where the hooks every push runs live (`core.hooksPath`), without and with repositories' own hooks; see `hooksFolder`. */
  private hooksReady: [string | undefined, string | undefined] = [undefined, undefined];

  /**
   * The pre-receive hook refuses to delete the branch HEAD names, as Forgejo does, and asks the server about the
   * rest only when told to. Plain sh, so a push to a repository without protection rules costs no extra process.
   * Where repositories' own hooks may run (`userHooks`), a second folder also holds the update and post-receive
   * hooks that call them; otherwise git starts no process for those. Written synchronously, once per backend,
   * because starting a service is synchronous; a few small files.
   */
  private hooksFolder(userHooks = false): string {
    const ready = this.hooksReady[userHooks ? 1 : 0];
    if (ready) return ready;
    const dir = path.join(this.root, userHooks ? '.hooks-user' : '.hooks');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const files: (readonly [string, string])[] = [
      ['push-check.cjs', HOOK_CLIENT_SCRIPT],
      ['pre-receive', userHooks ? PRE_RECEIVE_WITH_USER_HOOK : PRE_RECEIVE_HOOK],
      ...(userHooks ? USER_HOOKS : []),
    ];
    for (const [name, text] of files) {
      const file = path.join(dir, name);
      const scratch = `${file}.${randomBytes(6).toString('hex')}`;
      writeFileSync(scratch, text, { mode: 0o700 });
      renameSync(scratch, file);
    }
    this.hooksReady[userHooks ? 1 : 0] = dir;
    return dir;
  }

  /** The variables that make the pre-receive hook hand the push to the server's check (see `hookCallback`). */
  private hookCallbackEnv(callback: { endpoint: string; token: string }): Record<string, string> {
    return {
      REPOHOST_HOOK_ENDPOINT: callback.endpoint,
      REPOHOST_HOOK_TOKEN: callback.token,
      REPOHOST_NODE: process.execPath,
      REPOHOST_HOOK_CLIENT: path.join(this.hooksFolder(), 'push-check.cjs'),
    };
  }

  listRefsForTransfer(key: RepoKey): Promise<ListedRefs | undefined> {
    return this.transferRefs.listing(this, key);
  }

  runService(key: RepoKey, service: GitService, options: RunServiceOptions): ServiceSession {
    const hooks = service === 'receive-pack' ? ['-c', `core.hooksPath=${this.hooksFolder(options.userHooks === true)}`] : [];
    const limit = service === 'receive-pack' && options.maxInputSize ? ['-c', `receive.maxInputSize=${options.maxInputSize}`] : [];
    const args = [...serviceConfig(service), ...hooks, ...limit, service, ...(options.stateless ? ['--stateless-rpc'] : []), this.pathOf(key)];
    const env = options.overQuota ? { ...protocolEnv(options.protocol), REPOHOST_OVER_QUOTA: '1' } : protocolEnv(options.protocol);
    if (service === 'receive-pack' && options.hookCallback) Object.assign(env, this.hookCallbackEnv(options.hookCallback));
    // Only where git's writes can be watched (an idle client must not hold git forever, and this process no longer
    // sees the bytes go by).
    const direct = service === 'upload-pack' && options.stateless && writesObservable() ? options.directOutput : undefined;
    const child = this.spawnGit(args, env, direct?.socket);
    // A fetch's reader reads git's stdout itself: pack data takes no detour through another stream. A push's
    // answer is small and goes through a buffer that starts reading at once.
    let output: Readable = child.stdout;
    if (service === 'receive-pack') child.stdout.pipe((output = new PassThrough()));
    const stderr: Buffer[] = [];
    child.stderr.on('data', (c: Buffer) => stderr.push(c));
    child.stdin.on('error', () => {});
    let reader: ReceiveCommandReader | undefined;
    let input: Readable = options.input;
    if (service === 'receive-pack') {
      reader = new ReceiveCommandReader();
      input = options.input.pipe(reader);
    }
    options.input.on('error', (error) => child.stdin.destroy(error));
    const stopOnAbort = this.stopOnAbort(child, [options.input, input], output, options.signal);
    /** Why git was stopped here, when it was (the client's headers could not go out, or it read nothing). */
    let stoppedBecause: string | undefined;
    let stopWatching = () => {};
    let closed = false;
    /** A direct answer: the caller's headers first, then git's input, and git's writes watched from then on. */
    const startDirect = async (to: DirectOutput) => {
      try {
        await to.beforeOutput();
      } catch (error) {
        stoppedBecause = `the answer could not start: ${(error as Error).message}`;
        child.kill('SIGKILL');
        return;
      }
      if (closed || stopOnAbort.stopped) return;
      input.pipe(child.stdin);
      if (to.idleTimeoutMs <= 0 || child.pid === undefined) return;
      stopWatching = watchWrites(child.pid, to.idleTimeoutMs, () => {
        stoppedBecause = `nothing was written for ${Math.round(to.idleTimeoutMs / 1000)} s (the client reads nothing)`;
        child.kill('SIGKILL');
      });
    };
    if (direct) child.once('spawn', () => void startDirect(direct));
    else input.pipe(child.stdin);

    const exited = new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => {
        closed = true;
        stopOnAbort.dispose();
        stopWatching();
        if (code === 0) resolve();
        else if (stopOnAbort.stopped) reject(new Error(`git ${service} stopped: the client went away`));
        else if (stoppedBecause) reject(new Error(`git ${service} stopped: ${stoppedBecause}`));
        else reject(new Error(`git ${service} exited with ${code ?? signal}: ${Buffer.concat(stderr).toString().trim()}`));
      });
    });
    const done = exited.then(async () => {
      if (!reader || reader.commands.length === 0) return [];
      return this.appliedUpdates(key, reader.commands);
    });
    // Callers that only stream the output must not see an unhandled rejection.
    done.catch(() => {});
    return direct ? { output, done, direct: true } : { output, done };
  }

  /**
   * Kills a service whose client has gone away: nobody will read its answer, and it holds a process (and its
   * caller's slot) until it exits. The streams are let go too, so the child's `close` comes at once even when its
   * output was never read.
   */
  private stopOnAbort(child: GitProcess, inputs: Readable[], output: Readable, signal: AbortSignal | undefined) {
    const state = { stopped: false, dispose: () => {} };
    if (!signal) return state;
    const stop = () => {
      state.stopped = true;
      child.kill('SIGKILL');
      for (const input of inputs) input.unpipe();
      child.stdin.destroy();
      child.stdout.destroy();
      // Without an error: a reader that has no error listener must not crash the process.
      output.destroy();
    };
    if (signal.aborted) stop();
    else {
      signal.addEventListener('abort', stop, { once: true });
      state.dispose = () => signal.removeEventListener('abort', stop);
    }
    return state;
  }

  /** Keeps the commands whose ref now holds the requested value: those receive-pack applied. */
  private async appliedUpdates(key: RepoKey, commands: RefUpdate[]): Promise<RefUpdate[]> {
    const valid = commands.filter((c) => FULL_HEX_ID.test(c.oldId) && FULL_HEX_ID.test(c.newId) && c.ref.startsWith('refs/'));
    const current = await this.readRefs(key, [...new Set(valid.map((c) => c.ref))]);
    return valid.filter((c) => {
      const now = current.get(c.ref);
      return /^0+$/.test(c.newId) ? now === undefined : now === c.newId;
    });
  }

  countCommits(key: RepoKey, options: CommitRangeOptions): Promise<number> {
    return countCommits(this, key, options);
  }

  listCommits(key: RepoKey, options: CommitListOptions): Promise<GitCommit[]> {
    return listCommits(this, key, options);
  }

  commitDiff(key: RepoKey, commit: string, format: 'diff' | 'patch'): Promise<Buffer> {
    return commitDiff(this, key, commit, format);
  }

  refDetails(key: RepoKey, kind: RefKind, select: { names: readonly string[] } | { offset: number; limit: number }): Promise<{ refs: RefDetail[]; total: number }> {
    return refDetails(this, key, kind, select, this.refListings);
  }

  updateRefs(key: RepoKey, updates: readonly RefUpdate[]): Promise<void> {
    return updateRefs(this, key, updates);
  }

  writeAnnotatedTag(key: RepoKey, options: AnnotatedTagOptions): Promise<string> {
    return writeAnnotatedTag(this, key, options);
  }

  isAncestor(key: RepoKey, ancestor: string, descendant: string): Promise<boolean> {
    return isAncestor(this, key, ancestor, descendant);
  }

  incoming(key: RepoKey, quarantine: Record<string, string>): IncomingObjects {
    return incomingObjects(this, key, quarantine);
  }

  remoteHead(remote: RemoteGitAccess): Promise<RemoteHead> {
    return readRemoteHead(this, remote);
  }

  fetchRemote(key: RepoKey, remote: RemoteGitAccess, options: FetchRemoteOptions): Promise<void> {
    return fetchFromRemote(this, key, remote, options);
  }

  smallBlobsWithPrefix(key: RepoKey, prefix: Buffer, maxSize: number, signal?: AbortSignal): Promise<Buffer[]> {
    return smallBlobsWithPrefix(this, key, prefix, maxSize, signal);
  }

  maintain(key: RepoKey, command: 'fsck' | 'gc', options: MaintenanceOptions): Promise<MaintenanceResult> {
    return runMaintenance(this, key, command, options);
  }

  async syncHooks(): Promise<void> {
    this.hooksReady = [undefined, undefined];
    this.hooksFolder(false);
    this.hooksFolder(true);
  }

  readHooks(key: RepoKey): Promise<GitHookFile[]> {
    return readRepoHooks(this.pathOf(key));
  }

  writeHook(key: RepoKey, name: GitHookName, content: string): Promise<GitHookFile> {
    return writeRepoHook(this.pathOf(key), name, content);
  }

  mergeBase(key: RepoKey, a: string, b: string): Promise<string | undefined> {
    return mergeBase(this, key, a, b);
  }

  mergeTree(key: RepoKey, ours: string, theirs: string): Promise<MergeTreeResult> {
    return mergeTree(this, key, ours, theirs);
  }

  changedFiles(key: RepoKey, base: string, head: string, options?: { ignoreWhitespace?: string }): Promise<ChangedFileEntry[]> {
    return changedFiles(this, key, base, head, options);
  }

  diffRange(key: RepoKey, base: string, head: string, format: 'diff' | 'patch', binary: boolean): Promise<Buffer> {
    return diffRange(this, key, base, head, format, binary);
  }

  fileDiffs(key: RepoKey, base: string, head: string, paths: readonly string[], maxBytes: number): Promise<Map<string, string>> {
    return fileDiffs(this, key, base, head, paths, maxBytes);
  }

  applyPatch(key: RepoKey, base: string, patch: string): Promise<AppliedPatch> {
    return applyPatch(this, key, base, patch);
  }

  storeCommitRef(key: RepoKey, ref: string, commit: string): Promise<void> {
    return storeCommitRef(this, key, ref, commit);
  }


  async resolveCommit(key: RepoKey, revision: string): Promise<string | undefined> {
    // Never an option, never a NUL; `--end-of-options` keeps git from reading the name as one anyway.
    if (revision === '' || revision.startsWith('-') || revision.includes('\0')) return undefined;
    // What the long-lived reader may be asked (names, ids, `rev~n`, `rev:path`) it resolves as rev-parse does,
    // with the same rules for ref names, and starts no process; it reads refs from disk at each request.
    if (isSafeRevision(revision)) {
      const found = await this.objects.request(key, 'info', `${revision}^{commit}`, 0).catch(() => 'failed' as const);
      if (found !== 'failed') return found?.type === 'commit' && FULL_HEX_ID.test(found.id) ? found.id : undefined;
    }
    const result = await this.run(['--git-dir', this.pathOf(key), 'rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`]);
    const id = result.stdout.toString().trim();
    return result.code === 0 && FULL_HEX_ID.test(id) ? id : undefined;
  }

  async commitLog(key: RepoKey, options: CommitLogOptions): Promise<{ commits: LoggedCommit[]; count: number }> {
    const { head, exclude, detailed, countLimit } = options;
    if (!FULL_HEX_ID.test(head) || (exclude !== undefined && !FULL_HEX_ID.test(exclude))) throw new Error('commitLog takes full commit ids');
    const range = exclude === undefined ? [head] : [head, `^${exclude}`];
    const args = ['--git-dir', this.pathOf(key), 'log', '-z', `--max-count=${Math.max(1, countLimit)}`, `--format=${LOG_FORMAT}`, '--end-of-options', ...range];
    return new Promise((resolve, reject) => {
      const child = this.spawnGit(args);
      const commits: LoggedCommit[] = [];
      const err: Buffer[] = [];
      let count = 0;
      let field = 0;
      let fields: string[] = [];
      let parts: Buffer[] = [];
      let kept = 0;
      // Read as git writes: only the first `detailed` commits are held, each field cut at LOG_FIELD_BYTES.
      child.stdout.on('data', (chunk: Buffer) => {
        let start = 0;
        while (start < chunk.length) {
          const nul = chunk.indexOf(0, start);
          const end = nul < 0 ? chunk.length : nul;
          const keep = count < detailed;
          if (keep && kept < LOG_FIELD_BYTES) {
            const piece = chunk.subarray(start, Math.min(end, start + LOG_FIELD_BYTES - kept));
            parts.push(piece);
            kept += piece.length;
          }
          if (nul < 0) break;
          start = nul + 1;
          if (keep) {
            fields.push(Buffer.concat(parts).toString('utf8'));
            parts = [];
            kept = 0;
          }
          field += 1;
          if (field === LOG_FIELDS) {
            if (keep) {
              const [id = '', parents = '', authorName = '', authorEmail = '', committerName = '', committerEmail = '', authorTime = '', message = ''] = fields;
              commits.push({ id, parents: parents ? parents.split(' ') : [], authorName, authorEmail, committerName, committerEmail, authorTime, message });
            }
            fields = [];
            field = 0;
            count += 1;
          }
        }
      });
      child.stderr.on('data', (c: Buffer) => err.push(c));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code === 0) resolve({ commits, count });
        else reject(new Error(`git log failed (${code}): ${Buffer.concat(err).toString('utf8').trim()}`));
      });
      child.stdin.end();
    });
  }

  /** `git ls-tree -r -l`: one process for the whole tree, however many files it holds. */
  async listFiles(key: RepoKey, commit: string): Promise<TreeFile[]> {
    const out = await this.git(key, ['ls-tree', '-r', '-l', '-z', '--full-tree', commit]);
    const files: TreeFile[] = [];
    let start = 0;
    while (start < out.length) {
      let end = out.indexOf(0, start);
      if (end < 0) end = out.length;
      const entry = out.toString('utf8', start, end);
      start = end + 1;
      // `<mode> <type> <id> <size>\t<path>`; symbolic links (120000) are blobs too, but hold no code.
      const tab = entry.indexOf('\t');
      const [mode, type, , size] = entry.slice(0, tab).split(/ +/);
      if (tab < 0 || type !== 'blob' || mode === '120000') continue;
      files.push({ path: entry.slice(tab + 1), size: Number(size) || 0 });
    }
    return files;
  }

  /**
   * `git archive` for zip and tar.gz. A bundle needs refs to name: it is written from a scratch git folder
   * holding only `refs/heads/bundle` (and HEAD) at the commit, reading the repository's objects in place, as
   * Forgejo names them. Either way one git process, whose output is read as it is written.
   */
  async archive(key: RepoKey, options: ArchiveOptions): Promise<ArchiveStream> {
    const dir = this.pathOf(key);
    let scratch: string | undefined;
    let child: GitProcess;
    if (options.format === 'bundle') {
      await mkdir(this.trash, { recursive: true, mode: 0o700 });
      scratch = path.join(this.trash, `bundle-${randomBytes(6).toString('hex')}`);
      await mkdir(path.join(scratch, 'refs', 'heads'), { recursive: true, mode: 0o700 });
      await Promise.all([
        // The repository's config says which object format its ids are in.
        readFile(path.join(dir, 'config')).then((config) => writeFile(path.join(scratch!, 'config'), config, { mode: 0o600 })),
        writeFile(path.join(scratch, 'HEAD'), 'ref: refs/heads/bundle\n', { mode: 0o600 }),
        writeFile(path.join(scratch, 'refs', 'heads', 'bundle'), `${options.commit}\n`, { mode: 0o600 }),
      ]);
      child = this.spawnGit(['--git-dir', scratch, 'bundle', 'create', '--quiet', '-', 'refs/heads/bundle', 'HEAD'], {
        GIT_OBJECT_DIRECTORY: path.join(dir, 'objects'),
      });
    } else {
      const prefix = options.prefix ? [`--prefix=${options.prefix}`] : [];
      child = this.spawnGit(['--git-dir', dir, 'archive', `--format=${options.format}`, ...prefix, '--end-of-options', options.commit]);
    }
    child.stdin.on('error', () => {});
    child.stdin.end();
    const stderr: Buffer[] = [];
    child.stderr.on('data', (c: Buffer) => stderr.push(c));
    const output = child.stdout;
    const stopOnAbort = this.stopOnAbort(child, [], output, options.signal);
    // A reader that stops reading (the client went away) must not leave git blocked on a full pipe.
    output.on('close', () => {
      if (!output.readableEnded && child.exitCode === null) child.kill('SIGKILL');
    });
    const done = new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => {
        stopOnAbort.dispose();
        if (scratch) void rm(scratch, { recursive: true, force: true });
        if (code === 0) resolve();
        else if (stopOnAbort.stopped) reject(new Error(`git ${options.format} archive stopped: the client went away`));
        else reject(new Error(`git ${options.format} archive exited with ${code ?? signal}: ${Buffer.concat(stderr).toString().trim()}`));
      });
    });
    done.catch(() => {});
    return { output, done };
  }

  readContents(key: RepoKey, options: ReadContentsOptions): Promise<ContentsRead | undefined> {
    return readContents(this, key, options);
  }

  lastCommitOf(key: RepoKey, commit: string, path: string): Promise<{ id: string; when: string; authorWhen: string } | undefined> {
    return lastCommitOf(this, key, commit, path);
  }

  statPaths(key: RepoKey, commit: string, paths: readonly string[]): Promise<Map<string, TreeEntryInfo>> {
    return statPaths(this, key, commit, paths);
  }

  changeFiles(key: RepoKey, options: ChangeFilesCommit): Promise<{ commit: string; tree: string; blobs: Map<string, string> }> {
    return changeFiles(this, key, options);
  }

  fork(from: RepoKey, to: RepoKey, options: { objectFormat: ObjectFormat; defaultBranch: string }): Promise<void> {
    return forkRepository(this, from, to, options);
  }

  pushMirror(key: RepoKey, request: MirrorPushRequest): Promise<void> {
    return pushMirror(this, key, request);
  }


  commitTree(key: RepoKey, options: CommitTreeOptions): Promise<string> {
    return commitTree(this, key, options);
  }

  rebaseCommits(key: RepoKey, options: RebaseOptions): Promise<RebaseResult> {
    return rebaseCommits(this, key, options);
  }

  copyCommit(from: RepoKey, to: RepoKey, id: string): Promise<void> {
    return copyCommit(this, from, to, id);
  }

  /**
   * One `rename(2)` of the bare folder: atomic on one file system, so a crash leaves the repository wholly at one
   * place or the other. The new owner's folder is made first; the old one stays (an empty owner folder is harmless).
   */
  async rename(from: RepoKey, to: RepoKey): Promise<void> {
    const source = this.pathOf(from);
    const target = this.pathOf(to);
    if (source === target) return;
    this.objects.forget(from);
    this.objects.forget(to);
    // rename(2) would replace an empty folder at the target: refuse any folder there.
    if (existsSync(target)) throw new RepositoryExistsError(to);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    try {
      await rename(source, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' || code === 'EEXIST') throw new RepositoryExistsError(to);
      throw error;
    }
  }

  /** Absolute path of an owner's folder; the name was validated by core, the check here is a second fence. */
  private ownerPath(owner: string): string {
    if (!owner || owner.startsWith('.') || owner.includes('/') || owner.includes('\\') || owner.includes('\0')) {
      throw new Error(`invalid owner name: ${JSON.stringify(owner)}`);
    }
    return path.join(this.root, owner);
  }

  /**
   * One `rename(2)` of the owner's folder: atomic on one file system, so a crash leaves every repository of the
   * owner at one place or the other. rename(2) replaces an empty folder at the target and refuses a non-empty one.
   */
  async renameOwner(from: string, to: string): Promise<boolean> {
    const source = this.ownerPath(from);
    const target = this.ownerPath(to);
    if (source === target) return false;
    this.objects.forgetUnder(source + path.sep);
    try {
      await rename(source, target);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        // Nothing to move; still refuse a place that holds someone's files, so a repair never takes them.
        if ((await readdirOrEmpty(target)).length > 0) throw new OwnerStorageExistsError(to);
        return false;
      }
      if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') throw new OwnerStorageExistsError(to);
      throw error;
    }
  }
}

async function readdirOrEmpty(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function signatureEnv(kind: 'AUTHOR' | 'COMMITTER', sig: Signature): Record<string, string> {
  const env: Record<string, string> = { [`GIT_${kind}_NAME`]: sig.name, [`GIT_${kind}_EMAIL`]: sig.email };
  if (sig.when) env[`GIT_${kind}_DATE`] = `${Math.floor(sig.when.getTime() / 1000)} +0000`;
  return env;
}

/** RepoHost's own bookkeeping refs (merge markers, scratch refs): never advertised, never pushed to. */
const HIDDEN_REFS = ['-c', 'transfer.hideRefs=refs/repohost'];

function serviceConfig(service: GitService): string[] {
  return service === 'upload-pack' ? [...HIDDEN_REFS, '-c', 'uploadpack.allowFilter=true', '-c', 'uploadpack.allowAnySHA1InWant=true'] : HIDDEN_REFS;
}

function protocolEnv(protocol: string | undefined): Record<string, string> {
  return protocol ? { GIT_PROTOCOL: protocol } : {};
}
