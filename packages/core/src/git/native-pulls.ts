import type { NativeGitRunner } from './native-runner.js';
import { FULL_HEX_ID, type ChangedFileEntry, type MergeTreeResult, type RepoKey } from './backend.js';

function assertIds(what: string, ...ids: string[]): void {
  for (const id of ids) if (!FULL_HEX_ID.test(id)) throw new Error(`${what} takes full commit ids`);
}

/** The best common ancestor of two commits; undefined when their histories are unrelated. */
export async function mergeBase(git: NativeGitRunner, key: RepoKey, a: string, b: string): Promise<string | undefined> {
  assertIds('mergeBase', a, b);
  const result = await git.run(['--git-dir', git.pathOf(key), 'merge-base', a, b]);
  if (result.code === 1) return undefined;
  if (result.code !== 0) throw new Error(`git merge-base failed (${result.code}): ${result.stderr.trim()}`);
  return result.stdout.toString().trim();
}

/**
 * A real merge of `theirs` into `ours` computed without a worktree (`git merge-tree --write-tree`): the tree it
 * would produce, and the paths that conflict. Nothing in the repository changes but new objects.
 */
export async function mergeTree(git: NativeGitRunner, key: RepoKey, ours: string, theirs: string): Promise<MergeTreeResult> {
  assertIds('mergeTree', ours, theirs);
  const result = await git.run(['--git-dir', git.pathOf(key), 'merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', ours, theirs]);
  // 0: clean; 1: conflicts. Anything else (unrelated histories among them) is no merge at all.
  if (result.code !== 0 && result.code !== 1) {
    return { conflicts: [], error: result.stderr.trim() || `git merge-tree exited with ${result.code}` };
  }
  const fields = result.stdout.toString('utf8').split('\0').filter((f) => f !== '');
  const tree = fields[0] ?? '';
  if (!FULL_HEX_ID.test(tree)) return { conflicts: [], error: 'git merge-tree wrote no tree' };
  const conflicts = result.code === 1 ? [...new Set(fields.slice(1))] : [];
  return { tree, conflicts };
}

const STATUS: Record<string, ChangedFileEntry['status']> = {
  A: 'added',
  D: 'deleted',
  M: 'changed',
  T: 'changed',
  R: 'renamed',
  C: 'copied',
};

/**
 * The files that differ between two commits (renames detected), with line counts; binary files count no lines.
 * Two passes over the same diff in one process each: the status list and the line counts.
 */
export async function changedFiles(git: NativeGitRunner, key: RepoKey, base: string, head: string, options: { ignoreWhitespace?: string } = {}): Promise<ChangedFileEntry[]> {
  assertIds('changedFiles', base, head);
  const whitespace = options.ignoreWhitespace ? [options.ignoreWhitespace] : [];
  const dir = git.pathOf(key);
  const [status, numstat] = await Promise.all([
    git.run(['--git-dir', dir, 'diff', '--no-ext-diff', '--no-color', '-M', '-z', '--name-status', ...whitespace, base, head]),
    git.run(['--git-dir', dir, 'diff', '--no-ext-diff', '--no-color', '-M', '-z', '--numstat', ...whitespace, base, head]),
  ]);
  if (status.code !== 0) throw new Error(`git diff --name-status failed: ${status.stderr.trim()}`);
  if (numstat.code !== 0) throw new Error(`git diff --numstat failed: ${numstat.stderr.trim()}`);

  const files: ChangedFileEntry[] = [];
  const s = status.stdout.toString('utf8').split('\0');
  for (let i = 0; i < s.length - 1; ) {
    const code = s[i++] ?? '';
    const kind = STATUS[code[0] ?? ''] ?? 'changed';
    if (kind === 'renamed' || kind === 'copied') {
      const previous = s[i++] ?? '';
      files.push({ path: s[i++] ?? '', previousPath: previous, status: kind, additions: 0, deletions: 0 });
    } else files.push({ path: s[i++] ?? '', status: kind, additions: 0, deletions: 0 });
  }
  const byPath = new Map(files.map((f) => [f.path, f]));
  const n = numstat.stdout.toString('utf8').split('\0');
  for (let i = 0; i < n.length - 1; ) {
    const [added = '-', deleted = '-', path = ''] = (n[i++] ?? '').split('\t');
    // A rename's record ends with an empty path, then the old and the new one.
    const name = path === '' ? (i++, n[i++] ?? '') : path;
    const file = byPath.get(name);
    if (!file) continue;
    file.additions = added === '-' ? 0 : Number(added);
    file.deletions = deleted === '-' ? 0 : Number(deleted);
  }
  return files;
}

/**
 * The changes of `head` since `base` as one diff (`git diff base head`) or as a mailbox of patches, one per
 * commit (`git format-patch base..head`).
 */
export async function diffRange(git: NativeGitRunner, key: RepoKey, base: string, head: string, format: 'diff' | 'patch', binary: boolean): Promise<Buffer> {
  assertIds('diffRange', base, head);
  const dir = git.pathOf(key);
  const args =
    format === 'diff'
      ? ['--git-dir', dir, 'diff', '--no-ext-diff', '--no-color', '-M', ...(binary ? ['--binary'] : []), base, head]
      : ['--git-dir', dir, 'format-patch', '--no-signature', '--stdout', ...(binary ? ['--binary'] : ['--no-binary']), `${base}..${head}`];
  const result = await git.run(args);
  if (result.code !== 0) throw new Error(`git ${args[2]} failed: ${result.stderr.trim()}`);
  return result.stdout;
}

/** Points `ref` of `target` at `commit`, whatever it held before (a pull request's head ref follows its branch). */
export async function storeCommitRef(git: NativeGitRunner, target: RepoKey, ref: string, commit: string): Promise<void> {
  assertIds('storeCommitRef', commit);
  if (!/^refs\/[A-Za-z0-9._/-]+$/.test(ref) || ref.includes('..')) throw new Error(`invalid ref name: ${ref}`);
  const result = await git.run(['--git-dir', git.pathOf(target), 'update-ref', ref, commit]);
  if (result.code !== 0) throw new Error(`git update-ref failed: ${result.stderr.trim()}`);
}
