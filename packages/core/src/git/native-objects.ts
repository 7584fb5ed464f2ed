/**
 * Reading git objects through one long-lived `git cat-file --batch-command` per repository (`--batch` where git is
 * older than 2.36): requests are written to its stdin and answered in order, so reading 500 blobs, a tree and its
 * subtrees, or resolving a ref costs no new process. Readers are kept while used, closed after an idle time, capped
 * in number (least recently used closed first), replaced when their process dies, and closed with the backend.
 */
import type { GitProcess } from './native-spawner.js';
import type { Readable } from 'node:stream';
import type { NativeGitRunner } from './native-runner.js';
import { BoundedMap } from '../bounded-map.js';
import { FULL_HEX_ID, type GitObjectData, type GitObjectInfo, type GitObjectType, type GitRefEntry, type GitTreeEntry, type ReadTreeOptions, type ReadTreeResult, type RepoKey } from './backend.js';

/** What this module uses of the native backend. */
export type NativeGitBackend = NativeGitRunner;


const OBJECT_TYPES: ReadonlySet<string> = new Set(['blob', 'tree', 'commit', 'tag']);

/**
 * True when `revision` may be written to cat-file's line protocol: no line breaks or NUL (they would end or split
 * the request), no control characters, and nothing git reads as a search (`:/text`, `^{/text}`) or reflog walk (`@{…}`),
 * which cost a history walk per request.
 */
export function isSafeRevision(revision: string): boolean {
  if (revision === '' || revision.length > 4096) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(revision)) return false;
  if (revision.startsWith(':/') || revision.includes('@{') || revision.includes('^{/')) return false;
  return true;
}

export interface ObjectReaderOptions {
  /** A reader with nothing asked of it this long closes its process (ms). */
  idleMs?: number;
  /** Repositories that keep a reader open at most; the least recently used is closed beyond it. */
  maxReaders?: number;
}

interface PendingRequest {
  kind: 'info' | 'contents';
  /** Bytes of content kept; the rest is read and dropped. */
  maxBytes: number;
  resolve(value: GitObjectData | undefined): void;
  reject(error: Error): void;
}

/** One `git cat-file` process serving one repository's requests in order. */
class ObjectReader {
  private readonly child: GitProcess;
  private readonly queue: PendingRequest[] = [];
  private header: Buffer[] = [];
  /** The object whose content is being read, and how much of it is still to come (content + LF). */
  private body: { info: GitObjectInfo; parts: Buffer[]; kept: number; remaining: number; request: PendingRequest } | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  closed = false;

  constructor(
    backend: NativeGitBackend,
    key: RepoKey,
    private readonly batchCommand: boolean,
    private readonly idleMs: number,
    private readonly onExit: (reader: ObjectReader) => void,
  ) {
    this.child = backend.spawnGit(['--git-dir', backend.pathOf(key), 'cat-file', batchCommand ? '--batch-command' : '--batch']);
    this.child.stdout.on('data', (chunk: Buffer) => this.consume(chunk));
    this.child.stderr.resume();
    this.child.stdin.on('error', () => {});
    this.child.on('error', (error) => this.fail(error));
    this.child.on('close', () => this.fail(new Error('git cat-file exited')));
  }

  /** Requests still waiting for their answer. */
  get busy(): boolean {
    return this.queue.length > 0;
  }

  request(kind: 'info' | 'contents', revision: string, maxBytes: number): Promise<GitObjectData | undefined> {
    if (this.closed) return Promise.reject(new Error('git cat-file reader is closed'));
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    return new Promise((resolve, reject) => {
      // `--batch` has no `info` command: the content is read and dropped instead (maxBytes 0).
      const command = this.batchCommand ? `${kind} ${revision}\n` : `${revision}\n`;
      this.queue.push({ kind, maxBytes: kind === 'info' ? 0 : maxBytes, resolve, reject });
      this.child.stdin.write(command);
    });
  }

