/**
 * `RepoHost.inMemory()`: a whole forge with SQLite `:memory:` and the isomorphic-git backend. Repositories are made
 * and read through the services as with the native backend; what the backend cannot do is a NotSupportedError;
 * many forges opened and closed in a row leave no handles or memory behind.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  MemoryGitBackend,
  NotSupportedError,
  RepoHost,
  SYSTEM,
  loadSettings,
  userActor,
  type ApiView,
  type RepoAccess,
  type User,
} from '@repohost/core';

async function createAlice(host: RepoHost): Promise<User> {
  return host.users.create(SYSTEM, { username: 'alice', email: 'alice@example.com', password: 'correct-horse-battery', admin: true });
}

describe('RepoHost.inMemory()', () => {
  let host: RepoHost;
  let alice: User;
  let access: RepoAccess;
  let view: ApiView;

  beforeEach(async () => {
    host = await RepoHost.inMemory();
    alice = await createAlice(host);
    await host.repos.create(userActor(alice), { name: 'demo', auto_init: true, readme: 'Default', description: 'in memory' });
    access = await host.repos.resolve(userActor(alice), 'alice', 'demo');
    view = { viewer: userActor(alice), settings: host.settings };
  });
  afterEach(async () => host.close());

  it('uses SQLite in memory and the memory backend', () => {
    expect(host.git).toBeInstanceOf(MemoryGitBackend);
    expect(host.settings.database.PATH).toBe(':memory:');
    expect(host.settings.repository.BACKEND).toBe('memory');
    expect(host.dialect).toBe('sqlite');
  });

  it('creates a repository with auto_init and reads its contents, commits, branches and tags', async () => {
    expect(access.repo.is_empty).toBe(0);
    const readme = await host.contents.get(userActor(alice), access, 'README.md');
    expect(Array.isArray(readme)).toBe(false);
    if (Array.isArray(readme)) return;
    expect(readme.type).toBe('file');
    expect(Buffer.from(readme.content ?? '', 'base64').toString('utf8')).toContain('# demo');
    expect(readme.last_commit_sha).toMatch(/^[0-9a-f]{40}$/);

    const root = await host.contents.get(userActor(alice), access, '');
    expect(Array.isArray(root) && root.map((e) => e.name)).toEqual(['README.md']);

    const created = await host.contents.createFile(userActor(alice), access, 'docs/guide.md', { content: Buffer.from('guide\n').toString('base64'), message: 'Add guide' });
    expect(created.content?.path).toBe('docs/guide.md');

    const commits = await host.commits.list(userActor(alice), access, {}, { limit: 10 });
    expect(commits.total).toBe(2);
    expect(commits.items.map((c) => c.commit.message)).toEqual(['Add guide\n', 'Initial commit\n']);
    const onPath = await host.commits.list(userActor(alice), access, { path: 'docs' }, { limit: 10 });
    expect(onPath.items.map((c) => c.commit.message)).toEqual(['Add guide\n']);

    await host.branches.create(userActor(alice), access, view, { new_branch_name: 'feature' });
    const branches = await host.branches.list(userActor(alice), access, view);
    expect(branches.items.map((b) => b.name).sort()).toEqual(['feature', 'main']);

    const tag = await host.tags.create(userActor(alice), access, view, { tag_name: 'v1.0', message: 'First release' });
    expect(tag.name).toBe('v1.0');
    expect(tag.commit.sha).toBe(commits.items[0]!.commit.id);
    const tags = await host.tags.list(userActor(alice), access, view);
    expect(tags.items.map((t) => t.name)).toEqual(['v1.0']);
  });

  it('opens, lists the files of and merges a pull request', async () => {
    await host.branches.create(userActor(alice), access, view, { new_branch_name: 'feature' });
    await host.contents.createFile(userActor(alice), access, 'feature.txt', { content: Buffer.from('feature\n').toString('base64'), message: 'Add feature', branch: 'feature' });
    await host.contents.createFile(userActor(alice), access, 'main.txt', { content: Buffer.from('main\n').toString('base64'), message: 'Add main' });
    const pull = await host.pulls.create(userActor(alice), access, { head: 'feature', base: 'main', title: 'Feature' });
    const loaded = await host.pulls.resolve(userActor(alice), access, pull.issue.index);
    expect(loaded.pull.conflicted_files).toBe('[]');
    const files = await host.pulls.files(userActor(alice), access, loaded, {});
    expect(files.items.map((f) => [f.path, f.status, f.additions])).toEqual([['feature.txt', 'added', 1]]);
    await host.pullMerge.merge(userActor(alice), access, loaded, { Do: 'merge' });
    const root = await host.contents.get(userActor(alice), access, '');
    expect(Array.isArray(root) && root.map((e) => e.name).sort()).toEqual(['README.md', 'feature.txt', 'main.txt']);
    const commits = await host.commits.list(userActor(alice), access, {}, { limit: 1 });
    expect(commits.items[0]!.commit.parents).toHaveLength(2);
  });

  it('answers NotSupportedError for what the backend cannot do', async () => {
    const key = { owner: 'alice', name: 'demo' };
    const head = (await host.git.readRefs(key, ['refs/heads/main'])).get('refs/heads/main')!;
    await expect(host.git.archive(key, { commit: head, format: 'zip' })).rejects.toBeInstanceOf(NotSupportedError);
    await expect(host.git.commitDiff(key, head, 'diff')).rejects.toThrow(/commitDiff is not supported/);
    await expect(host.repos.create(userActor(alice), { name: 'modern', auto_init: true, object_format_name: 'sha256' })).rejects.toBeInstanceOf(NotSupportedError);
  });
});

describe('[repository] BACKEND', () => {
  it('is native by default and memory when configured; other values are refused', async () => {
    expect(loadSettings({ configText: '' }).repository.BACKEND).toBe('native');
    const settings = loadSettings({ configText: '[repository]\nBACKEND = memory\n[database]\nPATH = :memory:\n' });
    const host = await RepoHost.open({ settings, noSecretKey: 'ephemeral' });
    try {
      expect(host.git).toBeInstanceOf(MemoryGitBackend);
    } finally {
      await host.close();
    }
    expect(() => loadSettings({ configText: '[repository]\nBACKEND = tape\n' })).toThrow(/BACKEND/);
  });
});

/** A full collection, so heap sizes compare what is still referenced. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

// In-memory forges use SQLite whatever the database under test: once is enough.
describe.skipIf(process.env.REPOHOST_TEST_DB === 'postgres')('many in-memory forges', () => {
  it('opens and closes 200 forges, each with a repository, leaving no handles or memory behind', async () => {
    const cycle = async () => {
      const host = await RepoHost.inMemory();
      const owner = await createAlice(host);
      await host.repos.create(userActor(owner), { name: 'demo', auto_init: true });
      expect(await host.git.isEmpty({ owner: 'alice', name: 'demo' })).toBe(false);
      await host.close();
    };
    // Warm-up: modules loaded, code compiled, caches of the process (not of a forge) filled.
    for (let i = 0; i < 20; i++) await cycle();
    collectGarbage();
    const handles = process.getActiveResourcesInfo().length;
    const heap = process.memoryUsage().heapUsed;
    for (let i = 0; i < 200; i++) await cycle();
    collectGarbage();
    const grown = process.memoryUsage().heapUsed - heap;
    expect(process.getActiveResourcesInfo().length).toBeLessThanOrEqual(handles);
    // A forge that stayed referenced holds its database, services and file system: well over 100 KiB each.
    expect(grown).toBeLessThan(200 * 50 * 1024);
  }, 180_000);
});
