/**
 * `POST /repos/migrate` of git data (not a mirror): from a RepoHost server and from a local bare repository,
 * with branches and tags (and without the source's pull request refs). Forgejo's refusals, each before anything
 * is made: owners and rights, names, services, intervals, disabled migrations and mirrors, and remote addresses
 * (local networks, BLOCKED_DOMAINS, ALLOWED_DOMAINS, a redirect into a refused host, local paths). Remotes that
 * fail while the job runs (a closed port, one that never answers, within `[git.timeout] MIGRATE`) leave no
 * repository. The job's progress, and the start-up repair of a migration whose job is gone.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { userActor, type ApiRepository } from '@repohost/core';
import { MigrationsStore } from '@repohost/core/internal';
import { TEST_GIT, jsonInit, startTestServer, userNamed, type TestServer } from '@repohost/test-support';
import { account, checkRepo, expectApiError, json, uniq, type Account } from './helpers';

let source: TestServer;
/** May reach local networks and import local paths; clones must finish within 3 seconds. */
let open: TestServer;
/** Defaults for remotes; migrations and new pull mirrors disabled. */
let strict: TestServer;
/** Local networks allowed, but only `localhost` and 127.0.0.3 (which is blocked) allowed as hosts. */
let listed: TestServer;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
const servers: { close(): void }[] = [];

