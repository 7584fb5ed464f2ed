/**
 * The git backend contract: one suite, run against the native backend (bare repositories on disk, the `git`
 * binary) and the in-memory one (isomorphic-git over memfs). Both must give the same answers, down to object ids:
 * the same input makes the same commits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  BranchMovedError,
  MemoryGitBackend,
  NativeGitBackend,
  NotSupportedError,
  RefConflictError,
  RepositoryExistsError,
  MEMORY_UNSUPPORTED,
  type GitBackend,
  type RepoKey,
} from '@repohost/core';

const ZERO = '0'.repeat(40);
const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 12, minute));
const alice = (minute: number) => ({ name: 'Alice', email: 'alice@example.com', when: at(minute), offset: '+0200' });
const bytes = (text: string) => Buffer.from(text, 'utf8');

interface BackendCase {
  name: string;
  open(): Promise<{ git: GitBackend; cleanup(): Promise<void> }>;
}

const BACKENDS: BackendCase[] = [
  {
    name: 'native',
    open: async () => {
      const root = await mkdtemp(path.join(tmpdir(), 'repohost-contract-'));
      const git = new NativeGitBackend({ root });
      return {
        git,
        cleanup: async () => {
          git.close();
          await rm(root, { recursive: true, force: true });
        },
      };
    },
  },
  { name: 'memory', open: async () => ({ git: new MemoryGitBackend(), cleanup: async () => {} }) },
];

/**
 * The history every case reads, the same on both backends:
 *
 *   c1 (README.md, src/a.txt) ─ c2 (src/a.txt changed, src/b.txt added) ─ c4 (merge of c3) ← main
 *                              └ c3 (docs/guide.md added, README.md changed) ← feature
 */
interface History {
  c1: string;
  c2: string;
  c3: string;
  c4: string;
}

