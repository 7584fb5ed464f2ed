/**
 * Forks over HTTP with the real git client, as Forgejo makes them: `POST /repos/{owner}/{repo}/forks` answers 202
 * with the fork (`fork`, `parent`), into the caller or an organization it may create in; `GET …/forks` lists the
 * forks the caller may see; the parent's `forks_count` follows forks made and deleted. The fork's storage shares
 * its parent's object files, costs little disk, and stays whole when the parent is renamed or deleted. Unhappy
 * paths: anonymous, strangers to a private parent, a second fork, name clashes, organizations one may not create
 * in, bad names, a fork interrupted before its row committed.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { RepositorySchema, SYSTEM, matchesSchema, schemaErrors, userActor, type AnyDomainEvent, type NativeGitBackend } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, userNamed, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

interface Account {
  name: string;
  token: string;
  h: Record<string, string>;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function expectRepository(body: unknown): void {
  expect(matchesSchema(RepositorySchema, body), schemaErrors(RepositorySchema, body).join('\n')).toBe(true);
}

describe('forks', () => {
  let s: TestServer;
  let scratch: string;
  let gitEnv: NodeJS.ProcessEnv;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let counter = 0;
  const events: AnyDomainEvent[] = [];

  function run(command: string, args: string[], cwd?: string): Promise<Run> {
    return new Promise((resolve, reject) => {
      execFile(command, args, { cwd: cwd ?? scratch, env: gitEnv, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) });
      });
    });
  }
  const git = (args: string[], cwd?: string) => run('git', args, cwd);

  function cloneUrl(repoPath: string, who?: Account): string {
    const auth = who ? `${encodeURIComponent(who.name)}:${encodeURIComponent(who.token)}@` : '';
    return `http://${auth}127.0.0.1:${new URL(s.url).port}/${repoPath}.git`;
  }

  async function account(prefix: string): Promise<Account> {
    const name = uniq(prefix);
    await createUser(s.host, name);
    const token = await createToken(s.host, name);
    return { name, token, h: tokenHeader(token) };
  }

  const call = (method: string, apiPath: string, who?: Account, body?: unknown) =>
    s.fetch(`/api/v1${apiPath}`, body === undefined ? { method, headers: who?.h } : jsonInit(method, body, who?.h));

  async function repoOf(who: Account, body: Record<string, unknown> = {}): Promise<string> {
    const name = uniq('r');
    const res = await call('POST', '/user/repos', who, { name, auto_init: true, ...body });
    expect(res.status, await res.clone().text()).toBe(201);
    return name;
  }

  async function fork(who: Account, full: string, body: Record<string, unknown> = {}): Promise<any> {
    const res = await call('POST', `/repos/${full}/forks`, who, body);
    expect(res.status, await res.clone().text()).toBe(202);
    const repo = await json(res);
    expectRepository(repo);
    return repo;
  }

  const getRepo = async (full: string, who?: Account) => json(await call('GET', `/repos/${full}`, who));
  const storagePath = (owner: string, name: string) => (s.host.git as NativeGitBackend).pathOf({ owner: owner.toLowerCase(), name: name.toLowerCase() });

  /** Clones `full` as `who`; the clone's folder (the test fails when git refuses). */
  async function clone(full: string, who?: Account): Promise<string> {
    counter += 1;
    const dir = path.join(scratch, `clone-${counter}`);
    const result = await git(['clone', '-q', cloneUrl(full, who), dir]);
    expect(result.code, result.stderr).toBe(0);
    return dir;
  }

  /** Commits a file in `dir` and pushes it to `main`; the new commit's id. */
  async function commitAndPush(dir: string): Promise<string> {
    counter += 1;
    await writeFile(path.join(dir, `file-${counter}.txt`), `change ${counter}\n`);
    for (const args of [['add', '.'], ['commit', '-q', '-m', `change ${counter}`]]) expect((await git(args, dir)).code).toBe(0);
    const pushed = await git(['push', '-q', 'origin', 'HEAD:main'], dir);
    expect(pushed.code, pushed.stderr).toBe(0);
    return (await git(['rev-parse', 'HEAD'], dir)).stdout.trim();
  }

  async function fsck(bare: string): Promise<void> {
    const checked = await git(['--git-dir', bare, 'fsck', '--full', '--strict']);
    expect(checked.code, checked.stderr).toBe(0);
  }

  beforeAll(async () => {
    s = await startTestServer();
    scratch = await mkdtemp(path.join(tmpdir(), 'repohost-forks-'));
    const home = path.join(scratch, 'home');
    await mkdir(home);
    await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Fork Tester\n\temail = fork@example.com\n[init]\n\tdefaultBranch = main\n');
    gitEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
    alice = await account('alice');
    bob = await account('bob');
    carol = await account('carol');
    s.host.events.on('*', (e) => {
      events.push(e);
    });
  });
  afterAll(async () => {
    await s?.cleanup();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  test('fork: 202 with parent, clone the fork and push to it; the parent does not move; forks_count follows', async () => {
    const name = await repoOf(alice, { description: 'the original' });
    const parentDir = await clone(`${alice.name}/${name}`, alice);
    const parentHead = await commitAndPush(parentDir);

    const forked = await fork(bob, `${alice.name}/${name}`);
    expect(forked).toMatchObject({
      name,
      full_name: `${bob.name}/${name}`,
      fork: true,
      private: false,
      empty: false,
      description: 'the original',
      default_branch: 'main',
      permissions: { admin: true, push: true, pull: true },
      parent: { full_name: `${alice.name}/${name}`, fork: false, parent: null, forks_count: 1 },
    });
    expect(forked.owner.login).toBe(bob.name);
    expect((await getRepo(`${alice.name}/${name}`)).forks_count).toBe(1);
    // Read back, a fork names its parent as the reader sees it.
    const read = await getRepo(`${bob.name}/${name}`);
    expectRepository(read);
    expect(read).toMatchObject({ fork: true, parent: { full_name: `${alice.name}/${name}` } });
    const byId = await json(await call('GET', `/repositories/${forked.id}`, bob));
    expect(byId.parent.full_name).toBe(`${alice.name}/${name}`);
    const mine = await json<any[]>(await call('GET', '/user/repos', bob));
    expect(mine.find((r) => r.id === forked.id)?.parent?.full_name).toBe(`${alice.name}/${name}`);
    await s.host.events.idle();
    expect(events.some((e) => e.type === 'repo.forked' && e.payload.repo.id === forked.id && e.payload.parent.name === name)).toBe(true);
    // The forker's feed shows the fork as a repository it created, as Forgejo records it.
    const feed = await json<any[]>(await call('GET', `/users/${bob.name}/activities/feeds`, bob));
    expect(feed.some((a) => a.op_type === 'create_repo' && a.repo?.id === forked.id)).toBe(true);

    const forkDir = await clone(`${bob.name}/${name}`, bob);
    expect((await git(['rev-parse', 'HEAD'], forkDir)).stdout.trim()).toBe(parentHead);
    const forkHead = await commitAndPush(forkDir);
    const refs = async (owner: string) => (await s.host.git.readRefs({ owner: owner.toLowerCase(), name: name.toLowerCase() }, ['refs/heads/main'])).get('refs/heads/main');
    expect(await refs(bob.name)).toBe(forkHead);
    expect(await refs(alice.name)).toBe(parentHead);
    await fsck(storagePath(bob.name, name));
    await fsck(storagePath(alice.name, name));

    // Deleting the fork gives the parent its count back.
    expect((await call('DELETE', `/repos/${bob.name}/${name}`, bob)).status).toBe(204);
    expect((await getRepo(`${alice.name}/${name}`)).forks_count).toBe(0);
  });

  test('GET /forks lists the forks the caller may see, paginated with X-Total-Count and Link', async () => {
    const name = await repoOf(alice);
    await fork(bob, `${alice.name}/${name}`);
    await fork(carol, `${alice.name}/${name}`, { name: 'carols-copy' });
    const all = await call('GET', `/repos/${alice.name}/${name}/forks`);
    expect(all.status).toBe(200);
    expect(all.headers.get('x-total-count')).toBe('2');
    const items = await json<any[]>(all);
    for (const item of items) expectRepository(item);
    expect(items.map((r) => r.full_name)).toEqual([`${bob.name}/${name}`, `${carol.name}/carols-copy`]);
    expect(items[0]).toMatchObject({ fork: true, parent: { full_name: `${alice.name}/${name}` }, permissions: { admin: false, push: false, pull: true } });

    const first = await call('GET', `/repos/${alice.name}/${name}/forks?limit=1`, alice);
    expect(first.headers.get('x-total-count')).toBe('2');
    expect(first.headers.get('link')).toContain('rel="next"');
    expect((await json<any[]>(first)).map((r) => r.name)).toEqual([name]);
    const second = await json<any[]>(await call('GET', `/repos/${alice.name}/${name}/forks?limit=1&page=2`, alice));
    expect(second.map((r) => r.name)).toEqual(['carols-copy']);

    // The fork of a private account is listed to those who may read it only.
    const hidden = uniq('hid');
    await createUser(s.host, hidden, { visibility: 'private' });
    const hiddenAccount = { name: hidden, token: '', h: tokenHeader(await createToken(s.host, hidden)) };
    await fork(hiddenAccount, `${alice.name}/${name}`);
    const anonymous = await call('GET', `/repos/${alice.name}/${name}/forks`);
    expect(anonymous.headers.get('x-total-count')).toBe('2');
    expect((await json<any[]>(anonymous)).map((r) => r.full_name)).toEqual([`${bob.name}/${name}`, `${carol.name}/carols-copy`]);
    const asHidden = await call('GET', `/repos/${alice.name}/${name}/forks`, hiddenAccount);
    expect(asHidden.headers.get('x-total-count')).toBe('3');
  });

  test("a fork's visibility follows its parent's: an edit of it is overridden, a parent made private hides its forks", async () => {
    const name = await repoOf(alice);
    await fork(bob, `${alice.name}/${name}`);
    const edited = await call('PATCH', `/repos/${bob.name}/${name}`, bob, { private: true, description: 'mine' });
    expect(edited.status).toBe(200);
    expect(await json(edited)).toMatchObject({ private: false, description: 'mine' });
    const forkOfFork = await fork(carol, `${bob.name}/${name}`);
    expect(forkOfFork).toMatchObject({ fork: true, parent: { full_name: `${bob.name}/${name}` } });

    expect((await call('PATCH', `/repos/${alice.name}/${name}`, alice, { private: true })).status).toBe(200);
    expect((await getRepo(`${bob.name}/${name}`, bob)).private).toBe(true);
    expect((await getRepo(`${carol.name}/${name}`, carol)).private).toBe(true);
    // bob may not see the parent any more: his fork names none.
    expect((await getRepo(`${bob.name}/${name}`, bob)).parent).toBeNull();
    await expectApiError(await call('GET', `/repos/${bob.name}/${name}`), 404, s.url);
    // Made public again, the parent leaves its forks private.
    expect((await call('PATCH', `/repos/${alice.name}/${name}`, alice, { private: false })).status).toBe(200);
    expect((await getRepo(`${bob.name}/${name}`, bob)).private).toBe(true);
  });

  test('into an organization: owners may (with another name), members who may not create and outsiders get 403, unknown organizations 422', async () => {
    const name = await repoOf(alice);
    const org = uniq('org');
    expect((await call('POST', '/orgs', bob, { username: org })).status).toBe(201);
    const forked = await fork(bob, `${alice.name}/${name}`, { organization: org, name: 'org-copy' });
    expect(forked).toMatchObject({ full_name: `${org}/org-copy`, fork: true, parent: { full_name: `${alice.name}/${name}` } });
    expect(forked.owner.login).toBe(org);

    // carol joins a read team: a member, but not one who may create repositories there.
    const team = await json(await call('POST', `/orgs/${org}/teams`, bob, { name: 'readers', permission: 'read', units: ['repo.code'] }));
    expect((await call('PUT', `/teams/${team.id}/members/${carol.name}`, bob)).status).toBe(204);
    await expectApiError(await call('POST', `/repos/${alice.name}/${name}/forks`, carol, { organization: org, name: 'x' }), 403, s.url);
    const outsider = await account('out');
    const message = await expectApiError(await call('POST', `/repos/${alice.name}/${name}/forks`, outsider, { organization: org }), 403, s.url);
    expect(message).toBe(`User is no Member of Organisation '${org}'`);
    await expectApiError(await call('POST', `/repos/${alice.name}/${name}/forks`, bob, { organization: uniq('nobody') }), 422, s.url);
    // A user is no organization.
    await expectApiError(await call('POST', `/repos/${alice.name}/${name}/forks`, bob, { organization: carol.name }), 422, s.url);
  });

  test('a private parent: strangers get 404, readers fork it privately; anonymous callers must sign in', async () => {
    const name = await repoOf(alice, { private: true });
    await expectApiError(await call('POST', `/repos/${alice.name}/${name}/forks`, bob, {}), 404, s.url);
    await expectApiError(await call('GET', `/repos/${alice.name}/${name}/forks`, bob), 404, s.url);
    await expectApiError(await call('POST', `/repos/${alice.name}/${name}/forks`, undefined, {}), 401, s.url);
    expect((await call('PUT', `/repos/${alice.name}/${name}/collaborators/${carol.name}`, alice, { permission: 'read' })).status).toBe(204);
    const forked = await fork(carol, `${alice.name}/${name}`);
    expect(forked).toMatchObject({ private: true, fork: true, parent: { full_name: `${alice.name}/${name}`, private: true } });
    // Not readable by bob, and not listed to him either.
    await expectApiError(await call('GET', `/repos/${carol.name}/${name}`, bob), 404, s.url);
    const dir = await clone(`${carol.name}/${name}`, carol);
    await commitAndPush(dir);
  });

  test('refusals: a second fork, a taken name, the own repository, bad names (409/422)', async () => {
    const name = await repoOf(alice);
    await fork(bob, `${alice.name}/${name}`);
    const again = await expectApiError(await call('POST', `/repos/${alice.name}/${name}/forks`, bob, { name: 'another' }), 409, s.url);
    expect(again).toContain('already forked');
    // A fork of the fork counts as forking the same parent again.
    await expectApiError(await call('POST', `/repos/${bob.name}/${name}/forks`, bob, { name: 'third' }), 409, s.url);

    const taken = await repoOf(carol);
    await expectApiError(await call('POST', `/repos/${alice.name}/${name}/forks`, carol, { name: taken }), 409, s.url);
    expect(await s.host.git.exists({ owner: carol.name.toLowerCase(), name: taken.toLowerCase() })).toBe(true);
    await expectApiError(await call('POST', `/repos/${alice.name}/${name}/forks`, alice, { name: 'mine' }), 409, s.url);
    await expectApiError(await call('POST', `/repos/${alice.name}/${name}/forks`, carol, { name: 'bad name!' }), 422, s.url);
    await expectApiError(await call('POST', `/repos/${alice.name}/${name}/forks`, carol, { name: 'x'.repeat(101) }), 422, s.url);
    await expectApiError(await call('POST', `/repos/${alice.name}/${name}/forks`, carol, { name: 12 }), 422, s.url);
    expect((await getRepo(`${alice.name}/${name}`)).forks_count).toBe(1);
    expect(await s.host.repoStorage.pending()).toEqual([]);

    // Two forks at once into one owner, under different names: one is made, the other refused.
    const racer = await account('race');
    const answers = await Promise.all(['one', 'two'].map((n) => call('POST', `/repos/${alice.name}/${name}/forks`, racer, { name: n })));
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
    expect((await getRepo(`${alice.name}/${name}`)).forks_count).toBe(2);
  });

  test('an empty repository forks into an empty fork that takes pushes', async () => {
    const name = uniq('e');
    expect((await call('POST', '/user/repos', alice, { name })).status).toBe(201);
    // No body at all reads as an empty option, as Go's decoder leaves it.
    const res = await call('POST', `/repos/${alice.name}/${name}/forks`, bob);
    expect(res.status, await res.clone().text()).toBe(202);
    const forked = await json(res);
    expect(forked).toMatchObject({ empty: true, fork: true });
    counter += 1;
    const dir = path.join(scratch, `init-${counter}`);
    expect((await git(['init', '-q', dir])).code).toBe(0);
    expect((await git(['remote', 'add', 'origin', cloneUrl(`${bob.name}/${name}`, bob)], dir)).code).toBe(0);
    await commitAndPush(dir);
    expect((await getRepo(`${bob.name}/${name}`, bob)).empty).toBe(false);
  });

  test('the fork stays whole when its parent is renamed, its owner renamed, and the parent deleted', async () => {
    const owner = await account('po');
    const name = await repoOf(owner);
    await commitAndPush(await clone(`${owner.name}/${name}`, owner));
    const forked = await fork(bob, `${owner.name}/${name}`, { name: uniq('f') });
    const forkPath = `${bob.name}/${forked.name}`;

    expect((await call('PATCH', `/repos/${owner.name}/${name}`, owner, { name: `${name}-renamed` })).status).toBe(200);
    await fsck(storagePath(bob.name, forked.name));
    expect((await getRepo(forkPath, bob)).parent.full_name).toBe(`${owner.name}/${name}-renamed`);
    const renamedOwner = uniq('pr');
    const renamed = await s.fetch(`/api/v1/admin/users/${owner.name}/rename`, jsonInit('POST', { new_username: renamedOwner }, tokenHeader(await createToken(s.host, (await createUser(s.host, uniq('adm'), { admin: true })).name))));
    expect(renamed.status, await renamed.clone().text()).toBe(204);
    await fsck(storagePath(bob.name, forked.name));
    expect((await getRepo(forkPath, bob)).parent.full_name).toBe(`${renamedOwner}/${name}-renamed`);

    const ownerAgain = { ...owner, name: renamedOwner };
    expect((await call('DELETE', `/repos/${renamedOwner}/${name}-renamed`, ownerAgain)).status).toBe(204);
    const after = await getRepo(forkPath, bob);
    expect(after).toMatchObject({ fork: false, parent: null });
    await fsck(storagePath(bob.name, forked.name));
    const dir = await clone(forkPath, bob);
    expect((await git(['fsck', '--full'], dir)).code).toBe(0);
    await commitAndPush(dir);
  });

  test('a fork of a repository with many objects adds little disk', async () => {
    const name = await repoOf(alice);
    const dir = await clone(`${alice.name}/${name}`, alice);
    // About 4 MB that does not compress, over 400 blobs and as many commits' worth of trees.
    for (let i = 0; i < 400; i++) await writeFile(path.join(dir, `blob-${i}.bin`), randomBytes(10_000));
    for (const args of [['add', '.'], ['commit', '-q', '-m', 'many objects']]) expect((await git(args, dir)).code).toBe(0);
    expect((await git(['push', '-q', 'origin', 'HEAD:main'], dir)).code).toBe(0);

    const started = Date.now();
    const forked = await fork(carol, `${alice.name}/${name}`);
    expect(Date.now() - started).toBeLessThan(10_000);
    const parentDir = storagePath(alice.name, name);
    const forkDir = storagePath(carol.name, forked.name);
    // One `du` over both counts a file with two names once: the fork's line is what it adds to the disk.
    const du = await run('du', ['-sk', parentDir, forkDir]);
    expect(du.code, du.stderr).toBe(0);
    const [parentKib = 0, forkKib = Number.POSITIVE_INFINITY] = du.stdout.trim().split('\n').map((line) => Number(line.split(/\s+/)[0]));
    expect(parentKib).toBeGreaterThan(3_000);
    expect(forkKib).toBeLessThan(parentKib / 10);
    await fsck(forkDir);
    const cloned = await clone(`${carol.name}/${forked.name}`, carol);
    expect((await git(['rev-list', '--count', 'HEAD'], cloned)).stdout.trim()).toBe('2');
  });

  test('a fork interrupted before its row committed is removed at start-up', async () => {
    const name = await repoOf(alice);
    // Its own forker: the interrupted fork never finishes, as if the process had died there.
    const forker = await account('crash');
    const never = () => new Promise<never>(() => {});
    const size = vi.spyOn(s.host.git, 'size').mockImplementationOnce(never);
    const access = await s.host.repos.resolve(SYSTEM, alice.name, name);
    const key = { owner: forker.name.toLowerCase(), name: 'stuck' };
    try {
      // What the stuck call does once its storage is gone under it does not matter: a dead process does nothing.
      s.host.forks.fork(userActor(await userNamed(s.host, forker.name)), access, { name: 'stuck' }).catch(() => undefined);
      await vi.waitFor(() => expect(size).toHaveBeenCalled());
      expect(await s.host.git.exists(key)).toBe(true);
      expect((await s.host.repoStorage.pending()).map((i) => i.op)).toEqual(['fork']);
      const report = await s.host.repoStorage.reconcile();
      expect(report.abandonedCreates).toEqual([key]);
      expect(await s.host.git.exists(key)).toBe(false);
      expect(await s.host.repoStorage.pending()).toEqual([]);
    } finally {
      size.mockRestore();
    }
    // The name is free again, and the parent counts no fork that never was.
    expect((await call('POST', '/user/repos', forker, { name: 'stuck' })).status).toBe(201);
    expect((await getRepo(`${alice.name}/${name}`)).forks_count).toBe(0);
  });

  test('fork networks: a fork head reaches refs/pull of its parent with its objects', async () => {
    const name = await repoOf(alice);
    const forked = await fork(bob, `${alice.name}/${name}`);
    const head = await commitAndPush(await clone(`${bob.name}/${forked.name}`, bob));
    const parentKey = { owner: alice.name.toLowerCase(), name: name.toLowerCase() };
    const forkKey = { owner: bob.name.toLowerCase(), name: forked.name.toLowerCase() };
    await s.host.git.copyCommit(forkKey, parentKey, head);
    await s.host.git.storeCommitRef(parentKey, 'refs/pull/1/head', head);
    expect((await s.host.git.readRefs(parentKey, ['refs/pull/1/head'])).get('refs/pull/1/head')).toBe(head);
    await fsck(storagePath(alice.name, name));
    await expect(s.host.git.storeCommitRef(parentKey, 'HEAD', head)).rejects.toThrow();

    const base = (await s.host.repos.resolve(SYSTEM, alice.name, name)).repo;
    const headRepo = (await s.host.repos.resolve(SYSTEM, bob.name, forked.name)).repo;
    const other = (await s.host.repos.resolve(SYSTEM, carol.name, await repoOf(carol))).repo;
    expect(s.host.forks.inSameForkNetwork(headRepo, base)).toBe(true);
    expect(s.host.forks.inSameForkNetwork(base, headRepo)).toBe(true);
    expect(s.host.forks.inSameForkNetwork(base, base)).toBe(true);
    expect(s.host.forks.inSameForkNetwork(other, base)).toBe(false);
    expect((await s.host.forks.headRepository(base, await userNamed(s.host, bob.name)))?.id).toBe(headRepo.id);
    expect((await s.host.forks.headRepository(headRepo, await userNamed(s.host, alice.name)))?.id).toBe(base.id);
    expect(await s.host.forks.headRepository(base, await userNamed(s.host, carol.name))).toBeUndefined();
  });
});
