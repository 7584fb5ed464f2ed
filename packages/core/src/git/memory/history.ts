/**
 * History over an in-memory repository, as `git log`/`rev-list` walk it: newest committer time first, commits
 * reachable from an excluded one left out, a path filter with git's default history simplification (a merge that
 * left the path as one parent had it follows only that parent). Also tree diffs and line counts for what a commit
 * changed.
 */
import type { MemoryRepository } from './repository.js';
import type { ParsedCommit, TreeItem } from './objects.js';

export interface WalkedCommit {
  id: string;
  commit: ParsedCommit;
}

export interface WalkOptions {
  heads: readonly string[];
  exclude?: readonly string[];
  /** Only commits that change this path (git's pathspec, taken literally). */
  path?: string;
  /** Committer time bounds, in seconds. */
  since?: number;
  until?: number;
  /**
   * No simplification under a path filter (git's `--full-history`, which `--diff-merges=first-parent` implies): a
   * merge is shown when the path differs from any parent, and every parent is followed.
   */
  fullHistory?: boolean;
}

/** Every commit reachable from `starts` (inclusive). */
export async function reachable(repo: MemoryRepository, starts: readonly string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  const stack = [...starts];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    const commit = await repo.commit(id);
    if (!commit) continue;
    seen.add(id);
    stack.push(...commit.parents);
  }
  return seen;
}

/** The id of what `path` is in a commit's tree (a blob, a tree or a submodule), or undefined when it is absent. */
async function pathId(repo: MemoryRepository, commit: ParsedCommit, path: string): Promise<string | undefined> {
  return (await repo.entryAt(commit.tree, path))?.id;
}

/**
 * Walks history newest first (a queue ordered by committer time, as git's default order). Rejects when a head is
 * not a commit, as `git log` does.
 */
export async function* walk(repo: MemoryRepository, options: WalkOptions): AsyncGenerator<WalkedCommit> {
  const excluded = options.exclude && options.exclude.length > 0 ? await reachable(repo, options.exclude) : new Set<string>();
  const queue: WalkedCommit[] = [];
  const queued = new Set<string>();
  const push = async (id: string, required: boolean) => {
    if (queued.has(id) || excluded.has(id)) return;
    const commit = await repo.commit(id);
    if (!commit) {
      if (required) throw new Error(`bad revision ${id}`);
      return;
    }
    queued.add(id);
    // Insertion keeps the queue sorted: newest committer time first, earlier insertions first among equals.
    let at = queue.length;
    while (at > 0 && queue[at - 1]!.commit.committer.seconds < commit.committer.seconds) at--;
    queue.splice(at, 0, { id, commit });
  };
  for (const head of options.heads) await push(head, true);
  while (queue.length > 0) {
    const next = queue.shift()!;
    const { commit } = next;
    let parents = commit.parents;
    let show = true;
    if (options.path !== undefined) {
      const mine = await pathId(repo, commit, options.path);
      if (parents.length === 0) show = mine !== undefined;
      else {
        const theirs = await Promise.all(parents.map(async (p) => {
          const parent = await repo.commit(p);
          return parent ? pathId(repo, parent, options.path!) : undefined;
        }));
        const same = theirs.findIndex((id) => id === mine);
        if (options.fullHistory) show = theirs.some((id) => id !== mine);
        else if (same >= 0) {
          show = false;
          // git's simplification: a merge follows the parent it took the path from.
          if (parents.length > 1) parents = [parents[same]!];
        }
      }
    }
    if (options.since !== undefined && commit.committer.seconds < options.since) show = false;
    if (options.until !== undefined && commit.committer.seconds > options.until) show = false;
    for (const parent of parents) await push(parent, false);
    if (show) yield next;
  }
}

/** One path's change between two trees. */
export interface TreeChange {
  path: string;
  status: 'added' | 'removed' | 'modified';
  oldId?: string;
  newId?: string;
  oldMode?: string;
  newMode?: string;
}

