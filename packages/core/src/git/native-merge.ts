import { cleanCommitMessage } from './text.js';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { NativeGitRunner } from './native-runner.js';
import { FULL_HEX_ID, type RepoKey } from './backend.js';
import type { CommitTreeOptions, MergeSignature, RebaseOptions, RebaseResult } from './merge-types.js';

/** A name or email as a signature line may hold it: no angle brackets, no line breaks. */
function identityPart(value: string): string {
  return value.replace(/[<>\n\r\0]/g, '').trim();
}

function signatureEnv(kind: 'AUTHOR' | 'COMMITTER', sig: MergeSignature): Record<string, string> {
  const offset = sig.offset && /^[+-]\d{4}$/.test(sig.offset) ? sig.offset : '+0000';
  const seconds = Math.floor((sig.when?.getTime() ?? Date.now()) / 1000);
  return {
    [`GIT_${kind}_NAME`]: identityPart(sig.name),
    [`GIT_${kind}_EMAIL`]: identityPart(sig.email),
    [`GIT_${kind}_DATE`]: `${seconds} ${offset}`,
  };
}


/** Settings no user or system configuration may change under a merge (`GIT_CONFIG_NOSYSTEM` is always set). */
const ISOLATED = { GIT_CONFIG_GLOBAL: '/dev/null' };

export async function commitTree(git: NativeGitRunner, key: RepoKey, options: CommitTreeOptions): Promise<string> {
  if (!FULL_HEX_ID.test(options.tree) || options.parents.some((p) => !FULL_HEX_ID.test(p))) throw new Error('commitTree takes full ids');
  const parents = options.parents.flatMap((p) => ['-p', p]);
  const result = await git.run(['--git-dir', git.pathOf(key), 'commit-tree', '--no-gpg-sign', ...parents, '-F', '-', options.tree], {
    input: cleanCommitMessage(options.message),
    env: { ...ISOLATED, ...signatureEnv('AUTHOR', options.author), ...signatureEnv('COMMITTER', options.committer) },
  });
  const id = result.stdout.toString().trim();
  if (result.code !== 0 || !FULL_HEX_ID.test(id)) throw new Error(`git commit-tree failed (${result.code}): ${result.stderr.trim()}`);
  return id;
}

/** Brings commit `id` and what it reaches from repository `from` into `to` (no ref is written in `to`). */
export async function copyCommit(git: NativeGitRunner, from: RepoKey, to: RepoKey, id: string): Promise<void> {
  if (!FULL_HEX_ID.test(id)) throw new Error('copyCommit takes a full id');
  const target = git.pathOf(to);
  const present = await git.run(['--git-dir', target, 'cat-file', '-e', `${id}^{commit}`]);
  if (present.code === 0) return;
  // Asked by id: served whether or not a ref of `from` names it. No ref of `to` is written.
  const fetched = await git.run(
    ['-c', 'uploadpack.allowAnySHA1InWant=true', '--git-dir', target, 'fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--no-auto-gc', git.pathOf(from), id],
    { env: ISOLATED },
  );
  if (fetched.code !== 0) throw new Error(`git fetch failed (${fetched.code}): ${fetched.stderr.trim()}`);
}

/** A scratch folder under the storage root's `.trash`, which start-up empties: a crash leaves nothing behind. */
async function scratchFolder(git: NativeGitRunner, key: RepoKey, purpose: string): Promise<string> {
  const root = path.dirname(path.dirname(git.pathOf(key)));
  const dir = path.join(root, '.trash', `${purpose}-${randomBytes(6).toString('hex')}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Replays `head`'s commits onto `onto` (git's rebase: merge commits are flattened, commits already upstream drop)
 * in a scratch repository that borrows the stored objects, then brings the new commits into `key`. The stored
 * repository gains objects only: no ref of it moves.
 */
export async function rebaseCommits(git: NativeGitRunner, key: RepoKey, options: RebaseOptions): Promise<RebaseResult> {
  if (!FULL_HEX_ID.test(options.onto) || !FULL_HEX_ID.test(options.head)) throw new Error('rebaseCommits takes full ids');
  const stored = git.pathOf(key);
  const format = (await git.run(['--git-dir', stored, 'rev-parse', '--show-object-format'])).stdout.toString().trim() || 'sha1';
  const dir = await scratchFolder(git, key, 'rebase');
  const env = { ...ISOLATED, ...signatureEnv('COMMITTER', options.committer) };
  const run = async (args: string[]): Promise<{ stdout: string; stderr: string; code: number }> => {
    const result = await git.run(['-C', dir, ...args], { env });
    return { stdout: result.stdout.toString('utf8'), stderr: result.stderr, code: result.code };
  };
  const must = async (args: string[]): Promise<string> => {
    const result = await run(args);
    if (result.code !== 0) throw new Error(`git ${args[0]} failed (${result.code}): ${result.stderr.trim()}`);
    return result.stdout.trim();
  };
  try {
    await must(['init', '--quiet', `--object-format=${format}`, '.']);
    const borrowed = [path.join(stored, 'objects')];
    if (options.alsoFrom) borrowed.push(path.join(git.pathOf(options.alsoFrom), 'objects'));
    await writeFile(path.join(dir, '.git', 'objects', 'info', 'alternates'), borrowed.join('\n') + '\n');
    for (const [name, value] of [
      ['core.autocrlf', 'false'],
      ['rebase.autoSquash', 'false'],
      ['rebase.updateRefs', 'false'],
      ['commit.gpgSign', 'false'],
      ['uploadpack.allowAnySHA1InWant', 'true'],
    ] as const) {
      await must(['config', name, value]);
    }
    await must(['checkout', '--quiet', '--detach', options.head]);
    const rebased = await run(['rebase', '--quiet', '--no-autostash', '--no-gpg-sign', options.onto]);
    if (rebased.code !== 0) {
      if (await exists(path.join(dir, '.git', 'REBASE_HEAD'))) {
        for (const file of [path.join(dir, '.git', 'rebase-merge', 'stopped-sha'), path.join(dir, '.git', 'rebase-apply', 'original-commit')]) {
          if (await exists(file)) return { conflict: (await readFile(file, 'utf8')).trim() };
        }
        return { conflict: '' };
      }
      throw new Error(`git rebase failed (${rebased.code}): ${rebased.stderr.trim()}`);
    }
    const head = await must(['rev-parse', 'HEAD']);
    if (!FULL_HEX_ID.test(head)) throw new Error(`git rev-parse gave ${head}`);
    const present = await git.run(['--git-dir', stored, 'cat-file', '-e', `${head}^{commit}`]);
    if (present.code !== 0) {
      const fetched = await git.run(['--git-dir', stored, 'fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--no-auto-gc', dir, head], { env: ISOLATED });
      if (fetched.code !== 0) throw new Error(`git fetch failed (${fetched.code}): ${fetched.stderr.trim()}`);
    }
    return { head };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
