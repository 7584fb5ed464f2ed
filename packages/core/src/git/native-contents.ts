/**
 * The contents API's git work for NativeGitBackend: reading an entry of a commit's tree (with what `GET /contents`
 * shows of it) and writing several file changes as one commit. Reads go through the backend's long-lived object
 * reader and one `git log` for the last commits; writes build the tree in a scratch index (never a working tree)
 * and move the branch with `update-ref <new> <old>`, so a branch that moved meanwhile is refused, not overwritten.
 */
import { parseGitmodules } from './text.js';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  FULL_HEX_ID,
  BranchMovedError,
  type AppliedPatch,
  type ChangeFilesCommit,
  type ContentsEntry,
  type ContentsRead,
  type ReadContentsOptions,
  type DatedSignature,
  type RepoKey,
  type TreeEntryInfo,
} from './backend.js';
import type { NativeGitRunner } from './native-runner.js';
import type { ObjectReaderPool } from './native-objects.js';
import { BoundedMap } from '../bounded-map.js';
import { ConcurrencyLimit } from './limit.js';

/** What this module uses of the native backend: git itself and its long-lived object readers. */
type NativeGitBackend = NativeGitRunner & { readonly objects: ObjectReaderPool };

/** Bytes of a symbolic link's target shown, as Forgejo reads it. */
const SYMLINK_TARGET_BYTES = 1024;

interface ObjectInfo {
  id: string;
  type: string;
  size: number;
}

/** Bytes of a tree object read at most (a tree this large has about a million entries). */
const MAX_TREE_BYTES = 64 * 1024 * 1024;

/**
 * Objects of one repository, read through the backend's long-lived `git cat-file` (`git/native-objects.ts`):
 * reading an entry starts no process.
 */
class ObjectReader {
  constructor(
    private readonly git: NativeGitBackend,
    private readonly key: RepoKey,
  ) {}

  async info(object: string): Promise<ObjectInfo | undefined> {
    const found = await this.git.objects.request(this.key, 'info', object, 0);
    return found && { id: found.id, type: found.type, size: found.size };
  }

  async contents(object: string, maxBytes = MAX_TREE_BYTES): Promise<{ info: ObjectInfo; data: Buffer } | undefined> {
    const found = await this.git.objects.request(this.key, 'contents', object, maxBytes);
    return found && { info: { id: found.id, type: found.type, size: found.size }, data: found.content };
  }
}

/** Entries of a raw tree object: `<mode> <name>\0<binary id>` each. */
function parseTree(data: Buffer, idBytes: number): { mode: string; name: string; id: string }[] {
  const entries: { mode: string; name: string; id: string }[] = [];
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(32, at);
    const nul = data.indexOf(0, space);
    if (space < 0 || nul < 0) break;
    const mode = data.toString('latin1', at, space).padStart(6, '0');
    const name = data.toString('utf8', space + 1, nul);
    const id = data.toString('hex', nul + 1, nul + 1 + idBytes);
    entries.push({ mode, name, id });
    at = nul + 1 + idBytes;
  }
  return entries;
}

function typeOfMode(mode: string): TreeEntryInfo['type'] {
  if (mode === '040000') return 'tree';
  if (mode === '160000') return 'commit';
  return 'blob';
}

/** Walks trees from a commit's root, reading each tree once per call. */
class TreeWalker {
  private readonly trees = new Map<string, Promise<{ mode: string; name: string; id: string }[] | undefined>>();

  constructor(private readonly reader: ObjectReader) {}

  async root(commit: string): Promise<string | undefined> {
    const info = await this.reader.info(`${commit}^{tree}`);
    return info?.type === 'tree' ? info.id : undefined;
  }

  entriesOf(tree: string): Promise<{ mode: string; name: string; id: string }[] | undefined> {
    let entries = this.trees.get(tree);
    if (!entries) {
      entries = this.reader.contents(tree).then((o) => (o && o.info.type === 'tree' ? parseTree(o.data, tree.length / 2) : undefined));
      this.trees.set(tree, entries);
    }
    return entries;
  }

  /** The entry at `treePath` ('' is the root tree), without size. */
  async find(rootTree: string, treePath: string): Promise<Omit<TreeEntryInfo, 'size'> | undefined> {
    if (treePath === '') return { name: '', path: '', mode: '040000', type: 'tree', id: rootTree };
    let tree = rootTree;
    const parts = treePath.split('/');
    for (let i = 0; i < parts.length; i++) {
      const entry = (await this.entriesOf(tree))?.find((e) => e.name === parts[i]);
      if (!entry) return undefined;
      if (i === parts.length - 1) return { name: entry.name, path: treePath, mode: entry.mode, type: typeOfMode(entry.mode), id: entry.id };
      if (entry.mode !== '040000') return undefined;
      tree = entry.id;
    }
    return undefined;
  }
}