  /** Ends the process once the queued requests are answered (git reads stdin to its end first). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.child.stdin.end();
    if (!this.busy) this.child.kill('SIGKILL');
  }

  private armIdleTimer(): void {
    if (this.closed || this.busy) return;
    this.idleTimer = setTimeout(() => this.close(), this.idleMs);
    this.idleTimer.unref();
  }

  private fail(error: Error): void {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const waiting = this.queue.splice(0);
    if (this.body) waiting.unshift(this.body.request);
    this.body = undefined;
    for (const request of waiting) request.reject(error);
    this.onExit(this);
  }

  private consume(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.body) {
        const body = this.body;
        const take = Math.min(body.remaining, chunk.length - offset);
        const keep = Math.min(take, Math.max(0, Math.min(body.info.size, body.request.maxBytes) - body.kept));
        if (keep > 0) {
          body.parts.push(chunk.subarray(offset, offset + keep));
          body.kept += keep;
        }
        body.remaining -= take;
        offset += take;
        if (body.remaining === 0) {
          this.body = undefined;
          const content = Buffer.concat(body.parts);
          body.request.resolve({ ...body.info, content, truncated: content.length < body.info.size });
          this.armIdleTimer();
        }
        continue;
      }
      const newline = chunk.indexOf(0x0a, offset);
      if (newline < 0) {
        this.header.push(chunk.subarray(offset));
        break;
      }
      this.header.push(chunk.subarray(offset, newline));
      offset = newline + 1;
      const line = Buffer.concat(this.header).toString('utf8');
      this.header = [];
      this.answer(line);
    }
  }

  /** Handles one header line: `<id> <type> <size>`, or `<name> missing|ambiguous`. */
  private answer(line: string): void {
    const request = this.queue.shift();
    if (!request) return;
    const match = /^([0-9a-f]{40}|[0-9a-f]{64}) (\w+) (\d+)$/.exec(line);
    if (!match || !OBJECT_TYPES.has(match[2]!)) {
      request.resolve(undefined);
      this.armIdleTimer();
      return;
    }
    const info: GitObjectInfo = { id: match[1]!, type: match[2] as GitObjectType, size: Number(match[3]) };
    if (request.kind === 'info' && this.batchCommand) {
      request.resolve({ ...info, content: Buffer.alloc(0), truncated: info.size > 0 });
      this.armIdleTimer();
      return;
    }
    this.body = { info, parts: [], kept: 0, remaining: info.size + 1, request };
  }
}

/** Commit and tag objects up to this size are kept by id (`ObjectReaderPool.small`), this many at most. */
const SMALL_OBJECT_BYTES = 8 * 1024;
const SMALL_OBJECTS_KEPT = 4096;

/** The readers of one backend, by repository path. */
export class ObjectReaderPool {
  private readonly readers = new Map<string, ObjectReader>();
  private readonly idleMs: number;
  private readonly maxReaders: number;
  private batchCommand: Promise<boolean> | undefined;

  constructor(
    private readonly backend: NativeGitBackend,
    options: ObjectReaderOptions = {},
  ) {
    this.idleMs = options.idleMs ?? 30_000;
    this.maxReaders = Math.max(1, options.maxReaders ?? 64);
  }

  /** Number of repositories with a reader process open. */
  get size(): number {
    return this.readers.size;
  }

  /** `--batch-command` needs git 2.36; asked once per backend. */
  private supportsBatchCommand(): Promise<boolean> {
    this.batchCommand ??= this.backend.run(['version']).then((result) => {
      const match = /git version (\d+)\.(\d+)/.exec(result.stdout.toString());
      return !!match && (Number(match[1]) > 2 || (Number(match[1]) === 2 && Number(match[2]) >= 36));
    });
    return this.batchCommand;
  }

  private async reader(key: RepoKey): Promise<ObjectReader> {
    const path = this.backend.pathOf(key);
    const batchCommand = await this.supportsBatchCommand();
    let reader = this.readers.get(path);
    if (reader && !reader.closed) {
      // Most recently used last.
      this.readers.delete(path);
      this.readers.set(path, reader);
      return reader;
    }
    const created = new ObjectReader(this.backend, key, batchCommand, this.idleMs, (exited) => {
      if (this.readers.get(path) === exited) this.readers.delete(path);
    });
    this.readers.set(path, created);
    reader = created;
    for (const [oldPath, old] of this.readers) {
      if (this.readers.size <= this.maxReaders) break;
      this.readers.delete(oldPath);
      old.close();
    }
    return reader;
  }

