/**
 * Commit history for the native backend: a page of commits (optionally with what each changed) from one
 * `git log`, the size of a range from one `git rev-list --count`, and a commit's diff or patch from one process.
 */
import type { NativeGitRunner } from './native-runner.js';
import { FULL_HEX_ID, type CommitChange, type CommitListOptions, type CommitRangeOptions, type GitCommit, type RepoKey } from './backend.js';


/** Starts each commit's record; the header fields follow, each ended by NUL, the message last. */
const RECORD_START = '\x1e';
const LOG_FORMAT = `${RECORD_START}%H%x00%T%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B%x00`;
const HEADER_FIELDS = 10;
const NUMSTAT = /^(\d+|-)\t(\d+|-)\t/;
/** `--raw` status letters; with `--no-renames` only these appear (T, a type change, is a modification). */
const RAW_STATUS: Record<string, CommitChange['status']> = { A: 'added', D: 'removed' };

function checkRange(options: CommitRangeOptions): void {
  if (!FULL_HEX_ID.test(options.head) || (options.exclude !== undefined && !FULL_HEX_ID.test(options.exclude))) {
    throw new Error('commit ranges take full commit ids');
  }
  if (options.path !== undefined && (options.path === '' || options.path.includes('\0'))) throw new Error('invalid path filter');
}

/** Revision arguments and filters shared by `log` and `rev-list`; the path is a literal pathspec after `--`. */
function rangeArgs(options: CommitRangeOptions): string[] {
  const args: string[] = [];
  if (options.since) args.push(`--since=${options.since.toISOString()}`);
  if (options.until) args.push(`--until=${options.until.toISOString()}`);
  args.push('--end-of-options', options.head);
  if (options.exclude !== undefined) args.push(`^${options.exclude}`);
  args.push('--');
  if (options.path !== undefined) args.push(options.path);
  return args;
}

async function gitOut(backend: NativeGitRunner, key: RepoKey, args: string[]): Promise<Buffer> {
  const result = await backend.run(['--literal-pathspecs', '--git-dir', backend.pathOf(key), ...args]);
  if (result.code !== 0) throw new Error(`git ${args[0]} failed (${result.code}): ${result.stderr.trim()}`);
  return result.stdout;
}

/** Commits in a range (with its path and time filters). */
export async function countCommits(backend: NativeGitRunner, key: RepoKey, options: CommitRangeOptions): Promise<number> {
  checkRange(options);
  const out = await gitOut(backend, key, ['rev-list', '--count', ...rangeArgs(options)]);
  return Number(out.toString().trim()) || 0;
}

/**
 * One page of a range, newest first, from one `git log`. With `changes`, each commit carries the files it
 * changed against its first parent (all of them, even under a path filter, as Forgejo counts) with line counts.
 */
export async function listCommits(backend: NativeGitRunner, key: RepoKey, options: CommitListOptions): Promise<GitCommit[]> {
  checkRange(options);
  const args = ['log', '-z', `--format=${LOG_FORMAT}`, `--skip=${Math.max(0, Math.floor(options.skip))}`, `--max-count=${Math.max(0, Math.floor(options.limit))}`];
  if (options.changes) {
    args.push('--raw', '--numstat', '--no-renames', '--no-abbrev', '--diff-merges=first-parent');
    if (options.path !== undefined) args.push('--full-diff');
  }
  return parseLog(await gitOut(backend, key, [...args, ...rangeArgs(options)]), options.changes);
}

/** Reads `listCommits`' output: NUL-separated tokens, a record per commit, then its raw and numstat entries. */
export function parseLog(out: Buffer, withChanges: boolean): GitCommit[] {
  const commits: GitCommit[] = [];
  const tokens = out.toString('utf8').split('\0');
  let current: { commit: GitCommit; byPath: Map<string, CommitChange> } | undefined;
  let i = 0;
  while (i < tokens.length) {
    let token = tokens[i]!;
    if (token.startsWith('\n')) token = token.slice(1);
    if (token.startsWith(RECORD_START)) {
      const f = tokens.slice(i, i + HEADER_FIELDS);
      i += HEADER_FIELDS;
      if (f.length < HEADER_FIELDS) break;
      const commit: GitCommit = {
        id: f[0]!.replace(/^\n?\x1e/, ''),
        tree: f[1]!,
        parents: f[2] ? f[2].split(' ') : [],
        authorName: f[3]!,
        authorEmail: f[4]!,
        authorTime: f[5]!,
        committerName: f[6]!,
        committerEmail: f[7]!,
        committerTime: f[8]!,
        message: f[9]!,
      };
      if (withChanges) commit.changes = [];
      commits.push(commit);
      current = { commit, byPath: new Map() };
      continue;
    }
    if (current && token.startsWith(':')) {
      // `:<old mode> <new mode> <old id> <new id> <status>` then the path as the next token.
      const path = tokens[i + 1] ?? '';
      const letter = token.slice(token.lastIndexOf(' ') + 1, token.lastIndexOf(' ') + 2);
      const change: CommitChange = { path, status: RAW_STATUS[letter] ?? 'modified', additions: 0, deletions: 0 };
      current.commit.changes?.push(change);
      current.byPath.set(path, change);
      i += 2;
      continue;
    }
    const numstat = current && NUMSTAT.exec(token);
    if (current && numstat) {
      const path = token.slice(numstat[0].length);
      const change = current.byPath.get(path);
      if (change) {
        // Binary files count `-`: no lines.
        change.additions = Number(numstat[1]) || 0;
        change.deletions = Number(numstat[2]) || 0;
      }
    }
    i += 1;
  }
  return commits;
}

/**
 * A commit's changes as `git diff` shows them against its first parent (or the empty tree), or as the mail
 * `git format-patch` writes.
 */
export async function commitDiff(backend: NativeGitRunner, key: RepoKey, commit: string, format: 'diff' | 'patch'): Promise<Buffer> {
  if (!FULL_HEX_ID.test(commit)) throw new Error('commitDiff takes a full commit id');
  const args =
    format === 'diff'
      ? ['diff-tree', '-p', '-M', '--root', '--no-commit-id', '--diff-merges=first-parent', '--end-of-options', commit]
      : ['format-patch', '--no-signature', '--stdout', '--root', '-1', '--end-of-options', commit];
  return gitOut(backend, key, args);
}