// No database here: the suite runs once, in the SQLite pass.
describe.skipIf(process.env.REPOHOST_TEST_DB === 'postgres').each(BACKENDS)('git backend contract: $name', (backend) => {
  let git: GitBackend;
  let cleanup: () => Promise<void>;
  const key: RepoKey = { owner: 'alice', name: 'demo' };
  let h: History;

  beforeAll(async () => {
    ({ git, cleanup } = await backend.open());
    await git.create(key, { objectFormat: 'sha1', defaultBranch: 'main' });
    const c1 = await git.commitFiles(key, {
      branch: 'main',
      message: 'Initial commit\n',
      author: { name: 'Alice', email: 'alice@example.com', when: at(0) },
      files: [
        { path: 'README.md', content: '# demo\n' },
        { path: 'src/a.txt', content: 'one\ntwo\nthree\n' },
      ],
    });
    const c2 = (
      await git.changeFiles(key, {
        branch: 'main',
        objectFormat: 'sha1',
        parent: c1,
        expectedOldId: c1,
        changes: [
          { path: 'src/a.txt', content: bytes('one\n2\nthree\nfour\n') },
          { path: 'src/b.txt', content: bytes('bee\n'), mode: '100755' },
        ],
        message: 'Change a, add b\n',
        author: alice(1),
        committer: alice(1),
      })
    ).commit;
    const c3 = (
      await git.changeFiles(key, {
        branch: 'feature',
        objectFormat: 'sha1',
        parent: c1,
        changes: [
          { path: 'docs/guide.md', content: bytes('guide\n') },
          { path: 'README.md', content: bytes('# demo\n\nMore.\n') },
        ],
        message: 'Add a guide\n',
        author: alice(2),
        committer: alice(2),
      })
    ).commit;
    const merged = await git.mergeBase(key, c2, c3);
    expect(merged).toBe(c1);
    // The merge's tree: main's files with the feature's guide and README.
    const tree = (
      await git.changeFiles(key, {
        branch: 'scratch',
        objectFormat: 'sha1',
        parent: c2,
        changes: [
          { path: 'docs/guide.md', content: bytes('guide\n') },
          { path: 'README.md', content: bytes('# demo\n\nMore.\n') },
        ],
        message: 'scratch\n',
        author: alice(3),
        committer: alice(3),
      })
    ).tree;
    const c4 = await git.commitTree(key, { tree, parents: [c2, c3], message: "Merge branch 'feature'", author: alice(4), committer: alice(4) });
    const scratch = (await git.readRefs(key, ['refs/heads/scratch'])).get('refs/heads/scratch')!;
    await git.updateRefs(key, [
      { ref: 'refs/heads/main', oldId: c2, newId: c4 },
      { ref: 'refs/heads/scratch', oldId: scratch, newId: ZERO },
    ]);
    h = { c1, c2, c3, c4 };
  });
  afterAll(async () => cleanup());

  it('makes the same objects as git for the same input', () => {
    // Ids fixed by content: both backends write byte-identical commits and trees.
    expect(h).toEqual({
      c1: HISTORY_IDS.c1,
      c2: HISTORY_IDS.c2,
      c3: HISTORY_IDS.c3,
      c4: HISTORY_IDS.c4,
    });
  });

  it('creates, lists, describes, renames and removes repositories', async () => {
    const other: RepoKey = { owner: 'bob', name: 'tmp' };
    await git.create(other, { objectFormat: 'sha1', defaultBranch: 'trunk' });
    await expect(git.create(other, { objectFormat: 'sha1', defaultBranch: 'trunk' })).rejects.toBeInstanceOf(RepositoryExistsError);
    expect(await git.exists(other)).toBe(true);
    expect(await git.isEmpty(other)).toBe(true);
    expect(await git.firstBranch(other)).toBeUndefined();
    expect(await git.describe(other)).toEqual({ objectFormat: 'sha1', headBranch: 'trunk' });
    await git.setDefaultBranch(other, 'main');
    expect((await git.describe(other)).headBranch).toBe('main');
    expect((await git.list()).map((k) => `${k.owner}/${k.name}`).sort()).toEqual(['alice/demo', 'bob/tmp']);

    await expect(git.rename(other, key)).rejects.toBeInstanceOf(RepositoryExistsError);
    const moved: RepoKey = { owner: 'carol', name: 'moved' };
    await git.rename(other, moved);
    expect(await git.exists(other)).toBe(false);
    expect(await git.exists(moved)).toBe(true);
    expect(await git.renameOwner('carol', 'dave')).toBe(true);
    expect(await git.exists({ owner: 'dave', name: 'moved' })).toBe(true);
    expect(await git.renameOwner('nobody', 'erin')).toBe(false);
    await git.remove({ owner: 'dave', name: 'moved' });
    await git.remove({ owner: 'dave', name: 'moved' });
    expect(await git.exists({ owner: 'dave', name: 'moved' })).toBe(false);
    await git.collectGarbage();
  });

  it('reads refs, exactly by name and by prefix', async () => {
    const refs = await git.readRefs(key, ['refs/heads/main', 'refs/heads/feature', 'refs/heads/nope', 'refs/heads']);
    expect(Object.fromEntries(refs)).toEqual({ 'refs/heads/main': h.c4, 'refs/heads/feature': h.c3 });
    expect(await git.listRefs(key, 'refs/heads/')).toEqual([
      { ref: 'refs/heads/feature', id: h.c3, type: 'commit' },
      { ref: 'refs/heads/main', id: h.c4, type: 'commit' },
    ]);
    expect(await git.listRefs(key, 'refs/heads/ma')).toEqual([{ ref: 'refs/heads/main', id: h.c4, type: 'commit' }]);
    expect(await git.isEmpty(key)).toBe(false);
    expect(await git.firstBranch(key)).toBe('feature');
    expect(await git.size(key)).toBeGreaterThan(0);
  });

  it('resolves revisions as git does', async () => {
    expect(await git.resolveCommit(key, 'main')).toBe(h.c4);
    expect(await git.resolveCommit(key, 'refs/heads/feature')).toBe(h.c3);
    expect(await git.resolveCommit(key, 'main~1')).toBe(h.c2);
    expect(await git.resolveCommit(key, 'main^2')).toBe(h.c3);
    expect(await git.resolveCommit(key, 'main~2')).toBe(h.c1);
    expect(await git.resolveCommit(key, h.c2.slice(0, 10))).toBe(h.c2);
    expect(await git.resolveCommit(key, 'HEAD')).toBe(h.c4);
    expect(await git.resolveCommit(key, 'nope')).toBeUndefined();
    expect(await git.resolveCommit(key, '--all')).toBeUndefined();
    expect(await git.resolveCommit(key, 'main~9')).toBeUndefined();

    const tree = await git.resolveRevision(key, 'main^{tree}');
    expect(tree?.type).toBe('tree');
    const file = await git.resolveRevision(key, 'main:src/a.txt');
    expect(file).toEqual({ id: expect.stringMatching(/^[0-9a-f]{40}$/), type: 'blob', size: 'one\n2\nthree\nfour\n'.length });
    expect(await git.resolveRevision(key, 'main:src')).toMatchObject({ type: 'tree' });
    expect(await git.resolveRevision(key, 'main:missing')).toBeUndefined();
    expect(await git.resolveRevision(key, 'main@{1}')).toBeUndefined();
  });

  it('reads objects whole, cut at a limit, and many at once', async () => {
    const blob = await git.readObject(key, 'feature:docs/guide.md');
    expect(blob).toMatchObject({ type: 'blob', size: 6, truncated: false });
    expect(blob!.content.toString()).toBe('guide\n');
    const cut = await git.readObject(key, 'main:src/a.txt', { maxBytes: 3 });
    expect(cut).toMatchObject({ size: 17, truncated: true });
    expect(cut!.content.toString()).toBe('one');
    const commit = await git.readObject(key, h.c2);
    expect(commit?.type).toBe('commit');
    expect(commit!.content.toString()).toBe(
      [
        `tree ${(await git.resolveRevision(key, `${h.c2}^{tree}`))!.id}`,
        `parent ${h.c1}`,
        'author Alice <alice@example.com> 1704110460 +0200',
        'committer Alice <alice@example.com> 1704110460 +0200',
        '',
        'Change a, add b\n',
      ].join('\n'),
    );
    const many = await git.readObjects(key, ['main:README.md', 'nope', 'main:src/b.txt']);
    expect(many.map((o) => o?.content.toString())).toEqual(['# demo\n\nMore.\n', undefined, 'bee\n']);
  });

  it('lists trees, recursively and by page', async () => {
    const top = await git.readTree(key, 'main');
    expect(top?.entries.map((e) => [e.path, e.type, e.mode])).toEqual([
      ['README.md', 'blob', '100644'],
      ['docs', 'tree', '040000'],
      ['src', 'tree', '040000'],
    ]);
    expect(top?.entries[0]?.size).toBe(14);
    const all = await git.readTree(key, h.c4, { recursive: true });
    expect(all?.entries.map((e) => e.path)).toEqual(['README.md', 'docs', 'docs/guide.md', 'src', 'src/a.txt', 'src/b.txt']);
    expect(all?.entries.find((e) => e.path === 'src/b.txt')?.mode).toBe('100755');
    const page = await git.readTree(key, 'main', { recursive: true, offset: 2, limit: 2, sizes: false });
    expect(page).toMatchObject({ total: 6, entries: [{ path: 'docs/guide.md', size: 0 }, { path: 'src' }] });
    const sub = await git.readTree(key, 'main:src');
    expect(sub?.entries.map((e) => e.path)).toEqual(['a.txt', 'b.txt']);
    expect(await git.readTree(key, 'main:README.md')).toBeUndefined();
    expect(await git.readTree(key, 'nope')).toBeUndefined();
    expect(await git.listFiles(key, h.c4)).toEqual([
      { path: 'README.md', size: 14 },
      { path: 'docs/guide.md', size: 6 },
      { path: 'src/a.txt', size: 17 },
      { path: 'src/b.txt', size: 4 },
    ]);
  });

  it('walks history newest first, with ranges and path filters', async () => {
    const log = await git.commitLog(key, { head: h.c4, detailed: 2, countLimit: 100 });
    expect(log.count).toBe(4);
    expect(log.commits.map((c) => c.id)).toEqual([h.c4, h.c3]);
    expect(log.commits[1]).toEqual({
      id: h.c3,
      parents: [h.c1],
      message: 'Add a guide\n',
      authorName: 'Alice',
      authorEmail: 'alice@example.com',
      authorTime: '2024-01-01T14:02:00+02:00',
      committerName: 'Alice',
      committerEmail: 'alice@example.com',
    });
    expect((await git.commitLog(key, { head: h.c4, exclude: h.c3, detailed: 10, countLimit: 100 })).commits.map((c) => c.id)).toEqual([h.c4, h.c2]);
    expect((await git.commitLog(key, { head: h.c4, detailed: 0, countLimit: 2 })).count).toBe(2);

    expect(await git.countCommits(key, { head: h.c4 })).toBe(4);
    expect(await git.countCommits(key, { head: h.c4, exclude: h.c2 })).toBe(2);
    expect(await git.countCommits(key, { head: h.c4, path: 'src' })).toBe(2);
    expect(await git.countCommits(key, { head: h.c4, path: 'src/' })).toBe(2);
    expect(await git.countCommits(key, { head: h.c4, since: at(2) })).toBe(2);

    const all = await git.listCommits(key, { head: h.c4, skip: 0, limit: 10, changes: false });
    expect(all.map((c) => c.id)).toEqual([h.c4, h.c3, h.c2, h.c1]);
    expect(all[2]).toMatchObject({ parents: [h.c1], committerTime: '2024-01-01T14:01:00+02:00', authorTime: '2024-01-01T14:01:00+02:00' });
    // The merge took README.md from feature: git's simplification follows that parent only.
    const readme = await git.listCommits(key, { head: h.c4, path: 'README.md', skip: 0, limit: 10, changes: false });
    expect(readme.map((c) => c.id)).toEqual([h.c3, h.c1]);
    const page = await git.listCommits(key, { head: h.c4, skip: 1, limit: 2, changes: true });
    expect(page.map((c) => c.id)).toEqual([h.c3, h.c2]);
    expect(page[0]!.changes).toEqual([
      { path: 'README.md', status: 'modified', additions: 2, deletions: 0 },
      { path: 'docs/guide.md', status: 'added', additions: 1, deletions: 0 },
    ]);
    expect(page[1]!.changes).toEqual([
      { path: 'src/a.txt', status: 'modified', additions: 2, deletions: 1 },
      { path: 'src/b.txt', status: 'added', additions: 1, deletions: 0 },
    ]);
    // With changes, git walks the path's full history (`--diff-merges=first-parent`): the merge differs from c2.
    const merge = await git.listCommits(key, { head: h.c4, path: 'docs', skip: 0, limit: 10, changes: true });
    expect(merge.map((c) => c.id)).toEqual([h.c4, h.c3]);
    expect(merge[0]!.changes).toEqual([
      { path: 'README.md', status: 'modified', additions: 2, deletions: 0 },
      { path: 'docs/guide.md', status: 'added', additions: 1, deletions: 0 },
    ]);
    await expect(git.listCommits(key, { head: 'f'.repeat(40), skip: 0, limit: 1, changes: false })).rejects.toThrow();
  });

  it('answers ancestry and merge bases', async () => {
    expect(await git.isAncestor(key, h.c1, h.c4)).toBe(true);
    expect(await git.isAncestor(key, h.c3, h.c4)).toBe(true);
    expect(await git.isAncestor(key, h.c4, h.c3)).toBe(false);
    expect(await git.isAncestor(key, h.c2, h.c3)).toBe(false);
    expect(await git.mergeBase(key, h.c2, h.c3)).toBe(h.c1);
    expect(await git.mergeBase(key, h.c4, h.c3)).toBe(h.c3);
    const lone = await git.commitFiles(key, { branch: 'lone', message: 'lone\n', author: alice(9), files: [{ path: 'x', content: 'x' }] });
    expect(await git.mergeBase(key, lone, h.c4)).toBeUndefined();
    await git.updateRefs(key, [{ ref: 'refs/heads/lone', oldId: lone, newId: ZERO }]);
  });

  it('merges trees without a worktree, naming conflicts', async () => {
    const c4Tree = (await git.resolveRevision(key, `${h.c4}^{tree}`))!.id;
    expect(await git.mergeTree(key, h.c2, h.c3)).toEqual({ tree: c4Tree, conflicts: [] });
    expect(await git.mergeTree(key, h.c4, h.c3)).toEqual({ tree: c4Tree, conflicts: [] });
    expect((await git.mergeTree(key, h.c1, h.c2)).tree).toBe((await git.resolveRevision(key, `${h.c2}^{tree}`))!.id);
    // Both sides change a.txt, in different places: merged line by line.
    const edit = async (branch: string, parent: string, text: string, minute: number) =>
      (await git.changeFiles(key, { branch, objectFormat: 'sha1', parent, changes: [{ path: 'src/a.txt', content: bytes(text) }], message: `${branch}\n`, author: alice(minute), committer: alice(minute) })).commit;
    const top = await edit('m-top', h.c2, 'ONE\n2\nthree\nfour\n', 10);
    const bottom = await edit('m-bottom', h.c2, 'one\n2\nthree\nFOUR\n', 11);
    const clean = await git.mergeTree(key, top, bottom);
    expect(clean.conflicts).toEqual([]);
    expect((await git.readObject(key, `${clean.tree}:src/a.txt`))?.content.toString()).toBe('ONE\n2\nthree\nFOUR\n');
    const clash = await edit('m-clash', h.c2, 'uno\n2\nthree\nfour\n', 12);
    const conflicted = await git.mergeTree(key, top, clash);
    expect(conflicted.conflicts).toEqual(['src/a.txt']);
    expect(conflicted.tree).toMatch(/^[0-9a-f]{40}$/);
    const lone = await git.commitFiles(key, { branch: 'm-lone', message: 'lone\n', author: alice(13), files: [{ path: 'x', content: 'x' }] });
    expect(await git.mergeTree(key, h.c4, lone)).toMatchObject({ conflicts: [], error: expect.any(String) });
    const branches = ['m-top', 'm-bottom', 'm-clash', 'm-lone'];
    const ids = await git.readRefs(key, branches.map((b) => `refs/heads/${b}`));
    await git.updateRefs(key, [...ids].map(([ref, id]) => ({ ref, oldId: id, newId: ZERO })));
  });

  it('moves refs only from their expected old values, all or nothing', async () => {
    await git.updateRefs(key, [{ ref: 'refs/tags/v1', oldId: ZERO, newId: h.c1 }]);
    // One update's old value is wrong: neither moves.
    await expect(
      git.updateRefs(key, [
        { ref: 'refs/heads/feature', oldId: h.c3, newId: h.c4 },
        { ref: 'refs/tags/v1', oldId: h.c2, newId: h.c2 },
      ]),
    ).rejects.toBeInstanceOf(RefConflictError);
    // Creating a ref that exists is refused too.
    await expect(git.updateRefs(key, [{ ref: 'refs/tags/v1', oldId: ZERO, newId: h.c2 }])).rejects.toBeInstanceOf(RefConflictError);
    expect(Object.fromEntries(await git.readRefs(key, ['refs/heads/feature', 'refs/tags/v1']))).toEqual({ 'refs/heads/feature': h.c3, 'refs/tags/v1': h.c1 });
    await expect(git.updateRefs(key, [{ ref: 'refs/heads/bad name', oldId: ZERO, newId: h.c1 }])).rejects.toThrow();

    // A moved branch refuses a change made from where it was.
    await expect(
      git.changeFiles(key, {
        branch: 'feature',
        objectFormat: 'sha1',
        parent: h.c1,
        expectedOldId: h.c1,
        changes: [{ path: 'x', content: bytes('x') }],
        message: 'late\n',
        author: alice(5),
        committer: alice(5),
      }),
    ).rejects.toBeInstanceOf(BranchMovedError);
    expect((await git.readRefs(key, ['refs/heads/feature'])).get('refs/heads/feature')).toBe(h.c3);

    await git.updateRefs(key, [{ ref: 'refs/tags/v1', oldId: h.c1, newId: ZERO }]);
    expect((await git.readRefs(key, ['refs/tags/v1'])).size).toBe(0);

    // `a` and `a/b` cannot both exist; once `a/b` is gone, `a` can.
    await git.updateRefs(key, [{ ref: 'refs/heads/nest/inner', oldId: ZERO, newId: h.c1 }]);
    await expect(git.updateRefs(key, [{ ref: 'refs/heads/nest', oldId: ZERO, newId: h.c1 }])).rejects.toBeInstanceOf(RefConflictError);
    await expect(git.updateRefs(key, [{ ref: 'refs/heads/nest/inner/deeper', oldId: ZERO, newId: h.c1 }])).rejects.toBeInstanceOf(RefConflictError);
    await git.updateRefs(key, [{ ref: 'refs/heads/nest/inner', oldId: h.c1, newId: ZERO }]);
    await git.updateRefs(key, [{ ref: 'refs/heads/nest', oldId: ZERO, newId: h.c1 }]);
    await git.updateRefs(key, [{ ref: 'refs/heads/nest', oldId: h.c1, newId: ZERO }]);

    // Two updates racing from the same old value: one moves the ref, the other is refused.
    await git.updateRefs(key, [{ ref: 'refs/heads/race', oldId: ZERO, newId: h.c1 }]);
    const raced = await Promise.allSettled([
      git.updateRefs(key, [{ ref: 'refs/heads/race', oldId: h.c1, newId: h.c2 }]),
      git.updateRefs(key, [{ ref: 'refs/heads/race', oldId: h.c1, newId: h.c3 }]),
    ]);
    expect(raced.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = raced.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused?.reason).toBeInstanceOf(RefConflictError);
    const winner = raced[0]!.status === 'fulfilled' ? h.c2 : h.c3;
    expect((await git.readRefs(key, ['refs/heads/race'])).get('refs/heads/race')).toBe(winner);
    await git.updateRefs(key, [{ ref: 'refs/heads/race', oldId: winner, newId: ZERO }]);
  });

  it('lists branches and tags with their commits, in Forgejo order', async () => {
    const tag = await git.writeAnnotatedTag(key, { name: 'v2', target: h.c2, message: 'Second  \n\n\nrelease\n\n', tagger: { name: 'Alice', email: 'alice@example.com', when: at(30) } });
    const tagObject = await git.readObject(key, tag);
    expect(tagObject?.content.toString()).toBe(`object ${h.c2}\ntype commit\ntag v2\ntagger Alice <alice@example.com> 1704112200 +0000\n\nSecond\n\nrelease\n`);
    await git.updateRefs(key, [
      { ref: 'refs/tags/v2', oldId: ZERO, newId: tag },
      { ref: 'refs/tags/light', oldId: ZERO, newId: h.c4 },
      { ref: 'refs/tags/v1', oldId: ZERO, newId: h.c1 },
    ]);
    const branches = await git.refDetails(key, 'branches', { offset: 0, limit: 10 });
    expect(branches.total).toBe(2);
    expect(branches.refs.map((r) => r.ref)).toEqual(['refs/heads/main', 'refs/heads/feature']);
    expect(branches.refs[0]).toEqual({
      ref: 'refs/heads/main',
      id: h.c4,
      type: 'commit',
      commit: {
        id: h.c4,
        message: "Merge branch 'feature'\n",
        authorName: 'Alice',
        authorEmail: 'alice@example.com',
        authorTime: '2024-01-01T14:04:00+02:00',
        committerName: 'Alice',
        committerEmail: 'alice@example.com',
        committerTime: '2024-01-01T14:04:00+02:00',
      },
    });
    const tags = await git.refDetails(key, 'tags', { offset: 0, limit: 10 });
    // Annotated first (by their commit's date), then lightweight ones by name.
    expect(tags.refs.map((r) => r.ref)).toEqual(['refs/tags/v2', 'refs/tags/light', 'refs/tags/v1']);
    expect(tags.refs[0]).toMatchObject({
      id: tag,
      type: 'tag',
      tag: { taggerName: 'Alice', taggerEmail: 'alice@example.com', taggerTime: '2024-01-01T12:30:00+00:00', message: 'Second\n\nrelease\n' },
      commit: { id: h.c2 },
    });
    const named = await git.refDetails(key, 'tags', { names: ['v1', 'nope', 'v1', 'bad name'] });
    expect(named).toMatchObject({ total: 1, refs: [{ ref: 'refs/tags/v1', commit: { id: h.c1 } }] });
    const second = await git.refDetails(key, 'tags', { offset: 1, limit: 1 });
    expect(second).toMatchObject({ total: 3, refs: [{ ref: 'refs/tags/light' }] });
    expect(await git.resolveCommit(key, 'v2')).toBe(h.c2);
    expect((await git.resolveRevision(key, 'v2'))?.type).toBe('tag');
    await git.updateRefs(key, [
      { ref: 'refs/tags/v2', oldId: tag, newId: ZERO },
      { ref: 'refs/tags/light', oldId: h.c4, newId: ZERO },
      { ref: 'refs/tags/v1', oldId: h.c1, newId: ZERO },
    ]);
  });

  it('reads contents with their last commits', async () => {
    const file = await git.readContents(key, { commit: h.c4, path: 'src/a.txt', maxBlobSize: 1024 });
    expect(file?.entry).toMatchObject({ name: 'a.txt', path: 'src/a.txt', type: 'blob', size: 17, lastCommit: { id: h.c2, when: '2024-01-01T14:01:00+02:00' } });
    expect(file?.entry.content?.toString()).toBe('one\n2\nthree\nfour\n');
    const big = await git.readContents(key, { commit: h.c4, path: 'src/a.txt', maxBlobSize: 4 });
    expect(big?.entry.content).toBeUndefined();
    const root = await git.readContents(key, { commit: h.c4, path: '', maxBlobSize: 1024 });
    expect(root?.entry).toMatchObject({ type: 'tree', path: '' });
    expect(root?.children?.map((c) => [c.path, c.lastCommit?.id])).toEqual([
      ['README.md', h.c3],
      ['docs', h.c3],
      ['src', h.c2],
    ]);
    const src = await git.readContents(key, { commit: h.c4, path: 'src', maxBlobSize: 1024 });
    expect(src?.children?.map((c) => [c.name, c.mode, c.lastCommit?.id])).toEqual([
      ['a.txt', '100644', h.c2],
      ['b.txt', '100755', h.c2],
    ]);
    expect(await git.readContents(key, { commit: h.c4, path: 'missing', maxBlobSize: 1 })).toBeUndefined();
    expect(await git.lastCommitOf(key, h.c4, 'README.md')).toEqual({ id: h.c3, when: '2024-01-01T14:02:00+02:00', authorWhen: '2024-01-01T14:02:00+02:00' });
    expect(await git.lastCommitOf(key, h.c4, 'missing')).toBeUndefined();
    const stats = await git.statPaths(key, h.c4, ['src/b.txt', 'docs', 'missing']);
    expect([...stats.keys()].sort()).toEqual(['docs', 'src/b.txt']);
    expect(stats.get('src/b.txt')).toMatchObject({ name: 'b.txt', mode: '100755', type: 'blob', size: 4 });
  });

  it('diffs two commits by file, with renames of unchanged content', async () => {
    const moved = await git.changeFiles(key, {
      branch: 'moves',
      objectFormat: 'sha1',
      parent: h.c4,
      changes: [{ path: 'src/b.txt' }, { path: 'lib/b.txt', content: bytes('bee\n') }, { path: 'docs/guide.md', content: bytes('guide\nmore\n') }],
      message: 'Move b\n',
      author: alice(6),
      committer: alice(6),
    });
    expect(await git.changedFiles(key, h.c4, moved.commit)).toEqual([
      { path: 'docs/guide.md', status: 'changed', additions: 1, deletions: 0 },
      { path: 'lib/b.txt', previousPath: 'src/b.txt', status: 'renamed', additions: 0, deletions: 0 },
    ]);
    const changed = await git.incoming(key, {}).changedPaths(h.c4, moved.commit, 10);
    expect(changed.sort()).toEqual(['docs/guide.md', 'lib/b.txt', 'src/b.txt']);
    const fresh = await git.incoming(key, {}).newCommits(h.c4, moved.commit, 10);
    expect(fresh.map((c) => c.id)).toEqual([moved.commit]);
    expect(fresh[0]!.raw.toString()).toContain('Move b');
    await git.updateRefs(key, [{ ref: 'refs/heads/moves', oldId: moved.commit, newId: ZERO }]);
  });

  it('forks, copies commits and generates from templates between repositories', async () => {
    const fork: RepoKey = { owner: 'bob', name: 'fork' };
    await git.fork(key, fork, { objectFormat: 'sha1', defaultBranch: 'main' });
    await expect(git.fork(key, fork, { objectFormat: 'sha1', defaultBranch: 'main' })).rejects.toBeInstanceOf(RepositoryExistsError);
    expect((await git.listRefs(fork, 'refs/')).map((r) => [r.ref, r.id])).toEqual([
      ['refs/heads/feature', h.c3],
      ['refs/heads/main', h.c4],
    ]);
    expect(await git.countCommits(fork, { head: h.c4 })).toBe(4);
    expect((await git.readObject(fork, 'main:docs/guide.md'))?.content.toString()).toBe('guide\n');

    // A commit made in the fork is copied back with what it needs, and no ref moves.
    const forked = await git.changeFiles(fork, {
      branch: 'main',
      objectFormat: 'sha1',
      parent: h.c4,
      expectedOldId: h.c4,
      changes: [{ path: 'fork.txt', content: bytes('from the fork\n') }],
      message: 'In the fork\n',
      author: alice(7),
      committer: alice(7),
    });
    expect(await git.resolveCommit(key, forked.commit)).toBeUndefined();
    await git.copyCommit(fork, key, forked.commit);
    expect((await git.readObject(key, `${forked.commit}:fork.txt`))?.content.toString()).toBe('from the fork\n');
    expect((await git.readRefs(key, ['refs/heads/main'])).get('refs/heads/main')).toBe(h.c4);
    await git.storeCommitRef(key, 'refs/pull/1/head', forked.commit);
    expect((await git.readRefs(key, ['refs/pull/1/head'])).get('refs/pull/1/head')).toBe(forked.commit);

    // A repository generated from a template starts with its files, not its history.
    const generated: RepoKey = { owner: 'bob', name: 'generated' };
    await git.create(generated, { objectFormat: 'sha1', defaultBranch: 'main' });
    const first = await git.commitTreeOf(fork, 'main', generated, { branch: 'main', message: 'Initial commit\n', author: { name: 'Bob', email: 'bob@example.com', when: at(8) } });
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    expect(await git.countCommits(generated, { head: first! })).toBe(1);
    expect((await git.listFiles(generated, first!)).map((f) => f.path)).toEqual(['README.md', 'docs/guide.md', 'fork.txt', 'src/a.txt', 'src/b.txt']);
    expect(await git.commitTreeOf(fork, 'nope', generated, { branch: 'other', message: 'x', author: alice(9) })).toBeUndefined();
    await git.remove(fork);
    await git.remove(generated);
  });

  it('streams blobs', async () => {
    const id = (await git.resolveRevision(key, 'main:src/a.txt'))!.id;
    const parts: Buffer[] = [];
    for await (const chunk of git.openBlob(key, id)) parts.push(chunk as Buffer);
    expect(Buffer.concat(parts).toString()).toBe('one\n2\nthree\nfour\n');
  });

  it.runIf(backend.name === 'native')('finds the small blobs that start with a prefix, in all of history (LFS pointers)', async () => {
    const found = async (prefix: string, maxSize: number) => (await git.smallBlobsWithPrefix(key, Buffer.from(prefix), maxSize)).map((b) => b.toString()).sort();
    expect(await found('# demo', 100)).toEqual(['# demo\n', '# demo\n\nMore.\n']);
    expect(await found('# demo', 7)).toEqual(['# demo\n']);
    expect(await found('b', 10)).toEqual(['bee\n']);
    expect(await found('nothing like it', 1000)).toEqual([]);
  });

  it.runIf(backend.name === 'memory')('fails with NotSupportedError, naming the method, for each listed method', async () => {
    for (const method of MEMORY_UNSUPPORTED) {
      const call = () => (git[method] as (...args: unknown[]) => unknown).call(git, key, 'x', 'y', 'z', {});
      let error: unknown;
      try {
        await call();
      } catch (thrown) {
        error = thrown;
      }
      expect(error, method).toBeInstanceOf(NotSupportedError);
      expect((error as Error).message).toContain(method);
    }
  });
});

/** What git itself writes for the history above (checked against the native backend). */
const HISTORY_IDS: History = {
  c1: 'a8bbc5f8a33fffac43cf8a4593bbe7421a1f3e43',
  c2: 'ce89bf792c8fa384cbc425c55677764ad2b1b51a',
  c3: '57a729521de9e8873d4e6e8f7a08e9804f5d8ecb',
  c4: 'e4c3253ab9434e4231520bdee67ebddb7b42b0f5',
};