  /**
   * Small commit and tag objects read by full id, by repository and id: an object's content never changes under its
   * id, so a page of branches or commits reads each raw commit (for its signature) from git once.
   */
  private readonly small = new BoundedMap<string, GitObjectData>(SMALL_OBJECTS_KEPT);

  /** One request; a reader whose process died before answering is replaced once. */
  async request(key: RepoKey, kind: 'info' | 'contents', revision: string, maxBytes: number, reachable = false): Promise<GitObjectData | undefined> {
    if (!isSafeRevision(revision)) return undefined;
    const byId = reachable && kind === 'contents' && FULL_HEX_ID.test(revision) ? `${this.backend.pathOf(key)}\0${revision}` : undefined;
    const kept = byId === undefined ? undefined : this.small.get(byId);
    if (kept && kept.size <= maxBytes) return { ...kept };
    let found: GitObjectData | undefined;
    try {
      found = await (await this.reader(key)).request(kind, revision, maxBytes);
    } catch {
      found = await (await this.reader(key)).request(kind, revision, maxBytes);
    }
    if (byId !== undefined && found && !found.truncated && found.size <= SMALL_OBJECT_BYTES && (found.type === 'commit' || found.type === 'tag')) {
      this.small.set(byId, { ...found });
    }
    return found;
  }

  /** Closes the reader of a repository (renamed, removed): the next request starts a new one at the new place. */
  forget(key: RepoKey): void {
    const path = this.backend.pathOf(key);
    this.readers.get(path)?.close();
    this.readers.delete(path);
    this.forgetObjectsUnder(`${path}\0`);
  }

  private forgetObjectsUnder(prefix: string): void {
    for (const id of [...this.small.keys()]) if (id.startsWith(prefix)) this.small.delete(id);
  }

  /** Closes the readers of every repository under `folder` (an owner renamed). */
  forgetUnder(folder: string): void {
    this.forgetObjectsUnder(folder);
    for (const [path, reader] of this.readers) {
      if (path.startsWith(folder)) {
        reader.close();
        this.readers.delete(path);
      }
    }
  }

  closeAll(): void {
    for (const reader of this.readers.values()) reader.close();
    this.readers.clear();
  }
}

/** Parses a binary tree object: `<mode> <name>\0<raw id>` entries; the id length follows the tree's own. */
export function parseTree(content: Buffer, idBytes: number): { mode: string; name: Buffer; id: string }[] {
  const entries: { mode: string; name: Buffer; id: string }[] = [];
  let offset = 0;
  while (offset < content.length) {
    const space = content.indexOf(0x20, offset);
    const nul = content.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + idBytes > content.length) break;
    entries.push({
      mode: content.toString('latin1', offset, space).padStart(6, '0'),
      name: content.subarray(space + 1, nul),
      id: content.toString('hex', nul + 1, nul + 1 + idBytes),
    });
    offset = nul + 1 + idBytes;
  }
  return entries;
}

function entryType(mode: string): GitTreeEntry['type'] {
  if (mode === '040000') return 'tree';
  if (mode === '160000') return 'commit';
  return 'blob';
}

/**
 * Lists a tree (a tree id, or anything naming a commit) through the reader: one request per tree read, blob
 * sizes asked together, all on the one process. Recursive listings put each folder before its contents, in
 * tree order (as `git ls-tree -r -t`).
 */
