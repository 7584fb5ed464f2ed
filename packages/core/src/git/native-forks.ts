/**
 * Forks and copies between repositories of one storage.
 *
 * A fork shares its parent's objects by hard links, as `git clone --local` (what Forgejo runs) does: every pack
 * and loose object file of the parent gets a second name in the fork's `objects`. Git never changes such a file
 * in place (a repack writes new ones and deletes the old names), so the two repositories are independent from the
 * first moment: deleting, renaming or transferring the parent (or renaming its owner) leaves the fork whole, with
 * nothing to repair, while the disk holds each shared object once for as long as both keep that file.
 */
import { copyFile, link, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { NativeGitRunner } from './native-runner.js';
import { FULL_HEX_ID, type ObjectFormat, type RepoKey } from './backend.js';

/** What forking needs of the backend beyond running git: making and removing a repository's storage. */
export interface ForkRunner extends NativeGitRunner {
  create(key: RepoKey, options: { objectFormat: ObjectFormat; defaultBranch: string }): Promise<void>;
  remove(key: RepoKey): Promise<void>;
}

export interface ForkStorageOptions {
  objectFormat: ObjectFormat;
  /** The branch the fork's HEAD names (the parent's default branch). */
  defaultBranch: string;
}

/** The refs a fork starts with: branches and tags, as `git clone --bare` takes them (no pull or other refs). */
const FORKED_REFS = ['refs/heads/', 'refs/tags/'];

/** Pack files in the order they are linked: the data before the index that makes git read it. */
const PACK_SUFFIXES = ['.pack', '.rev', '.mtimes', '.bitmap', '.idx'];

/**
 * Makes `to` a fork of `from`: a new repository (FAILING with RepositoryExistsError when `to` exists) holding the
 * parent's objects by hard links (copies across file systems) and its branches and tags. A failure removes what
 * was made. The refs are read before the objects are linked, so every object they name is in the files linked;
 * a file the parent's repack deleted meanwhile has its objects in a newer file, which a second pass links.
 */
export async function forkRepository(git: ForkRunner, from: RepoKey, to: RepoKey, options: ForkStorageOptions): Promise<void> {
  const refs = await readForkedRefs(git, from);
  await git.create(to, options);
  try {
    const source = path.join(git.pathOf(from), 'objects');
    const target = path.join(git.pathOf(to), 'objects');
    if (!(await linkObjects(source, target))) await linkObjects(source, target);
    if (refs.length > 0) {
      const input = refs.map((r) => `create ${r.ref} ${r.id}\n`).join('');
      let written = await git.run(['--git-dir', git.pathOf(to), 'update-ref', '--stdin'], { input });
      if (written.code !== 0) {
        // An object a concurrent repack moved into a new pack after the walk: one more pass links it.
        await linkObjects(source, target);
        written = await git.run(['--git-dir', git.pathOf(to), 'update-ref', '--stdin'], { input });
      }
      if (written.code !== 0) throw new Error(`git update-ref failed (${written.code}): ${written.stderr.trim()}`);
    }
  } catch (error) {
    await git.remove(to);
    throw error;
  }
}

async function readForkedRefs(git: NativeGitRunner, key: RepoKey): Promise<{ ref: string; id: string }[]> {
  const result = await git.run(['--git-dir', git.pathOf(key), 'for-each-ref', '--format=%(objectname) %(refname)', ...FORKED_REFS]);
  if (result.code !== 0) throw new Error(`git for-each-ref failed (${result.code}): ${result.stderr.trim()}`);
  const refs: { ref: string; id: string }[] = [];
  for (const line of result.stdout.toString('utf8').split('\n')) {
    const space = line.indexOf(' ');
    if (space < 0) continue;
    const id = line.slice(0, space);
    const ref = line.slice(space + 1);
    // A name update-ref's line format could not carry is left behind rather than misread.
    if (FULL_HEX_ID.test(id) && !/[\s\0]/.test(ref)) refs.push({ ref, id });
  }
  return refs;
}

/**
 * Gives every object file of `source` (loose objects and packs; not `info/`, which holds caches and alternates,
 * nor the quarantines and temporary files of pushes in flight) a name in `target`. Resolves false when a file
 * vanished midway (a repack or prune in the source), so the caller walks again.
 */
async function linkObjects(source: string, target: string): Promise<boolean> {
  let complete = true;
  const entries = await readdir(source, { withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    if (/^[0-9a-f]{2}$/.test(entry.name)) {
      const folder = path.join(target, entry.name);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      for (const file of await readdirOrNone(path.join(source, entry.name))) {
        if (!/^[0-9a-f]{38,62}$/.test(file)) continue;
        complete = (await linkOne(path.join(source, entry.name, file), path.join(folder, file))) && complete;
      }
    } else if (entry.name === 'pack') {
      const files = await readdirOrNone(path.join(source, 'pack'));
      const packs = files.filter((f) => /^pack-[0-9a-f]+\.pack$/.test(f)).map((f) => f.slice(0, -'.pack'.length));
      const present = new Set(files);
      await mkdir(path.join(target, 'pack'), { recursive: true, mode: 0o700 });
      for (const pack of packs) {
        for (const suffix of PACK_SUFFIXES) {
          const name = pack + suffix;
          if (!present.has(name)) continue;
          complete = (await linkOne(path.join(source, 'pack', name), path.join(target, 'pack', name))) && complete;
        }
      }
    }
  }
  return complete;
}

/** Links one file (copies it across file systems); false when the source is gone, true when the target exists. */
async function linkOne(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return true;
    if (code === 'ENOENT') return false;
    if (code === 'EXDEV' || code === 'EPERM' || code === 'EMLINK') {
      try {
        await copyFile(from, to);
        return true;
      } catch (copyError) {
        if ((copyError as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw copyError;
      }
    }
    throw error;
  }
}

async function readdirOrNone(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

