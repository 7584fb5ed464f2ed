import type { NativeGitRunner } from './native-runner.js';
import { FULL_HEX_ID, type IncomingCommit, type IncomingObjects, type RepoKey } from './backend.js';

/** git's empty tree, by object id length: a new branch's changes are counted from it. */
const EMPTY_TREE: Record<number, string> = {
  40: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  64: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

/** Only these variables of a hook's environment are passed on: they make a push's quarantined objects visible. */
const QUARANTINE_VARIABLES = ['GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_QUARANTINE_PATH'] as const;

function requireId(id: string): void {
  if (!FULL_HEX_ID.test(id)) throw new Error('incoming objects are read by full ids');
}

/**
 * Reads what a push brings while receive-pack waits for its pre-receive hook: every git command runs with the
 * hook's quarantine variables, so the objects not yet moved into the repository are visible.
 */
export function incomingObjects(git: NativeGitRunner, key: RepoKey, quarantine: Record<string, string>): IncomingObjects {
  const env: Record<string, string> = {};
  for (const name of QUARANTINE_VARIABLES) if (quarantine[name]) env[name] = quarantine[name]!;
  const dir = git.pathOf(key);
  const run = (args: string[], input?: string) => git.run(['--git-dir', dir, ...args], { env, input });
  return {
    async isAncestor(ancestor, descendant) {
      requireId(ancestor);
      requireId(descendant);
      const result = await run(['merge-base', '--is-ancestor', ancestor, descendant]);
      if (result.code === 0) return true;
      if (result.code === 1) return false;
      throw new Error(`git merge-base failed (${result.code}): ${result.stderr.trim()}`);
    },

    async changedPaths(from, to, limit) {
      requireId(to);
      if (from !== undefined) requireId(from);
      const base = from ?? EMPTY_TREE[to.length]!;
      const result = await run(['diff-tree', '-r', '-z', '--name-only', '--no-renames', '--no-commit-id', base, to]);
      if (result.code !== 0) throw new Error(`git diff-tree failed (${result.code}): ${result.stderr.trim()}`);
      return result.stdout.toString('utf8').split('\0').filter((p) => p !== '').slice(0, limit);
    },

    async newCommits(from, to, limit) {
      requireId(to);
      if (from !== undefined) requireId(from);
      // A new branch: the commits no existing ref reaches (Forgejo's `rev-list <new> --not --all`).
      const range = from === undefined ? [to, '--not', '--all'] : [to, `^${from}`];
      const listed = await run(['rev-list', `--max-count=${Math.max(1, limit)}`, ...range]);
      if (listed.code !== 0) throw new Error(`git rev-list failed (${listed.code}): ${listed.stderr.trim()}`);
      const ids = listed.stdout.toString().split('\n').filter((id) => FULL_HEX_ID.test(id));
      if (ids.length === 0) return [];
      const read = await run(['cat-file', '--batch'], ids.join('\n') + '\n');
      if (read.code !== 0) throw new Error(`git cat-file failed (${read.code}): ${read.stderr.trim()}`);
      return parseBatch(read.stdout);
    },
  };
}

/** `git cat-file --batch` output: `<id> <type> <size>\n<content>\n` per object. */
function parseBatch(out: Buffer): IncomingCommit[] {
  const commits: IncomingCommit[] = [];
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(10, at);
    if (eol < 0) break;
    const [id = '', type = '', size = ''] = out.subarray(at, eol).toString().split(' ');
    if (type === 'missing' || !/^\d+$/.test(size)) {
      at = eol + 1;
      continue;
    }
    const length = Number(size);
    const raw = out.subarray(eol + 1, eol + 1 + length);
    if (type === 'commit') commits.push({ id, raw: Buffer.from(raw) });
    at = eol + 1 + length + 1;
  }
  return commits;
}