export async function readTree(pool: ObjectReaderPool, key: RepoKey, treeish: string, options: ReadTreeOptions): Promise<ReadTreeResult | undefined> {
  // `<rev>:<path>` names a tree already; a suffix there would be read as part of the path.
  const root = await pool.request(key, 'contents', treeish.includes(':') ? treeish : `${treeish}^{tree}`, Number.MAX_SAFE_INTEGER);
  if (!root || root.type !== 'tree') return undefined;
  const idBytes = root.id.length / 2;
  const all: GitTreeEntry[] = [];
  const children = new Map<string, GitTreeEntry[]>();
  const list = (content: Buffer, prefix: string): GitTreeEntry[] =>
    parseTree(content, idBytes).map((entry) => ({
      mode: entry.mode,
      type: entryType(entry.mode),
      id: entry.id,
      path: prefix + entry.name.toString('utf8'),
      size: 0,
    }));
  const top = list(root.content, '');
  let level = top;
  while (options.recursive && level.length > 0) {
    const trees = level.filter((entry) => entry.type === 'tree');
    const read = await Promise.all(trees.map((entry) => pool.request(key, 'contents', entry.id, Number.MAX_SAFE_INTEGER)));
    level = [];
    trees.forEach((entry, index) => {
      const found = read[index];
      if (!found || found.type !== 'tree') return;
      const below = list(found.content, `${entry.path}/`);
      children.set(entry.path, below);
      level.push(...below);
    });
  }
  const walk = (entries: GitTreeEntry[]) => {
    for (const entry of entries) {
      all.push(entry);
      const below = children.get(entry.path);
      if (below && entry.type === 'tree') walk(below);
    }
  };
  walk(top);
  const start = Math.max(0, options.offset ?? 0);
  const end = options.limit === undefined ? all.length : Math.min(all.length, start + Math.max(0, options.limit));
  const page = all.slice(start, end);
  // Sizes only for the entries returned: one `info` each, on the same process.
  const blobs = options.sizes === false ? [] : page.filter((entry) => entry.type === 'blob');
  const infos = await Promise.all(blobs.map((entry) => pool.request(key, 'info', entry.id, 0)));
  blobs.forEach((entry, index) => (entry.size = infos[index]?.size ?? 0));
  return { id: root.id, entries: page, total: all.length };
}

/** A blob's bytes from its own `git cat-file blob` process, for content too large to pass through the reader. */
export function streamBlob(backend: NativeGitBackend, key: RepoKey, id: string): Readable {
  if (!FULL_HEX_ID.test(id)) throw new Error('streamBlob takes a full blob id');
  const child = backend.spawnGit(['--git-dir', backend.pathOf(key), 'cat-file', 'blob', id]);
  child.stdin.on('error', () => {});
  child.stdin.end();
  child.stderr.resume();
  const output = child.stdout;
  // A reader that stops reading (the client went away) must not leave git blocked on a full pipe.
  output.on('close', () => {
    if (!output.readableEnded && child.exitCode === null) child.kill('SIGKILL');
  });
  return output;
}

/**
 * Refs whose name starts with `prefix`, in one `git for-each-ref`. git matches patterns by whole path components,
 * so it is given the prefix's folder and the rest is matched here.
 */
export async function listRefs(backend: NativeGitBackend, key: RepoKey, prefix: string): Promise<GitRefEntry[]> {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(prefix)) return [];
  const folder = prefix.slice(0, Math.max(0, prefix.lastIndexOf('/')));
  const pattern = folder.startsWith('refs/') && !/[*?[\\]/.test(folder) ? [folder] : [];
  const result = await backend.run(['--git-dir', backend.pathOf(key), 'for-each-ref', '--format=%(objectname) %(objecttype) %(refname)', ...pattern]);
  if (result.code !== 0) throw new Error(`git for-each-ref failed (${result.code}): ${result.stderr.trim()}`);
  const refs: GitRefEntry[] = [];
  for (const line of result.stdout.toString('utf8').split('\n')) {
    const match = /^([0-9a-f]+) (\w+) (.+)$/.exec(line);
    if (!match || !match[3]!.startsWith(prefix) || !OBJECT_TYPES.has(match[2]!)) continue;
    refs.push({ id: match[1]!, type: match[2] as GitObjectType, ref: match[3]! });
  }
  return refs;
}
