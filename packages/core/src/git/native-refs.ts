import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { BoundedMap } from '../bounded-map.js';
import { cleanCommitMessage } from './text.js';
import type { NativeGitRunner } from './native-runner.js';
import { FULL_HEX_ID, RefConflictError, type AnnotatedTagOptions, type GitObjectType, type RefDetail, type RefKind, type RefUpdate, type RepoKey } from './backend.js';


const PREFIX: Record<RefKind, string> = { branches: 'refs/heads/', tags: 'refs/tags/' };
/**
 * Forgejo's orders: branches by newest commit first then name; tags by the (peeled) creation date, newest first.
 * git sorts by the last `--sort` first.
 */
const SORT: Record<RefKind, string[]> = {
  branches: ['--sort=refname', '--sort=-committerdate'],
  tags: ['--sort=refname', '--sort=-*creatordate'],
};

/** Commit fields of the object itself (`''`) or of the object a tag points at (`'*'`). */
function commitFields(peel: '' | '*'): string[] {
  return ['authorname', 'authoremail:trim', 'authordate:iso-strict', 'committername', 'committeremail:trim', 'committerdate:iso-strict', 'contents'].map(
    (f) => `%(${peel}${f})`,
  );
}

/** Every field NUL-terminated; git ends each ref's record with a newline after the last NUL. */
const DETAIL_FIELDS = [
  '%(refname)',
  '%(objectname)',
  '%(objecttype)',
  '%(*objectname)',
  '%(*objecttype)',
  '%(taggername)',
  '%(taggeremail:trim)',
  '%(taggerdate:iso-strict)',
  ...commitFields(''),
  ...commitFields('*'),
];
const DETAIL_FORMAT = DETAIL_FIELDS.map((f) => `${f}%00`).join('');

const OBJECT_TYPES = new Set<string>(['blob', 'tree', 'commit', 'tag']);