function withReader<T>(git: NativeGitBackend, key: RepoKey, work: (reader: ObjectReader) => Promise<T>): Promise<T> {
  return work(new ObjectReader(git, key));
}

/** Size of a blob, 0 for trees and submodules (as Forgejo shows them). */
async function sized(reader: ObjectReader, entry: Omit<TreeEntryInfo, 'size'>): Promise<TreeEntryInfo> {
  if (entry.type !== 'blob') return { ...entry, size: 0 };
  return { ...entry, size: (await reader.info(entry.id))?.size ?? 0 };
}


export async function readContents(git: NativeGitBackend, key: RepoKey, options: ReadContentsOptions): Promise<ContentsRead | undefined> {
  const { commit, path: treePath, maxBlobSize } = options;
  if (!FULL_HEX_ID.test(commit)) throw new Error('readContents takes a full commit id');
  const read = await withReader(git, key, async (reader) => {
    const walker = new TreeWalker(reader);
    const root = await walker.root(commit);
    if (!root) return undefined;
    const found = await walker.find(root, treePath);
    if (!found) return undefined;
    let gitmodules: Map<string, string> | undefined;
    const submoduleUrl = async (entryPath: string): Promise<string | undefined> => {
      if (!gitmodules) {
        const file = (await walker.entriesOf(root))?.find((e) => e.name === '.gitmodules' && e.mode !== '040000');
        const blob = file ? await reader.contents(file.id) : undefined;
        gitmodules = parseGitmodules(blob ? blob.data.toString('utf8') : '');
      }
      return gitmodules.get(entryPath);
    };
    // Requests are sent together; the reader answers them in order.
    const describe = async (entry: Omit<TreeEntryInfo, 'size'>, withContent: boolean): Promise<ContentsEntry> => {
      const described: ContentsEntry = await sized(reader, entry);
      if (entry.mode === '120000') {
        const blob = await reader.contents(entry.id, SYMLINK_TARGET_BYTES);
        described.target = blob ? blob.data.subarray(0, SYMLINK_TARGET_BYTES).toString('utf8') : '';
      } else if (entry.type === 'commit') {
        described.submoduleUrl = await submoduleUrl(entry.path);
      } else if (entry.type === 'blob' && withContent) {
        described.content = described.size <= maxBlobSize ? ((await reader.contents(entry.id, maxBlobSize))?.data ?? Buffer.alloc(0)) : undefined;
      }
      return described;
    };
    const entry = await describe(found, true);
    if (found.type !== 'tree') return { entry };
    const children = await walker.entriesOf(found.id);
    const prefix = treePath === '' ? '' : `${treePath}/`;
    const listed = await Promise.all(
      (children ?? []).map((c) => describe({ name: c.name, path: prefix + c.name, mode: c.mode, type: typeOfMode(c.mode), id: c.id }, false)),
    );
    return { entry, children: listed };
  });
  if (!read) return undefined;
  const wanted = read.children ? read.children.map((c) => c.path) : [read.entry.path];
  const last = new Map<string, { id: string; when: string; authorWhen: string }>();
  const missing: string[] = [];
  for (const p of wanted) {
    const cached = LAST_COMMITS.get(`${commit}\0${p}`);
    if (cached) last.set(p, cached);
    else missing.push(p);
  }
  if (missing.length > 0) {
    const found = await lastCommits(git, key, commit, treePath, read.children ? 'children' : 'self', missing);
    for (const [p, c] of found) {
      last.set(p, c);
      LAST_COMMITS.set(`${commit}\0${p}`, c);
    }
  }
  for (const e of [read.entry, ...(read.children ?? [])]) e.lastCommit = last.get(e.path);
  if (read.children && treePath !== '') read.entry.lastCommit = undefined;
  return read;
}

/**
 * The newest commit that changed a path, by `<commit>\0<path>`: a commit id fixes its history, so an answer never
 * goes stale. Bounded, oldest entries dropped first (a Map keeps insertion order).
 */
const LAST_COMMITS = new BoundedMap<string, { id: string; when: string; authorWhen: string }>(20_000);

/** The newest commit from `commit` back that changed `path` (see GitBackend.lastCommitOf). */
export async function lastCommitOf(git: NativeGitBackend, key: RepoKey, commit: string, path: string): Promise<{ id: string; when: string; authorWhen: string } | undefined> {
  if (!FULL_HEX_ID.test(commit)) throw new Error('lastCommitOf takes a full commit id');
  const cacheKey = `${commit}\0${path}`;
  const cached = LAST_COMMITS.get(cacheKey);
  if (cached) return cached;
  const found = (await lastCommits(git, key, commit, path, 'self', [path])).get(path);
  if (found) LAST_COMMITS.set(cacheKey, found);
  return found;
}