function git(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: gitEnv, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr}`));
      else resolve(String(stdout));
    });
  });
}

function migrate(server: TestServer, who: Account | undefined, body: Record<string, unknown>): Promise<Response> {
  return server.fetch('/api/v1/repos/migrate', jsonInit('POST', body, who?.h ?? {}));
}

async function refused(server: TestServer, who: Account, body: Record<string, unknown>, status: number): Promise<string> {
  const message = await expectApiError(await migrate(server, who, body), status, server.url);
  // Nothing was made under the name asked for.
  if (typeof body.repo_name === 'string') {
    const owner = typeof body.repo_owner === 'string' ? body.repo_owner : who.name;
    expect((await server.fetch(`/api/v1/repos/${owner}/${body.repo_name}`, { headers: who.h })).status).toBe(404);
  }
  return message;
}

async function listen(server: http.Server | net.Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

let srcOwner: Account;
/** A source repository: branches main (default: trunk) and dev, a lightweight and an annotated tag. */
let src: { full: string; url: string; trunk: string; dev: string };
/** The same content as a local bare repository, with a pull request ref besides. */
let bare: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-migrate-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Git Tester\n\temail = tester@example.com\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  source = await startTestServer();
  open = await startTestServer({ migrations: { ALLOW_LOCALNETWORKS: true }, security: { IMPORT_LOCAL_PATHS: true }, 'git.timeout': { MIGRATE: 3 } });
  strict = await startTestServer({ repository: { DISABLE_MIGRATIONS: true }, mirror: { DISABLE_NEW_PULL: true } });
  listed = await startTestServer({ migrations: { ALLOW_LOCALNETWORKS: true, ALLOWED_DOMAINS: 'localhost,127.0.0.3', BLOCKED_DOMAINS: '127.0.0.3' } });

  if (TEST_GIT === 'memory') return;
  srcOwner = await account(source, 'so');
  const name = uniq('src');
  const created = await source.fetch('/api/v1/user/repos', jsonInit('POST', { name, default_branch: 'trunk' }, srcOwner.h));
  expect(created.status).toBe(201);
  const full = `${srcOwner.name}/${name}`;
  const dir = await mkdtemp(path.join(scratch, 'wc-'));
  await git(['init', '-q', '-b', 'trunk'], dir);
  await writeFile(path.join(dir, 'a.txt'), 'one\n');
  await git(['add', 'a.txt'], dir);
  await git(['commit', '-q', '-m', 'one'], dir);
  const trunk = (await git(['rev-parse', 'HEAD'], dir)).trim();
  await git(['tag', 'v1'], dir);
  await git(['checkout', '-q', '-b', 'dev'], dir);
  await writeFile(path.join(dir, 'b.txt'), 'two\n');
  await git(['add', 'b.txt'], dir);
  await git(['commit', '-q', '-m', 'two'], dir);
  const dev = (await git(['rev-parse', 'HEAD'], dir)).trim();
  await git(['tag', '-a', 'v2', '-m', 'second release'], dir);
  await git(['push', '-q', `http://${srcOwner.name}:${srcOwner.token}@127.0.0.1:${new URL(source.url).port}/${full}.git`, 'trunk', 'dev', 'v1', 'v2'], dir);
  src = { full, url: `${source.url}${full}.git`, trunk, dev };
  bare = path.join(scratch, 'bare.git');
  await git(['clone', '-q', '--bare', dir, bare], scratch);
  await git(['--git-dir', bare, 'symbolic-ref', 'HEAD', 'refs/heads/trunk'], scratch);
  await git(['--git-dir', bare, 'update-ref', 'refs/pull/1/head', dev], scratch);
});
afterAll(async () => {
  for (const server of servers) server.close();
  await Promise.all([source, open, strict, listed].map((s) => s?.cleanup()));
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function refsOf(server: TestServer, full: string, who: Account): Promise<Record<string, string>> {
  const res = await server.fetch(`/api/v1/repos/${full}/git/refs`, { headers: who.h });
  expect(res.status).toBe(200);
  const refs = await json<{ ref: string; object: { sha: string } }[]>(res);
  return Object.fromEntries(refs.map((r) => [r.ref, r.object.sha]));
}

describe.skipIf(TEST_GIT === 'memory')('migrating git data', () => {
  let owner: Account;
  beforeAll(async () => {
    owner = await account(open, 'mo');
  });

  test('from a RepoHost server: branches, tags and the default branch come along; an ordinary repository results', async () => {
    const name = uniq('mig');
    const res = await migrate(open, owner, { clone_addr: src.url, repo_name: name, description: 'migrated', private: true });
    expect(res.status, await res.clone().text()).toBe(201);
    const repo = checkRepo(await json(res));
    expect(repo).toMatchObject({
      name,
      description: 'migrated',
      private: true,
      mirror: false,
      empty: false,
      default_branch: 'trunk',
      original_url: src.url,
      mirror_interval: '',
      permissions: { admin: true, push: true, pull: true },
    });
    const refs = await refsOf(open, repo.full_name, owner);
    expect(refs['refs/heads/trunk']).toBe(src.trunk);
    expect(refs['refs/heads/dev']).toBe(src.dev);
    expect(refs['refs/tags/v1']).toBe(src.trunk);
    expect(Object.keys(refs).sort()).toEqual(['refs/heads/dev', 'refs/heads/trunk', 'refs/tags/v1', 'refs/tags/v2']);
    const tag = await json<{ message: string; commit: { sha: string } }>(await open.fetch(`/api/v1/repos/${repo.full_name}/tags/v2`, { headers: owner.h }));
    expect(tag).toMatchObject({ message: 'second release', commit: { sha: src.dev } });
    // Not a mirror: pushes are accepted.
    const dir = await mkdtemp(path.join(scratch, 'push-'));
    await git(['clone', '-q', `http://${owner.name}:${owner.token}@127.0.0.1:${new URL(open.url).port}/${repo.full_name}.git`, dir], scratch);
    await writeFile(path.join(dir, 'c.txt'), 'three\n');
    await git(['add', 'c.txt'], dir);
    await git(['commit', '-q', '-m', 'three'], dir);
    await git(['push', '-q', 'origin', 'trunk'], dir);
  });

  test('from a local path, by a site administrator when IMPORT_LOCAL_PATHS allows: pull request refs stay behind', async () => {
    const admin = await account(open, 'adm', { admin: true });
    const name = uniq('loc');
    const res = await migrate(open, admin, { clone_addr: bare, repo_name: name });
    expect(res.status, await res.clone().text()).toBe(201);
    const repo = checkRepo(await json(res));
    expect(repo).toMatchObject({ default_branch: 'trunk', original_url: `file://${bare}`, empty: false });
    const refs = await refsOf(open, repo.full_name, admin);
    expect(Object.keys(refs).sort()).toEqual(['refs/heads/dev', 'refs/heads/trunk', 'refs/tags/v1', 'refs/tags/v2']);
    // Not by an ordinary user, whatever the setting.
    expect(await refused(open, owner, { clone_addr: bare, repo_name: uniq('x') }, 422)).toBe('You are not allowed to import local repositories.');
    expect(await refused(open, admin, { clone_addr: `file://${scratch}/nothing-here`, repo_name: uniq('x') }, 422)).toBe('Invalid local path, it does not exist or not a directory.');
  });

  test('the job reports its progress and ends done; the API read shows the ready repository', async () => {
    const user = await userNamed(open.host, owner.name);
    const started = await open.host.migrations.start(userActor(user), { clone_addr: src.url, repo_name: uniq('job') });
    expect(started.access.repo.status).toBe(1);
    const job = await open.host.jobs.wait(started.job.id, { timeoutMs: 30_000 });
    expect(job).toMatchObject({ kind: 'migrate.run', key: `repo:${started.access.repo.id}`, status: 'done', progress_message: 'finishing', error: '' });
    const repo = checkRepo(await json(await open.fetch(`/api/v1/repos/${owner.name}/${started.access.repo.name}`, { headers: owner.h })));
    expect(repo).toMatchObject({ empty: false, default_branch: 'trunk' });
  });

  test('a closed port fails the migration with git\'s reason; nothing is left', async () => {
    const name = uniq('cl');
    const message = await refused(open, owner, { clone_addr: `http://127.0.0.1:${await closedPort()}/a/b.git`, repo_name: name }, 422);
    expect(message).toMatch(/^Migration failed: fatal: unable to access 'http:\/\/127\.0\.0\.1:\d+\/a\/b\.git': .*ECONNREFUSED/);
    const listed = await json<ApiRepository[]>(await open.fetch('/api/v1/user/repos', { headers: owner.h }));
    expect(listed.map((r) => r.name)).not.toContain(name);
  });

  test('a remote that never answers is given up after [git.timeout] MIGRATE (http and git://); the repository goes', async () => {
    const silent = net.createServer(() => {
      // Accepts and says nothing.
    });
    const port = await listen(silent);
    for (const address of [`http://127.0.0.1:${port}/a/b.git`, `git://127.0.0.1:${port}/a/b.git`]) {
      const name = uniq('hang');
      const started = Date.now();
      const pending = migrate(open, owner, { clone_addr: address, repo_name: name });
      // While it runs, the repository exists in the "being migrated" state: empty, and not pushable.
      await new Promise((resolve) => setTimeout(resolve, 700));
      const during = await open.fetch(`/api/v1/repos/${owner.name}/${name}`, { headers: owner.h });
      expect(during.status).toBe(200);
      expect(checkRepo(await json(during))).toMatchObject({ empty: true });
      const message = await expectApiError(await pending, 422, open.url);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(message).toMatch(/^Migration failed: fatal: /);
      expect(message).toMatch(/timed out after 3 s|did not finish within 3 seconds/);
      expect((await open.fetch(`/api/v1/repos/${owner.name}/${name}`, { headers: owner.h })).status).toBe(404);
    }
  });

  test('from a git:// remote: git connects through the address that was checked, branches and tags come along', async () => {
    const port = await closedPort();
    const daemon = spawn('git', ['daemon', '--reuseaddr', '--export-all', `--base-path=${scratch}`, '--listen=127.0.0.1', `--port=${port}`, scratch], { stdio: 'ignore' });
    servers.push({ close: () => daemon.kill() });
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = net.connect({ host: '127.0.0.1', port }, () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const res = await migrate(open, owner, { clone_addr: `git://127.0.0.1:${port}/bare.git`, repo_name: uniq('gitd') });
    expect(res.status, await res.clone().text()).toBe(201);
    const repo = checkRepo(await json(res));
    expect(repo).toMatchObject({ empty: false, default_branch: 'trunk', original_url: `git://127.0.0.1:${port}/bare.git` });
    const refs = await refsOf(open, repo.full_name, owner);
    expect(refs['refs/heads/trunk']).toBe(src.trunk);
    expect(refs['refs/heads/dev']).toBe(src.dev);
    expect(Object.keys(refs).sort()).toEqual(['refs/heads/dev', 'refs/heads/trunk', 'refs/tags/v1', 'refs/tags/v2']);
  });

  test('Forgejo\'s refusals before anything is made', async () => {
    const other = await account(open, 'oth');
    const base = { clone_addr: src.url };
    expect((await migrate(open, undefined, { ...base, repo_name: uniq('x') })).status).toBe(401);
    expect(await refused(open, owner, { ...base, repo_name: uniq('x'), repo_owner: other.name }, 403)).toBe('Given user is not an organization.');
    expect(await refused(open, owner, { ...base, repo_name: uniq('x'), repo_owner: 'nobody-here' }, 422)).toBe('user does not exist [uid: 0, name: nobody-here]');
    await refused(open, owner, { ...base, repo_name: 'bad name!' }, 422);
    await refused(open, owner, { ...base, repo_name: 'x.git' }, 422);
    await expectApiError(await migrate(open, owner, { repo_name: uniq('x') }), 422, open.url);
    expect(await refused(open, owner, { ...base, repo_name: uniq('x'), service: 'github' }, 422)).toBe("'github' not supported");
    expect(await refused(open, owner, { ...base, repo_name: uniq('x'), mirror: true, mirror_interval: '1m' }, 422)).toBe('interval 1m0s is set below Minimum Interval of 10m0s');
    expect(await refused(open, owner, { ...base, repo_name: uniq('x'), mirror: true, mirror_interval: 'often' }, 422)).toBe('time: invalid duration "often"');
    expect(await refused(open, owner, { clone_addr: 'ftp://example.com/x.git', repo_name: uniq('x') }, 422)).toBe('Invalid protocol: only http, https and git addresses can be migrated');
    expect(await refused(open, owner, { clone_addr: 'http://[::1', repo_name: uniq('x') }, 422)).toBe('Invalid URL');
    // A name taken: 409, the existing repository untouched.
    const taken = uniq('tk');
    expect((await open.fetch('/api/v1/user/repos', jsonInit('POST', { name: taken, description: 'mine' }, owner.h))).status).toBe(201);
    expect(await expectApiError(await migrate(open, owner, { ...base, repo_name: taken }), 409, open.url)).toBe('The repository with the same name already exists.');
    expect(checkRepo(await json(await open.fetch(`/api/v1/repos/${owner.name}/${taken}`, { headers: owner.h })))).toMatchObject({ description: 'mine', empty: true });
    // Into an organization: its owners may, its other members may not.
    const org = uniq('org');
    expect((await open.fetch('/api/v1/orgs', jsonInit('POST', { username: org }, owner.h))).status).toBe(201);
    expect(await refused(open, other, { ...base, repo_name: uniq('x'), repo_owner: org }, 403)).toBe('Given user is not owner of organization.');
    const intoOrg = await migrate(open, owner, { ...base, repo_name: uniq('o'), repo_owner: org });
    expect(intoOrg.status).toBe(201);
    expect(checkRepo(await json(intoOrg)).owner.login).toBe(org);
    // A site administrator may migrate into another user's account.
    const admin = await account(open, 'adm', { admin: true });
    const forOther = await migrate(open, admin, { ...base, repo_name: uniq('f'), repo_owner: other.name });
    expect(forOther.status).toBe(201);
    expect(checkRepo(await json(forOther)).owner.login).toBe(other.name);
  });

  test('the start-up repair removes a repository whose migration job is gone, and leaves one whose job is queued', async () => {
    const user = await userNamed(open.host, owner.name);
    // The worker is busy with nothing: stop it so the jobs stay queued.
    await open.host.jobs.stop();
    const kept = await open.host.migrations.start(userActor(user), { clone_addr: src.url, repo_name: uniq('keep') });
    const lost = await open.host.migrations.start(userActor(user), { clone_addr: src.url, repo_name: uniq('lost') });
    // Its job vanished (pruned, or its row lost): the migration can never finish.
    const ctx = (open.host as unknown as { ctx: { store<T>(c: new (...a: never[]) => T): T } }).ctx;
    await ctx.store(MigrationsStore).setJob(lost.access.repo.id, lost.job.id + 100_000);
    expect(await open.host.migrations.repairInterrupted()).toEqual([lost.access.repo.id]);
    expect((await open.fetch(`/api/v1/repos/${owner.name}/${lost.access.repo.name}`, { headers: owner.h })).status).toBe(404);
    expect((await open.fetch(`/api/v1/repos/${owner.name}/${kept.access.repo.name}`, { headers: owner.h })).status).toBe(200);
  });
});

describe.skipIf(TEST_GIT === 'memory')('remote addresses the settings refuse', () => {
  test('loopback without ALLOW_LOCALNETWORKS; local paths without IMPORT_LOCAL_PATHS, even for an administrator', async () => {
    const user = await account(strict, 'su');
    const admin = await account(strict, 'sa', { admin: true });
    expect(await refused(strict, user, { clone_addr: src.url, repo_name: uniq('x') }, 422)).toBe('You can not import from disallowed hosts.');
    expect(await refused(strict, user, { clone_addr: 'http://localhost/a/b.git', repo_name: uniq('x') }, 422)).toBe('You can not import from disallowed hosts.');
    expect(await refused(strict, user, { clone_addr: 'http://10.1.2.3/a/b.git', repo_name: uniq('x') }, 422)).toBe('You can not import from disallowed hosts.');
    // The source's own address in IPv6 forms that carry it (NAT64, 6to4, IPv4-compatible), and carrier-grade NAT.
    const sourcePort = new URL(source.url).port;
    for (const host of ['[64:ff9b::7f00:1]', '[2002:7f00:1::]', '[::127.0.0.1]', '100.64.0.1']) {
      const clone_addr = `http://${host}:${sourcePort}/${src.full}.git`;
      expect(await refused(strict, user, { clone_addr, repo_name: uniq('x') }, 422), clone_addr).toBe('You can not import from disallowed hosts.');
    }
    expect(await refused(strict, user, { clone_addr: bare, repo_name: uniq('x') }, 422)).toBe('You are not allowed to import local repositories.');
    expect(await refused(strict, admin, { clone_addr: `file://${bare}`, repo_name: uniq('x') }, 422)).toBe('You are not allowed to import local repositories.');
  });

  test('[repository] DISABLE_MIGRATIONS and [mirror] DISABLE_NEW_PULL: 403', async () => {
    const user = await account(strict, 'sd');
    // A public address (TEST-NET-1) that is never contacted: the refusal comes first.
    const base = { clone_addr: 'https://192.0.2.1/a/b.git' };
    expect(await refused(strict, user, { ...base, repo_name: uniq('x'), mirror: true }, 403)).toBe('the site administrator has disabled the creation of new pull mirrors');
    expect(await refused(strict, user, { ...base, repo_name: uniq('x') }, 403)).toBe('the site administrator has disabled migrations');
  });

  test('BLOCKED_DOMAINS and ALLOWED_DOMAINS; a redirect is followed only into an allowed host', async () => {
    const user = await account(listed, 'lu');
    const sourcePort = new URL(source.url).port;
    // Allowed by name: the source reached as localhost.
    const viaName = await migrate(listed, user, { clone_addr: `http://localhost:${sourcePort}/${src.full}.git`, repo_name: uniq('ok') });
    expect(viaName.status, await viaName.clone().text()).toBe(201);
    // Not in ALLOWED_DOMAINS.
    expect(await refused(listed, user, { clone_addr: src.url, repo_name: uniq('x') }, 422)).toBe('You can not import from disallowed hosts.');
    // Allowed, but blocked too: blocked wins.
    expect(await refused(listed, user, { clone_addr: `http://127.0.0.3:${sourcePort}/${src.full}.git`, repo_name: uniq('x') }, 422)).toBe('You can not import from disallowed hosts.');

    // A server on an allowed host that redirects: into the source by its allowed name (followed), or by its address (refused).
    let target = '';
    const redirector = http.createServer((req, res) => {
      res.writeHead(302, { location: `${target}${req.url?.replace(/^\/r/, '') ?? ''}` });
      res.end();
    });
    const port = await listen(redirector);
    target = `http://localhost:${sourcePort}`;
    const followed = await migrate(listed, user, { clone_addr: `http://localhost:${port}/r/${src.full}.git`, repo_name: uniq('rd') });
    expect(followed.status, await followed.clone().text()).toBe(201);
    expect((await refsOf(listed, checkRepo(await json(followed)).full_name, user))['refs/heads/dev']).toBe(src.dev);
    target = `http://127.0.0.1:${sourcePort}`;
    expect(await refused(listed, user, { clone_addr: `http://localhost:${port}/r/${src.full}.git`, repo_name: uniq('rx') }, 422)).toBe('You can not import from disallowed hosts.');
  });
});

test.skipIf(TEST_GIT !== 'memory')('the in-memory git backend cannot migrate: 501', async () => {
  const user = await account(open, 'mem');
  const res = await migrate(open, user, { clone_addr: 'https://192.0.2.1/a/b.git', repo_name: uniq('x') });
  expect(res.status).toBe(501);
});
