/**
 * The long-lived object reader (`git/native-objects.ts`) over real bare repositories, sha1 and sha256: one
 * `git cat-file` process however many objects are read, bounded reads, replacement of a dead process, idle close,
 * the cap on open readers, and objects written after the reader started.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { NativeGitBackend } from '../src/git/native.js';
import type { ObjectFormat, RepoKey } from '../src/git/backend.js';

let root: string;
let backend: NativeGitBackend;
let spawned: string[][];
let children: ReturnType<NativeGitBackend['spawnGit']>[];

function watch(git: NativeGitBackend): void {
  const original = git.spawnGit.bind(git);
  children = [];
  git.spawnGit = (args, env) => {
    spawned.push(args);
    const child = original(args, env);
    children.push(child);
    return child;
  };
}

const catFiles = () => spawned.filter((args) => args.includes('cat-file'));
const author = { name: 'Alice', email: 'alice@example.com', when: new Date('2024-01-02T03:04:05Z') };

async function repoWith(name: string, files: Record<string, string>, objectFormat: ObjectFormat = 'sha1'): Promise<{ key: RepoKey; commit: string }> {
  const key = { owner: 'alice', name };
  await backend.create(key, { objectFormat, defaultBranch: 'main' });
  const commit = await backend.commitFiles(key, {
    branch: 'main',
    message: 'files\n',
    author,
    files: Object.entries(files).map(([p, content]) => ({ path: p, content })),
  });
  return { key, commit };
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'repohost-reader-'));
  backend = new NativeGitBackend({ root, objectReaders: { idleMs: 60_000, maxReaders: 2 } });
  spawned = [];
});

afterEach(async () => {
  backend.close();
  await rm(root, { recursive: true, force: true });
});

describe.each(['sha1', 'sha256'] as const)('object reader (%s)', (format) => {
  const idLength = format === 'sha1' ? 40 : 64;

  test('reading 500 blobs starts one git process', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 500; i++) files[`f/${i}.txt`] = `file ${i}\n`;
    const { key, commit } = await repoWith('many', files, format);
    const tree = await backend.readTree(key, commit, { recursive: true });
    expect(tree?.total).toBe(501);
    const blobIds = tree!.entries.filter((e) => e.type === 'blob').map((e) => e.id);
    expect(blobIds).toHaveLength(500);
    spawned = [];
    watch(backend);
    const blobs = await backend.readObjects(key, blobIds);
    expect(blobs.every((b) => b?.type === 'blob')).toBe(true);
    const byPath = new Map(tree!.entries.map((e, i) => [e.path, i]));
    const i42 = tree!.entries.filter((e) => e.type === 'blob').findIndex((e) => e.path === 'f/42.txt');
    expect(byPath.has('f/42.txt')).toBe(true);
    expect(blobs[i42]!.content.toString()).toBe('file 42\n');
    // A second batch and a tree listing reuse the same process.
    await backend.readObjects(key, blobIds.slice(0, 100));
    await backend.readTree(key, 'main', { recursive: true });
    expect(catFiles()).toHaveLength(0);
  });

  test('one process per repository, counted from a cold start', async () => {
    const { key, commit } = await repoWith('cold', { 'a.txt': 'a\n' }, format);
    backend.close();
    watch(backend);
    const reads = await Promise.all(Array.from({ length: 50 }, () => backend.readObject(key, `${commit}:a.txt`)));
    expect(reads.every((r) => r?.content.toString() === 'a\n')).toBe(true);
    expect(catFiles()).toHaveLength(1);
  });

  test('objects, revisions, trees and refs', async () => {
    const { key, commit } = await repoWith('objects', { 'README.md': '# hi\n', 'src/main.ts': 'export {};\n', 'src/lib/a.ts': 'a\n' }, format);
    expect(commit).toHaveLength(idLength);
    const head = await backend.resolveRevision(key, 'main');
    expect(head).toEqual({ id: commit, type: 'commit', size: expect.any(Number) });
    const readme = await backend.readObject(key, `${commit}:README.md`);
    expect(readme).toMatchObject({ type: 'blob', size: 5, truncated: false });
    expect(readme!.id).toHaveLength(idLength);
    expect(readme!.content.toString()).toBe('# hi\n');

    const flat = await backend.readTree(key, commit);
    expect(flat!.entries.map((e) => [e.path, e.type, e.mode, e.size])).toEqual([
      ['README.md', 'blob', '100644', 5],
      ['src', 'tree', '040000', 0],
    ]);
    const deep = await backend.readTree(key, commit, { recursive: true });
    expect(deep!.entries.map((e) => e.path)).toEqual(['README.md', 'src', 'src/lib', 'src/lib/a.ts', 'src/main.ts']);
    const page = await backend.readTree(key, commit, { recursive: true, offset: 2, limit: 2 });
    expect(page!.total).toBe(5);
    expect(page!.entries.map((e) => e.path)).toEqual(['src/lib', 'src/lib/a.ts']);
    expect(page!.entries[1]!.size).toBe(2);
    // A tree id lists the same as the commit naming it.
    expect((await backend.readTree(key, flat!.id))!.entries).toEqual(flat!.entries);

    expect(await backend.listRefs(key, 'refs/heads/ma')).toEqual([{ ref: 'refs/heads/main', id: commit, type: 'commit' }]);
    expect(await backend.listRefs(key, 'refs/heads/x')).toEqual([]);
  });

  test('unknown and unsafe revisions answer undefined, and the reader stays in step', async () => {
    const { key, commit } = await repoWith('unknown', { 'a.txt': 'a\n' }, format);
    const missing = '0'.repeat(idLength);
    const answers = await Promise.all([
      backend.readObject(key, missing),
      backend.readObject(key, 'nope'),
      backend.readObject(key, 'main\ninfo main'),
      backend.readObject(key, ':/files'),
      backend.readObject(key, `${commit}:a.txt`),
      backend.readTree(key, missing),
      backend.resolveRevision(key, `${commit}:missing.txt`),
    ]);
    expect(answers.slice(0, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(answers[4]!.content.toString()).toBe('a\n');
    expect(answers[5]).toBeUndefined();
    expect(answers[6]).toBeUndefined();
  });

  test('content over the limit is read past, not kept', async () => {
    const big = 'x'.repeat(300_000);
    const { key, commit } = await repoWith('big', { 'big.txt': big, 'small.txt': 'small\n' }, format);
    const [cut, small] = await Promise.all([
      backend.readObject(key, `${commit}:big.txt`, { maxBytes: 1000 }),
      backend.readObject(key, `${commit}:small.txt`, { maxBytes: 1000 }),
    ]);
    expect(cut).toMatchObject({ size: 300_000, truncated: true });
    expect(cut!.content.length).toBe(1000);
    expect(small!.content.toString()).toBe('small\n');
    const whole = await backend.readObject(key, `${commit}:big.txt`);
    expect(whole!.content.toString()).toBe(big);
    const streamed: Buffer[] = [];
    for await (const chunk of backend.openBlob(key, whole!.id)) streamed.push(chunk as Buffer);
    expect(Buffer.concat(streamed).toString()).toBe(big);
  });

  test('objects written after the reader started are found', async () => {
    const { key } = await repoWith('later', { 'a.txt': 'a\n' }, format);
    await backend.readObject(key, 'main:a.txt');
    const head = await backend.resolveRevision(key, 'main');
    const next = await backend.commitFiles(key, { branch: 'main', message: 'more', author, files: [{ path: 'b.txt', content: 'b\n' }], expectedOldId: head!.id });
    expect((await backend.resolveRevision(key, 'main'))!.id).toBe(next);
    expect((await backend.readObject(key, 'main:b.txt'))!.content.toString()).toBe('b\n');
  });
});

describe('reader life', () => {
  test('a reader whose process died is replaced', async () => {
    const { key } = await repoWith('dies', { 'a.txt': 'a\n' });
    watch(backend);
    await backend.readObject(key, 'main:a.txt');
    const [first] = catFiles();
    expect(first).toBeDefined();
    // The process dies under the reader: the pool lets it go, and the next read starts a new one.
    const child = children.find((c) => c.spawnargs.includes('cat-file'))!;
    const exited = new Promise((resolve) => child.on('close', resolve));
    child.kill('SIGKILL');
    await exited;
    expect(backend.objects.size).toBe(0);
    expect((await backend.readObject(key, 'main:a.txt'))!.content.toString()).toBe('a\n');
    expect(catFiles()).toHaveLength(2);
  });

  test('idle readers close, and at most maxReaders stay open', async () => {
    const idle = new NativeGitBackend({ root, objectReaders: { idleMs: 50, maxReaders: 2 } });
    const a = await repoWith('a', { 'a.txt': 'a\n' });
    const b = await repoWith('b', { 'b.txt': 'b\n' });
    const c = await repoWith('c', { 'c.txt': 'c\n' });
    await idle.readObject(a.key, 'main:a.txt');
    await idle.readObject(b.key, 'main:b.txt');
    await idle.readObject(c.key, 'main:c.txt');
    expect(idle.objects.size).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(idle.objects.size).toBe(0);
    expect((await idle.readObject(a.key, 'main:a.txt'))!.content.toString()).toBe('a\n');
    idle.close();
  });

  test('a renamed repository is read at its new place', async () => {
    const { key } = await repoWith('old', { 'a.txt': 'a\n' });
    await backend.readObject(key, 'main:a.txt');
    const to = { owner: 'alice', name: 'new' };
    await backend.rename(key, to);
    await expect(backend.readObject(key, 'main:a.txt')).rejects.toThrow();
    expect((await backend.readObject(to, 'main:a.txt'))!.content.toString()).toBe('a\n');
  });
});