/**
 * The newest commit that changed each wanted path, from one `git log` over `scope`: each commit's changed files
 * are mapped to the wanted entry that holds them, and git is stopped once every entry has its commit.
 */
function lastCommits(
  git: NativeGitBackend,
  key: RepoKey,
  commit: string,
  scope: string,
  mode: 'children' | 'self',
  wanted: readonly string[],
): Promise<Map<string, { id: string; when: string; authorWhen: string }>> {
  const found = new Map<string, { id: string; when: string; authorWhen: string }>();
  const remaining = new Set(wanted);
  if (remaining.size === 0) return Promise.resolve(found);
  const pathspec = scope === '' ? [] : ['--', scope];
  // `self`: one commit is enough; `children`: changed files say which entries each commit touched.
  const args = ['--git-dir', git.pathOf(key), 'log', '-z', '--no-renames', '--format=%x01%H %cI %aI'];
  if (mode === 'self') args.push('-1');
  else args.push('--name-only');
  args.push('--end-of-options', commit, ...pathspec);
  return new Promise((resolve, reject) => {
    const child = git.spawnGit(args, { GIT_LITERAL_PATHSPECS: '1' });
    let rest = '';
    let current: { id: string; when: string; authorWhen: string } | undefined;
    let stopped = false;
    const take = (field: string) => {
      if (field.startsWith('\x01')) {
        const [id = '', when = '', authorWhen = ''] = field.slice(1).split(' ');
        current = { id, when, authorWhen };
        if (mode === 'self') for (const p of remaining) found.set(p, current);
        return;
      }
      const file = field.replace(/^\n/, '');
      if (!current || file === '') return;
      const relative = scope === '' ? file : file.slice(scope.length + 1);
      const slash = relative.indexOf('/');
      const entryPath = (scope === '' ? '' : `${scope}/`) + (slash < 0 ? relative : relative.slice(0, slash));
      if (remaining.delete(entryPath)) found.set(entryPath, current);
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stopped) return;
      const fields = (rest + chunk).split('\0');
      rest = fields.pop() ?? '';
      for (const field of fields) take(field);
      if (mode === 'children' && remaining.size === 0) {
        stopped = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.resume();
    child.stdin.end();
    child.on('error', reject);
    child.on('close', () => {
      if (!stopped && rest) take(rest);
      resolve(found);
    });
  });
}

export async function statPaths(git: NativeGitBackend, key: RepoKey, commit: string, paths: readonly string[]): Promise<Map<string, TreeEntryInfo>> {
  if (!FULL_HEX_ID.test(commit)) throw new Error('statPaths takes a full commit id');
  return withReader(git, key, async (reader) => {
    const walker = new TreeWalker(reader);
    const found = new Map<string, TreeEntryInfo>();
    const root = await walker.root(commit);
    if (!root) return found;
    await Promise.all(
      paths.map(async (p) => {
        const entry = await walker.find(root, p);
        if (entry) found.set(p, await sized(reader, entry));
      }),
    );
    return found;
  });
}

function signatureEnv(kind: 'AUTHOR' | 'COMMITTER', sig: DatedSignature): Record<string, string> {
  const env: Record<string, string> = { [`GIT_${kind}_NAME`]: sig.name, [`GIT_${kind}_EMAIL`]: sig.email };
  const offset = sig.offset && /^[+-]\d{4}$/.test(sig.offset) ? sig.offset : '+0000';
  if (sig.when) env[`GIT_${kind}_DATE`] = `${Math.floor(sig.when.getTime() / 1000)} ${offset}`;
  return env;
}

/** Scratch files one change writes at once: each write holds a descriptor while it runs. */
const SCRATCH_WRITERS_PER_CHANGE = 8;
/** And all changes together, so that many concurrent changes cannot run the process out of descriptors either. */
const SCRATCH_WRITES = new ConcurrencyLimit(32, 120_000);

/** Writes the files a few at a time (not all at once: thousands of open files end in EMFILE). */
async function writeScratchFiles(items: readonly { file: string; content: Uint8Array }[]): Promise<void> {
  let next = 0;
  let failed = false;
  const writer = async () => {
    while (next < items.length && !failed) {
      const item = items[next++]!;
      try {
        const release = await SCRATCH_WRITES.acquire();
        try {
          await writeFile(item.file, item.content, { mode: 0o600 });
        } finally {
          release();
        }
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  // Every writer has stopped before this returns, so the caller's clean-up of the folder races no write.
  const settled = await Promise.allSettled(Array.from({ length: Math.min(SCRATCH_WRITERS_PER_CHANGE, items.length) }, writer));
  const rejected = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected) throw rejected.reason;
}

export async function changeFiles(git: NativeGitBackend, key: RepoKey, options: ChangeFilesCommit): Promise<{ commit: string; tree: string; blobs: Map<string, string> }> {
  const dir = git.pathOf(key);
  const scratch = path.join(path.dirname(path.dirname(dir)), '.trash', `contents-${randomBytes(6).toString('hex')}`);
  await mkdir(scratch, { recursive: true, mode: 0o700 });
  try {
    const run = async (args: string[], input?: string, env: Record<string, string> = {}): Promise<string> => {
      const result = await git.run(['--git-dir', dir, ...args], { input, env: { GIT_INDEX_FILE: path.join(scratch, 'index'), ...env } });
      if (result.code !== 0) throw new Error(`git ${args[0]} failed (${result.code}): ${result.stderr.trim()}`);
      return result.stdout.toString('utf8');
    };
    // Every blob in one hash-object: the contents go through scratch files, named by position.
    const writes = options.changes.filter((c) => c.content !== undefined);
    const blobs = new Map<string, string>();
    if (writes.length > 0) {
      const files = writes.map((_, i) => path.join(scratch, `blob-${i}`));
      await writeScratchFiles(writes.map((c, i) => ({ file: files[i]!, content: c.content! })));
      const ids = (await run(['hash-object', '-w', '--no-filters', '--stdin-paths'], files.join('\n') + '\n')).trim().split('\n');
      writes.forEach((c, i) => blobs.set(c.path, ids[i]!));
    }
    if (options.parent) await run(['read-tree', '--end-of-options', options.parent]);
    const zero = options.objectFormat === 'sha256' ? '0'.repeat(64) : '0'.repeat(40);
    const lines: string[] = [];
    for (const change of options.changes) {
      if (change.content === undefined) lines.push(`0 ${zero}\t${change.path}`);
      else lines.push(`${change.mode ?? '100644'} ${blobs.get(change.path)}\t${change.path}`);
    }
    if (lines.length > 0) await run(['update-index', '--index-info'], lines.join('\n') + '\n');
    const tree = (await run(['write-tree'])).trim();
    const parents = options.parent ? ['-p', options.parent] : [];
    const commit = (
      await run(['commit-tree', '--no-gpg-sign', ...parents, '-F', '-', tree], options.message, {
        ...signatureEnv('AUTHOR', options.author),
        ...signatureEnv('COMMITTER', options.committer),
      })
    ).trim();
    const moved = await git.run(['--git-dir', dir, 'update-ref', '-m', 'contents API', options.ref ?? `refs/heads/${options.branch}`, commit, options.expectedOldId ?? zero]);
    if (moved.code !== 0) throw new BranchMovedError(options.branch, moved.stderr.trim());
    return { commit, tree, blobs };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** What of git's refusal an answer repeats: its first lines, without the `error: ` git puts before each. */
const REFUSAL_MAX_CHARS = 1000;

/**
 * Applies a unified diff to `base`'s tree in a scratch index, with the flags Forgejo's diffpatch passes
 * (`--recount --ignore-whitespace --whitespace=fix --binary -3`): the blobs and the tree are written, nothing else.
 * Exit 1 is a patch that does not apply there; 128 one git cannot read (or none at all).
 */
export async function applyPatch(git: NativeGitBackend, key: RepoKey, base: string, patch: string): Promise<AppliedPatch> {
  const dir = git.pathOf(key);
  const scratch = path.join(path.dirname(path.dirname(dir)), '.trash', `patch-${randomBytes(6).toString('hex')}`);
  await mkdir(scratch, { recursive: true, mode: 0o700 });
  try {
    const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
    const run = async (args: string[], input?: string) => {
      const result = await git.run(['--git-dir', dir, ...args], { input, env });
      return { code: result.code, stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString() };
    };
    const read = await run(['read-tree', '--end-of-options', base]);
    if (read.code !== 0) throw new Error(`git read-tree failed (${read.code}): ${read.stderr.trim()}`);
    const applied = await run(['apply', '--cached', '--recount', '--ignore-whitespace', '--whitespace=fix', '--binary', '-3', '-'], patch);
    if (applied.code !== 0) {
      const message = applied.stderr
        .split('\n')
        .filter((line) => line.startsWith('error: '))
        .map((line) => line.slice('error: '.length))
        .join('\n')
        .slice(0, REFUSAL_MAX_CHARS);
      return { refused: applied.code === 1 ? 'conflict' : 'invalid', message: message || 'patch does not apply' };
    }
    const written = await run(['write-tree']);
    // A three-way application that conflicts leaves unmerged entries, which no tree can hold.
    if (written.code !== 0) return { refused: 'conflict', message: 'patch does not apply' };
    const changed = await run(['diff', '--cached', '--name-only', '--no-renames', '-z', base, '--']);
    if (changed.code !== 0) throw new Error(`git diff failed (${changed.code}): ${changed.stderr.trim()}`);
    return { tree: written.stdout.trim(), paths: changed.stdout.split('\0').filter((p) => p !== '') };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