/** A ref name `for-each-ref` may be given as a pattern: no glob characters, whitespace or controls. */
function isPlainRefName(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  return name !== '' && !name.startsWith('-') && !/[\x00-\x20\x7f*?[\\]/.test(name);
}

/** A tag's message without the signature git appends to it (Forgejo shows the two apart). */
function withoutSignature(contents: string): string {
  const at = contents.search(/-----BEGIN (?:PGP|SSH) SIGNATURE-----/);
  return at < 0 ? contents : contents.slice(0, at);
}

function parseDetails(stdout: Buffer): RefDetail[] {
  const fields = stdout.toString('utf8').split('\0');
  const refs: RefDetail[] = [];
  const width = DETAIL_FIELDS.length;
  for (let at = 0; at + width <= fields.length; at += width) {
    const f = fields.slice(at, at + width);
    // Every record after the first starts with the newline git wrote after the previous one.
    const ref = (f[0] ?? '').replace(/^\n/, '');
    const [, id = '', type = '', peeledId = '', peeledType = '', taggerName = '', taggerEmail = '', taggerTime = ''] = f;
    if (!OBJECT_TYPES.has(type)) continue;
    const commitAt = (offset: number, commitId: string) => ({
      id: commitId,
      authorName: f[offset] ?? '',
      authorEmail: f[offset + 1] ?? '',
      authorTime: f[offset + 2] ?? '',
      committerName: f[offset + 3] ?? '',
      committerEmail: f[offset + 4] ?? '',
      committerTime: f[offset + 5] ?? '',
      message: f[offset + 6] ?? '',
    });
    const detail: RefDetail = { ref, id, type: type as GitObjectType };
    if (type === 'commit') detail.commit = commitAt(8, id);
    if (type === 'tag') {
      detail.tag = { taggerName, taggerEmail, taggerTime, message: withoutSignature(f[14] ?? '') };
      if (peeledType === 'commit') detail.commit = commitAt(15, peeledId);
    }
    refs.push(detail);
  }
  return refs;
}

async function forEachRef(git: NativeGitRunner, key: RepoKey, args: string[]): Promise<Buffer> {
  const result = await git.run(['--git-dir', git.pathOf(key), 'for-each-ref', ...args]);
  if (result.code !== 0) throw new Error(`git for-each-ref failed (${result.code}): ${result.stderr.trim()}`);
  return result.stdout;
}

/**
 * A ref state whose newest time stamp is younger than this is not kept: file systems stamp times with a coarse
 * clock (a jiffy; a second on some), so a change in the same tick as the one read could leave the stamp unchanged.
 */
const RACY_MS = 2000;
/** Listings longer than this are read again each time rather than kept. */
const MAX_CACHED_REFS = 10_000;
/** Reads kept by each `StampedRefReads` (repositories, × kinds for branch and tag listings; least recently used dropped first). */
const MAX_CACHED_LISTINGS = 256;
/** Ref folders whose subfolder names are kept (see `subfoldersOf`). */
const MAX_CACHED_FOLDERS = 4096;

/** Subfolder names of ref folders, by path, under the folder's own stamp (inode, modification and change times). */
const subfolders = new BoundedMap<string, { stamp: string; names: string[] }>(MAX_CACHED_FOLDERS);

/**
 * The names of a ref folder's subfolders. An entry is only added, removed or renamed in a folder by changing the
 * folder's modification time, so the names read under one stamp of the folder hold while it keeps that stamp: the
 * folder is listed again only when it changed (with 50 loose branches, that listing was most of a read's stamp).
 * A stamp younger than RACY_MS is not kept, as for listings: a change in the same clock tick keeps the stamp.
 */
function subfoldersOf(folder: string, stamp: string, changedMs: number, now: number): string[] | undefined {
  const kept = subfolders.get(folder);
  if (kept && kept.stamp === stamp) return kept.names;
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    // Removed since its stat (git prunes empty ref folders): its stamp already differs from the last one.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  if (now - changedMs > RACY_MS) subfolders.set(folder, { stamp, names });
  else subfolders.delete(folder);
  return names;
}

/**
 * What the refs of one kind look like on disk in a repository with the files ref backend: `packed-refs` (inode,
 * size, modification time in ns) and every folder under `refs/heads/` (or `refs/tags/`) with its modification
 * time. git changes a loose ref by writing `<name>.lock` and renaming it over `<name>`, and a packed ref by
 * rewriting `packed-refs` the same way (a new inode), so every change to these refs, by any process, changes this
 * stamp. Undefined when the repository uses another ref backend (reftable): then nothing is kept.
 *
 * Taken at every read, so it is read synchronously: a few `stat`s of files the kernel has in its cache (and a
 * `readdir` of a folder that changed) take microseconds, where each asynchronous call is a round trip through
 * libuv's thread pool, which cost more than the rest of a branch list.
 */
function refsStamp(dir: string, prefix: string, now: number): { stamp: string; newestMs: number } | undefined {
  const parts: string[] = [];
  let newest = 0n;
  const statOf = (file: string) => statSync(file, { bigint: true, throwIfNoEntry: false });
  const root = path.join(dir, ...prefix.split('/').filter(Boolean));
  const rootInfo = statOf(root);
  // git makes `refs/heads` a file in a reftable repository (as a stub for older tools): where it is a folder, the
  // repository keeps its refs in files, and the reftable folder is not looked for. `refs/` is a folder in both.
  const filesBackend = prefix === PREFIX.branches && rootInfo?.isDirectory() === true;
  if (!filesBackend && statOf(path.join(dir, 'reftable'))) return undefined;
  const packed = statOf(path.join(dir, 'packed-refs'));
  if (packed) {
    parts.push(`p ${packed.ino} ${packed.size} ${packed.mtimeNs} ${packed.ctimeNs}`);
    if (packed.mtimeNs > newest) newest = packed.mtimeNs;
    if (packed.ctimeNs > newest) newest = packed.ctimeNs;
  } else parts.push('p -');
  const walk = (folder: string, relative: string, known?: typeof rootInfo): void => {
    const info = known ?? statOf(folder);
    if (!info?.isDirectory()) {
      parts.push(`d ${relative} -`);
      return;
    }
    const stamp = `${info.ino} ${info.mtimeNs} ${info.ctimeNs}`;
    parts.push(`d ${relative} ${stamp}`);
    const changed = info.mtimeNs > info.ctimeNs ? info.mtimeNs : info.ctimeNs;
    if (changed > newest) newest = changed;
    for (const name of subfoldersOf(folder, stamp, Number(changed / 1_000_000n), now) ?? []) walk(path.join(folder, name), `${relative}/${name}`);
  };
  walk(root, prefix, rootInfo);
  return { stamp: parts.join('\n'), newestMs: Number(newest / 1_000_000n) };
}

/**
 * What one read of a repository's refs under a prefix made of them, kept per id while the refs on disk keep the
 * same stamp (`refsStamp`): the read runs again only after a push, a ref update or `pack-refs` (in this process or
 * another) changed the files. Concurrent readers of one state share one read.
 */
export class StampedRefReads<T> {
  private readonly kept = new BoundedMap<string, { stamp: string; value: T }>(MAX_CACHED_LISTINGS);
  private readonly running = new Map<string, Promise<T>>();

  /**
   * The value `read` gives for the refs of `dir` under `prefix`, kept under `id` when `keepable` says so; undefined
   * when the refs' state cannot be known (another ref backend), and nothing is read.
   */
  async read(id: string, dir: string, prefix: string, read: () => Promise<T>, keepable: (value: T) => boolean): Promise<T | undefined> {
    const readAt = Date.now();
    const state = refsStamp(dir, prefix, readAt);
    if (!state) return undefined;
    const found = this.kept.get(id);
    if (found && found.stamp === state.stamp) {
      // Most recently used last.
      this.kept.delete(id);
      this.kept.set(id, found);
      return found.value;
    }
    const flight = `${id}\0${state.stamp}`;
    let run = this.running.get(flight);
    if (!run) {
      run = read();
      this.running.set(flight, run);
      const done = () => this.running.delete(flight);
      run.then(done, done);
    }
    const value = await run;
    // Read after the stamp: the value is at least as new as the stamp says, so keeping it under that stamp can only
    // make the next read run git again, never serve an older state. A stamp younger than RACY_MS is not kept.
    if (readAt - state.newestMs > RACY_MS && keepable(value)) this.kept.set(id, { stamp: state.stamp, value });
    return value;
  }
}

/**
 * Every ref of a kind with its details, in Forgejo's order, from one `git for-each-ref`, kept per repository
 * while the refs on disk keep the same stamp (`StampedRefReads`): a branch list or a single branch then starts no
 * git process until the refs change.
 */
export class RefListings {
  private readonly reads = new StampedRefReads<RefDetail[]>();

  /** The whole listing when the refs' state can be known, else undefined (the caller reads what it needs). */
  listing(git: NativeGitRunner, key: RepoKey, kind: RefKind): Promise<RefDetail[] | undefined> {
    const dir = git.pathOf(key);
    return this.reads.read(
      `${kind}\0${dir}`,
      dir,
      PREFIX[kind],
      () => forEachRef(git, key, [`--format=${DETAIL_FORMAT}`, ...SORT[kind], PREFIX[kind]]).then(parseDetails),
      (refs) => refs.length <= MAX_CACHED_REFS,
    );
  }
}

export async function refDetails(
  git: NativeGitRunner,
  key: RepoKey,
  kind: RefKind,
  select: { names: readonly string[] } | { offset: number; limit: number },
  listings?: RefListings,
): Promise<{ refs: RefDetail[]; total: number }> {
  const prefix = PREFIX[kind];
  const all = listings ? await listings.listing(git, key, kind) : undefined;
  if ('names' in select) {
    const wanted = [...new Set(select.names.filter(isPlainRefName).map((n) => prefix + n))];
    if (wanted.length === 0) return { refs: [], total: 0 };
    // A pattern also matches the refs below it (`a` matches `a/b`): only exact names are kept.
    const found = all ?? parseDetails(await forEachRef(git, key, [`--format=${DETAIL_FORMAT}`, ...wanted]));
    const byName = new Map(found.map((r) => [r.ref, r]));
    const refs = wanted.flatMap((name) => byName.get(name) ?? []);
    return { refs, total: refs.length };
  }
  if (all) return { refs: all.slice(select.offset, select.offset + select.limit), total: all.length };
  // The names first (cheap), in order, then the details of this page's refs only.
  const names = (await forEachRef(git, key, ['--format=%(refname)', ...SORT[kind], prefix])).toString('utf8').split('\n').filter(Boolean);
  const page = names.slice(select.offset, select.offset + select.limit);
  if (page.length === 0) return { refs: [], total: names.length };
  const found = parseDetails(await forEachRef(git, key, [`--format=${DETAIL_FORMAT}`, ...page.filter(isPlainRefName)]));
  const byName = new Map(found.map((r) => [r.ref, r]));
  return { refs: page.flatMap((name) => byName.get(name) ?? []), total: names.length };
}

export async function updateRefs(git: NativeGitRunner, key: RepoKey, updates: readonly RefUpdate[]): Promise<void> {
  if (updates.length === 0) return;
  for (const u of updates) {
    if (!u.ref.startsWith('refs/') || !isPlainRefName(u.ref) || !FULL_HEX_ID.test(u.newId) || !FULL_HEX_ID.test(u.oldId)) {
      throw new Error(`invalid ref update: ${JSON.stringify(u)}`);
    }
  }
  // One transaction: every update happens, or none does (and each is checked against its old id).
  const input = updates.map((u) => `update ${u.ref} ${u.newId} ${u.oldId}\n`).join('');
  const result = await git.run(['--git-dir', git.pathOf(key), 'update-ref', '--stdin'], { input });
  if (result.code === 0) return;
  const stderr = result.stderr.trim();
  if (/cannot lock ref|but expected|already exists|unable to resolve reference/.test(stderr)) throw new RefConflictError(stderr);
  throw new Error(`git update-ref failed (${result.code}): ${stderr}`);
}


/** A name or email as a signature line may hold it: no angle brackets, no line breaks. */
function identityPart(value: string): string {
  return value.replace(/[<>\n\r\0]/g, '').trim();
}

export async function writeAnnotatedTag(git: NativeGitRunner, key: RepoKey, options: AnnotatedTagOptions): Promise<string> {
  if (!FULL_HEX_ID.test(options.target) || !isPlainRefName(options.name)) throw new Error('writeAnnotatedTag takes a full commit id and a valid name');
  const when = Math.floor((options.tagger.when?.getTime() ?? Date.now()) / 1000);
  const body = [
    `object ${options.target}`,
    'type commit',
    `tag ${options.name}`,
    `tagger ${identityPart(options.tagger.name)} <${identityPart(options.tagger.email)}> ${when} +0000`,
    '',
    cleanCommitMessage(options.message),
  ].join('\n');
  // mktag checks the tag (its object exists and is a commit, the header is well-formed) before writing it.
  const result = await git.run(['--git-dir', git.pathOf(key), 'mktag'], { input: body });
  const id = result.stdout.toString().trim();
  if (result.code !== 0 || !FULL_HEX_ID.test(id)) throw new Error(`git mktag failed (${result.code}): ${result.stderr.trim()}`);
  return id;
}

export async function isAncestor(git: NativeGitRunner, key: RepoKey, ancestor: string, descendant: string): Promise<boolean> {
  if (!FULL_HEX_ID.test(ancestor) || !FULL_HEX_ID.test(descendant)) throw new Error('isAncestor takes full commit ids');
  const result = await git.run(['--git-dir', git.pathOf(key), 'merge-base', '--is-ancestor', ancestor, descendant]);
  if (result.code === 0) return true;
  if (result.code === 1) return false;
  throw new Error(`git merge-base failed (${result.code}): ${result.stderr.trim()}`);
}