/** Files (blobs and submodules) that differ between two trees (undefined: the empty tree), in git's path order. */
export async function diffTrees(repo: MemoryRepository, from: string | undefined, to: string | undefined, prefix = ''): Promise<TreeChange[]> {
  if (from === to) return [];
  const [a, b] = await Promise.all([from ? repo.tree(from) : [], to ? repo.tree(to) : []]);
  const left = new Map((a ?? []).map((item) => [item.name, item]));
  const right = new Map((b ?? []).map((item) => [item.name, item]));
  const names = [...new Set([...left.keys(), ...right.keys()])].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
  const changes: TreeChange[] = [];
  const isTree = (item: TreeItem | undefined) => item?.mode === '040000';
  for (const name of names) {
    const old = left.get(name);
    const now = right.get(name);
    const path = prefix + name;
    if (old && now && old.id === now.id && old.mode === now.mode) continue;
    if (isTree(old) || isTree(now)) {
      // A folder on either side is compared as one; a file that became a folder is a removal and additions.
      if (old && !isTree(old)) changes.push({ path, status: 'removed', oldId: old.id, oldMode: old.mode });
      changes.push(...(await diffTrees(repo, isTree(old) ? old!.id : undefined, isTree(now) ? now!.id : undefined, `${path}/`)));
      if (now && !isTree(now)) changes.push({ path, status: 'added', newId: now.id, newMode: now.mode });
      continue;
    }
    if (!old) changes.push({ path, status: 'added', newId: now!.id, newMode: now!.mode });
    else if (!now) changes.push({ path, status: 'removed', oldId: old.id, oldMode: old.mode });
    else changes.push({ path, status: 'modified', oldId: old.id, newId: now.id, oldMode: old.mode, newMode: now.mode });
  }
  return changes;
}

/** git's binary test: a NUL in the first 8000 bytes. */
export function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}

function splitLines(content: Buffer): string[] {
  if (content.length === 0) return [];
  const lines = content.toString('latin1').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Lines added and removed between two texts (Myers' shortest edit script), as `git diff --numstat` counts them. */
export function lineCounts(before: Buffer, after: Buffer): { additions: number; deletions: number } {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if (n === 0 || m === 0) return { additions: m, deletions: n };
  // Furthest-reaching D-paths; the edit distance D is the number of lines added plus removed.
  const max = n + m;
  const v = new Int32Array(2 * max + 2);
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[max + k - 1]! < v[max + k + 1]!) ? v[max + k + 1]! : v[max + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[start + x] === b[start + y]) {
        x++;
        y++;
      }
      v[max + k] = x;
      if (x >= n && y >= m) {
        // d = additions + deletions and m - n = additions - deletions.
        return { additions: (d + m - n) / 2, deletions: (d - m + n) / 2 };
      }
    }
  }
  return { additions: m, deletions: n };
}

/** Line counts of one change (0 and 0 for binary files and submodules, as git's `-` reads). */
export async function changeCounts(repo: MemoryRepository, change: TreeChange): Promise<{ additions: number; deletions: number }> {
  const blob = async (id: string | undefined, mode: string | undefined) => {
    if (!id || mode === '160000') return Buffer.alloc(0);
    const found = await repo.read(id);
    return found?.type === 'blob' ? found.content : Buffer.alloc(0);
  };
  if (change.oldMode === '160000' || change.newMode === '160000') return { additions: 0, deletions: 0 };
  const [before, after] = await Promise.all([blob(change.oldId, change.oldMode), blob(change.newId, change.newMode)]);
  if (isBinary(before) || isBinary(after)) return { additions: 0, deletions: 0 };
  return lineCounts(before, after);
}

/** The best common ancestors of two commits (git's merge base: common ancestors no other common one descends from). */
export async function mergeBases(repo: MemoryRepository, a: string, b: string): Promise<string[]> {
  const [fromA, fromB] = await Promise.all([reachable(repo, [a]), reachable(repo, [b])]);
  const common = [...fromA].filter((id) => fromB.has(id));
  if (common.length <= 1) return common;
  // A common ancestor that is a proper ancestor of another common one is not a best one: one walk from all parents.
  const parents: string[] = [];
  for (const id of common) parents.push(...((await repo.commit(id))?.parents ?? []));
  const notBest = await reachable(repo, parents);
  const best = common.filter((id) => !notBest.has(id));
  // git answers with the newest when there are several.
  const times = await Promise.all(best.map(async (id) => (await repo.commit(id))?.committer.seconds ?? 0));
  return best.map((id, i) => ({ id, time: times[i]! })).sort((x, y) => y.time - x.time).map((x) => x.id);
}
