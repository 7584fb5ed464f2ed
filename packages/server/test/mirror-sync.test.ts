/**
 * Pull mirrors end to end, with two RepoHost servers on loopback: a repository of the source is mirrored into
 * the target (which may reach local networks), a push to the source reaches the target through `mirror-sync`,
 * and the target refuses pushes to the mirror. A private source is mirrored with credentials (a user name and a
 * token as the password) that never show in any answer, job or stored text. Interval and prune settings, who may
 * sync, and the conversion of a mirror into an ordinary repository.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { JobsService, type ApiRepository } from '@repohost/core';
import { MirrorsStore } from '@repohost/core/internal';
import { TEST_GIT, jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, checkRepo, expectApiError, json, uniq, type Account } from './helpers';

let source: TestServer;
let target: TestServer;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;

function git(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: gitEnv, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(Object.assign(new Error(`git ${args.join(' ')} failed: ${stderr}`), { stderr: String(stderr) }));
      else resolve({ stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

function ctxOf(server: TestServer): { store<T>(c: new (...a: never[]) => T): T; service<T>(c: new (...a: never[]) => T): T } {
  return (server.host as unknown as { ctx: { store<T>(c: new (...a: never[]) => T): T; service<T>(c: new (...a: never[]) => T): T } }).ctx;
}

/** Polls `probe` until it returns something, failing after `ms`. */
async function eventually<T>(probe: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function branchOf(server: TestServer, full: string, who: Account, branch: string): Promise<string | undefined> {
  const res = await server.fetch(`/api/v1/repos/${full}/branches/${encodeURIComponent(branch)}`, { headers: who.h });
  if (res.status !== 200) return undefined;
  return (await json<{ commit: { id: string } }>(res)).commit.id;
}

/** A source repository of `who` with a first commit on `main`, and a working copy that pushes to it. */
async function sourceRepo(who: Account, options: { private?: boolean } = {}): Promise<{ full: string; dir: string; head: string }> {
  const name = uniq('src');
  const res = await source.fetch('/api/v1/user/repos', jsonInit('POST', { name, private: options.private ?? false, default_branch: 'main' }, who.h));
  expect(res.status, await res.clone().text()).toBe(201);
  const full = `${who.name}/${name}`;
  const dir = await mkdtemp(path.join(scratch, 'wc-'));
  await git(['init', '-q', '-b', 'main'], dir);
  await git(['remote', 'add', 'origin', `http://${who.name}:${who.token}@127.0.0.1:${new URL(source.url).port}/${full}.git`], dir);
  const head = await commit(dir, 'first');
  await git(['push', '-q', 'origin', 'main'], dir);
  return { full, dir, head };
}

let counter = 0;
async function commit(dir: string, message: string): Promise<string> {
  counter++;
  await writeFile(path.join(dir, 'file.txt'), `${message}\n${counter}\n`);
  await git(['add', 'file.txt'], dir);
  await git(['commit', '-q', '-m', message], dir);
  return (await git(['rev-parse', 'HEAD'], dir)).stdout.trim();
}

async function migrate(who: Account, body: Record<string, unknown>): Promise<Response> {
  return target.fetch('/api/v1/repos/migrate', jsonInit('POST', body, who.h));
}

const sourceUrl = (full: string) => `${source.url}${full}.git`;

beforeAll(async () => {
  source = await startTestServer();
  target = await startTestServer({
    migrations: { ALLOW_LOCALNETWORKS: true },
    mirror: { MIN_INTERVAL: '10m', DEFAULT_INTERVAL: '8h' },
    'git.timeout': { MIRROR: 3 },
    server: { START_SSH_SERVER: true, SSH_LISTEN_HOST: '127.0.0.1', SSH_LISTEN_PORT: 0 },
  });
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-mirrors-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Git Tester\n\temail = tester@example.com\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
});
afterAll(async () => {
  await source?.cleanup();
  await target?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe.skipIf(TEST_GIT === 'memory')('pull mirrors between two servers', () => {
  let srcOwner: Account;
  let owner: Account;
  let reader: Account;
  let src: { full: string; dir: string; head: string };
  let mirror: ApiRepository;
  beforeAll(async () => {
    srcOwner = await account(source, 'srco');
    owner = await account(target, 'mo');
    reader = await account(target, 'rd');
    src = await sourceRepo(srcOwner);
  });

  test('migrate with mirror: true makes a mirror with the source branches; mirror_interval and mirror_updated shown', async () => {
    const name = uniq('m');
    const before = Date.now();
    const res = await migrate(owner, { clone_addr: sourceUrl(src.full), repo_name: name, mirror: true, mirror_interval: '1h30m' });
    expect(res.status, await res.clone().text()).toBe(201);
    mirror = checkRepo(await json(res));
    expect(mirror).toMatchObject({
      name,
      full_name: `${owner.name}/${name}`,
      mirror: true,
      empty: false,
      default_branch: 'main',
      original_url: sourceUrl(src.full),
      mirror_interval: '1h30m0s',
      permissions: { admin: true, push: true, pull: true },
    });
    expect(Date.parse(mirror.mirror_updated)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(await branchOf(target, mirror.full_name, owner, 'main')).toBe(src.head);
    // The same through a read and a list.
    const read = checkRepo(await json(await target.fetch(`/api/v1/repos/${mirror.full_name}`, { headers: owner.h })));
    expect(read).toMatchObject({ mirror: true, mirror_interval: '1h30m0s', original_url: sourceUrl(src.full) });
    const listed = await json<ApiRepository[]>(await target.fetch('/api/v1/user/repos', { headers: owner.h }));
    expect(listed.find((r) => r.name === name)).toMatchObject({ mirror: true, mirror_interval: '1h30m0s' });
    const ofUser = await json<ApiRepository[]>(await target.fetch(`/api/v1/users/${owner.name}/repos`, { headers: owner.h }));
    expect(ofUser.find((r) => r.name === name)).toMatchObject({ mirror: true, mirror_interval: '1h30m0s' });
  });

  test('a push to the source reaches the mirror through mirror-sync (200, empty body); new branches and tags too', async () => {
    const second = await commit(src.dir, 'second');
    await git(['push', '-q', 'origin', 'main'], src.dir);
    await git(['tag', 'v1.0', second], src.dir);
    await git(['push', '-q', 'origin', 'v1.0', 'main:feature'], src.dir);
    const res = await target.fetch(`/api/v1/repos/${mirror.full_name}/mirror-sync`, { method: 'POST', headers: owner.h });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    await eventually(async () => ((await branchOf(target, mirror.full_name, owner, 'main')) === second ? true : undefined), 'the mirror to follow');
    expect(await branchOf(target, mirror.full_name, owner, 'feature')).toBe(second);
    const tags = await json<{ name: string; commit: { sha: string } }[]>(await target.fetch(`/api/v1/repos/${mirror.full_name}/tags`, { headers: owner.h }));
    expect(tags.map((t) => [t.name, t.commit.sha])).toEqual([['v1.0', second]]);
    const commitRes = await target.fetch(`/api/v1/repos/${mirror.full_name}/git/commits/${second}`, { headers: owner.h });
    expect(commitRes.status).toBe(200);
  });

  test('prune: a branch deleted at the source goes from the mirror (enable_prune is on by default)', async () => {
    await git(['push', '-q', 'origin', ':feature'], src.dir);
    const res = await target.fetch(`/api/v1/repos/${mirror.full_name}/mirror-sync`, { method: 'POST', headers: owner.h });
    expect(res.status).toBe(200);
    await eventually(async () => ((await branchOf(target, mirror.full_name, owner, 'feature')) === undefined ? true : undefined), 'the branch to go');
  });

  test('concurrent mirror-sync calls are absorbed into queued jobs and run one fetch at a time', async () => {
    const third = await commit(src.dir, 'third');
    await git(['push', '-q', 'origin', 'main'], src.dir);
    const answers = await Promise.all(Array.from({ length: 6 }, () => target.fetch(`/api/v1/repos/${mirror.full_name}/mirror-sync`, { method: 'POST', headers: owner.h })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    await eventually(async () => ((await branchOf(target, mirror.full_name, owner, 'main')) === third ? true : undefined), 'the mirror to follow');
    // Six requests, fewer jobs: a queued sync absorbs the requests made while it waits.
    const jobs = ctxOf(target).service(JobsService);
    const ids: number[] = [];
    for (let id = 1; id < 200; id++) {
      const job = await jobs.get(id);
      if (job?.kind === 'mirror.sync' && job.key === `repo:${mirror.id}` && job.created_unix >= Math.floor(Date.now() / 1000) - 30) ids.push(id);
    }
    expect(ids.length).toBeLessThan(6);
  });

  test('pushing to a pull mirror is refused, over HTTP and SSH', async () => {
    const dir = await mkdtemp(path.join(scratch, 'push-'));
    await git(['init', '-q', '-b', 'main'], dir);
    await commit(dir, 'intruder');
    const refusal = (args: string[]) =>
      git(args, dir).then(
        () => undefined,
        (e: { stderr: string }) => e.stderr,
      );
    const url = `http://${owner.name}:${owner.token}@127.0.0.1:${new URL(target.url).port}/${mirror.full_name}.git`;
    expect(await refusal(['push', url, 'main:intruder'])).toContain('mirror repository is read-only');

    const keyFile = path.join(scratch, 'mirror-key');
    await new Promise<void>((resolve, reject) =>
      execFile('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'pusher@example.com', '-f', keyFile], (error) => (error ? reject(error) : resolve())),
    );
    const publicKey = (await readFile(`${keyFile}.pub`, 'utf8')).trim();
    expect((await target.fetch('/api/v1/user/keys', jsonInit('POST', { title: 'laptop', key: publicKey }, owner.h))).status).toBe(201);
    const port = target.host.settings.server.SSH_PORT;
    const sshCommand = `ssh -F /dev/null -i ${keyFile} -p ${port} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR`;
    expect(await refusal(['-c', `core.sshCommand=${sshCommand}`, 'push', `ssh://git@127.0.0.1:${port}/${mirror.full_name}.git`, 'main:intruder'])).toContain(
      'mirror repository is read-only',
    );
    expect(await branchOf(target, mirror.full_name, owner, 'intruder')).toBeUndefined();
  });

  test('mirror-sync: 403 on a repository that is not a mirror and for a reader; 401 anonymous; 404 for a private one unseen', async () => {
    const plain = uniq('plain');
    expect((await target.fetch('/api/v1/user/repos', jsonInit('POST', { name: plain }, owner.h))).status).toBe(201);
    expect(await expectApiError(await target.fetch(`/api/v1/repos/${owner.name}/${plain}/mirror-sync`, { method: 'POST', headers: owner.h }), 403, target.url)).toBe(
      'Repository is not a mirror',
    );
    expect(await expectApiError(await target.fetch(`/api/v1/repos/${mirror.full_name}/mirror-sync`, { method: 'POST', headers: reader.h }), 403, target.url)).toBe(
      'Must have write access',
    );
    expect((await target.fetch(`/api/v1/repos/${mirror.full_name}/mirror-sync`, { method: 'POST' })).status).toBe(401);
    const hidden = uniq('hid');
    expect((await target.fetch('/api/v1/user/repos', jsonInit('POST', { name: hidden, private: true }, owner.h))).status).toBe(201);
    await expectApiError(await target.fetch(`/api/v1/repos/${owner.name}/${hidden}/mirror-sync`, { method: 'POST', headers: reader.h }), 404, target.url);
  });

  test('PATCH mirror_interval and enable_prune: each sent one changes, invalid intervals are 422', async () => {
    const store = ctxOf(target).store(MirrorsStore);
    const patch = (body: Record<string, unknown>) => target.fetch(`/api/v1/repos/${mirror.full_name}`, jsonInit('PATCH', body, owner.h));
    let res = await patch({ enable_prune: false });
    expect(res.status).toBe(200);
    expect(checkRepo(await json(res)).mirror_interval).toBe('1h30m0s');
    expect((await store.findByRepo(mirror.id))?.enable_prune).toBe(0);
    res = await patch({ mirror_interval: '12h', enable_prune: true });
    expect(checkRepo(await json(res)).mirror_interval).toBe('12h0m0s');
    const row = await store.findByRepo(mirror.id);
    expect(row?.enable_prune).toBe(1);
    expect(Number(row?.next_update_unix)).toBeGreaterThan(Date.now() / 1000 + 11 * 3600);
    res = await patch({ mirror_interval: '0' });
    expect(checkRepo(await json(res)).mirror_interval).toBe('0s');
    expect(Number((await store.findByRepo(mirror.id))?.next_update_unix)).toBe(0);
    expect(await expectApiError(await patch({ mirror_interval: '5m' }), 422, target.url)).toBe('invalid mirror interval: 5m0s is below minimum interval: 10m0s');
    expect(await expectApiError(await patch({ mirror_interval: 'soon' }), 422, target.url)).toBe('time: invalid duration "soon"');
    expect(await expectApiError(await patch({ mirror_interval: '10' }), 422, target.url)).toBe('time: missing unit in duration "10"');
    expect(await expectApiError(await patch({ mirror_interval: '10x' }), 422, target.url)).toBe('time: unknown unit "x" in duration "10x"');
    // Nothing changed by the refused ones.
    expect(checkRepo(await json(await target.fetch(`/api/v1/repos/${mirror.full_name}`, { headers: owner.h }))).mirror_interval).toBe('0s');
  });

  test('a private source mirrored with a user name and a token: the credentials never show', async () => {
    const secret = await sourceRepo(srcOwner, { private: true });
    const name = uniq('pm');
    const res = await migrate(owner, { clone_addr: sourceUrl(secret.full), repo_name: name, mirror: true, private: true, auth_username: srcOwner.name, auth_password: srcOwner.token });
    const text = await res.clone().text();
    expect(res.status, text).toBe(201);
    expect(text).not.toContain(srcOwner.token);
    const repo = checkRepo(JSON.parse(text));
    expect(repo).toMatchObject({ private: true, mirror: true, original_url: sourceUrl(secret.full), mirror_interval: '8h0m0s' });
    expect(await branchOf(target, repo.full_name, owner, 'main')).toBe(secret.head);
    const stored = await ctxOf(target).store(MirrorsStore).findByRepo(repo.id);
    expect(stored?.remote_address).toBe(sourceUrl(secret.full));
    expect(stored?.remote_credentials).not.toBe('');
    expect(stored?.remote_credentials).not.toContain(srcOwner.token);
    // The stored credentials work for later syncs too.
    const next = await commit(secret.dir, 'private second');
    await git(['push', '-q', 'origin', 'main'], secret.dir);
    expect((await target.fetch(`/api/v1/repos/${repo.full_name}/mirror-sync`, { method: 'POST', headers: owner.h })).status).toBe(200);
    await eventually(async () => ((await branchOf(target, repo.full_name, owner, 'main')) === next ? true : undefined), 'the private mirror to follow');
    for (const path of [`/api/v1/repos/${repo.full_name}`, '/api/v1/user/repos']) {
      expect(await (await target.fetch(path, { headers: owner.h })).text()).not.toContain(srcOwner.token);
    }

    // Wrong credentials: 422 "Authentication failed", without the password, and nothing left behind.
    const wrong = 'not-the-right-password-123';
    const failed = await migrate(owner, { clone_addr: sourceUrl(secret.full), repo_name: uniq('bad'), mirror: true, auth_username: srcOwner.name, auth_password: wrong });
    const message = await expectApiError(failed, 422, target.url);
    expect(message).toMatch(/^Authentication failed: /);
    expect(message).not.toContain(wrong);
    // Credentials in the address itself are taken out of what is stored and shown.
    const inUrl = new URL(sourceUrl(secret.full));
    inUrl.username = srcOwner.name;
    inUrl.password = srcOwner.token;
    const viaUrl = await migrate(owner, { clone_addr: inUrl.toString(), repo_name: uniq('url'), mirror: true });
    const viaText = await viaUrl.clone().text();
    expect(viaUrl.status, viaText).toBe(201);
    expect(viaText).not.toContain(srcOwner.token);
    expect(checkRepo(JSON.parse(viaText)).original_url).toBe(sourceUrl(secret.full));
  });

  test('a sync that fails records the reason without credentials and leaves the mirror as it was', async () => {
    const secret = await sourceRepo(srcOwner, { private: true });
    const name = uniq('rv');
    const res = await migrate(owner, { clone_addr: sourceUrl(secret.full), repo_name: name, mirror: true, auth_username: srcOwner.name, auth_password: srcOwner.token });
    expect(res.status).toBe(201);
    const repo = checkRepo(await json(res));
    // The source repository goes away: the next sync fails.
    expect((await source.fetch(`/api/v1/repos/${secret.full}`, { method: 'DELETE', headers: srcOwner.h })).status).toBe(204);
    expect((await target.fetch(`/api/v1/repos/${repo.full_name}/mirror-sync`, { method: 'POST', headers: owner.h })).status).toBe(200);
    const store = ctxOf(target).store(MirrorsStore);
    const row = await eventually(async () => {
      const found = await store.findByRepo(repo.id);
      return found && found.last_error !== '' ? found : undefined;
    }, 'the sync to fail');
    expect(row.last_error).toMatch(/^Mirror sync failed: /);
    expect(row.last_error).not.toContain(srcOwner.token);
    expect(await branchOf(target, repo.full_name, owner, 'main')).toBe(secret.head);
  });

  test('a remote that stops answering is given up after [git.timeout] MIRROR; the mirror stays as it was', async () => {
    const res = await migrate(owner, { clone_addr: sourceUrl(src.full), repo_name: uniq('hg'), mirror: true });
    const repo = checkRepo(await json(res));
    const head = await branchOf(target, repo.full_name, owner, 'main');
    const silent = net.createServer(() => {
      // Accepts and says nothing.
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as net.AddressInfo).port;
      const store = ctxOf(target).store(MirrorsStore);
      await store.update(repo.id, { remote_address: `http://127.0.0.1:${port}/a/b.git` });
      const started = Date.now();
      expect((await target.fetch(`/api/v1/repos/${repo.full_name}/mirror-sync`, { method: 'POST', headers: owner.h })).status).toBe(200);
      const row = await eventually(async () => {
        const found = await store.findByRepo(repo.id);
        return found && found.last_error !== '' ? found : undefined;
      }, 'the sync to give up');
      expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
      expect(row.last_error).toMatch(/timed out after 3 s/);
      expect(await branchOf(target, repo.full_name, owner, 'main')).toBe(head);
    } finally {
      silent.close();
    }
  });

  test('convert: a mirror becomes an ordinary repository (200), once; 403 for a reader, 422 for a repository that is not a mirror', async () => {
    const name = uniq('cv');
    const res = await migrate(owner, { clone_addr: sourceUrl(src.full), repo_name: name, mirror: true });
    expect(res.status).toBe(201);
    const full = `${owner.name}/${name}`;
    expect((await target.fetch(`/api/v1/repos/${full}/convert`, { method: 'POST', headers: reader.h })).status).toBe(403);
    const converted = await target.fetch(`/api/v1/repos/${full}/convert`, { method: 'POST', headers: owner.h });
    expect(converted.status).toBe(200);
    expect(checkRepo(await json(converted))).toMatchObject({ mirror: false, mirror_interval: '' });
    expect(await ctxOf(target).store(MirrorsStore).findByRepo(checkRepo(await json(await target.fetch(`/api/v1/repos/${full}`, { headers: owner.h }))).id)).toBeUndefined();
    expect(await expectApiError(await target.fetch(`/api/v1/repos/${full}/convert`, { method: 'POST', headers: owner.h }), 422, target.url)).toBe('Repository is not a mirror');
    // Pushes are accepted now.
    const dir = await mkdtemp(path.join(scratch, 'conv-'));
    await git(['clone', '-q', `http://${owner.name}:${owner.token}@127.0.0.1:${new URL(target.url).port}/${full}.git`, dir], scratch);
    const head = await commit(dir, 'after convert');
    await git(['push', '-q', 'origin', 'main'], dir);
    expect(await branchOf(target, full, owner, 'main')).toBe(head);
  });

  test('deleting a mirror deletes its mirror row', async () => {
    const name = uniq('del');
    const res = await migrate(owner, { clone_addr: sourceUrl(src.full), repo_name: name, mirror: true });
    const repo = checkRepo(await json(res));
    expect(await ctxOf(target).store(MirrorsStore).findByRepo(repo.id)).toBeDefined();
    expect((await target.fetch(`/api/v1/repos/${repo.full_name}`, { method: 'DELETE', headers: owner.h })).status).toBe(204);
    expect(await ctxOf(target).store(MirrorsStore).findByRepo(repo.id)).toBeUndefined();
  });

  test('enqueueDue queues the mirrors whose interval passed, once', async () => {
    const name = uniq('due');
    const res = await migrate(owner, { clone_addr: sourceUrl(src.full), repo_name: name, mirror: true, mirror_interval: '10m' });
    const repo = checkRepo(await json(res));
    const store = ctxOf(target).store(MirrorsStore);
    await store.update(repo.id, { next_update_unix: Math.floor(Date.now() / 1000) - 5 });
    expect(await target.host.mirrors.enqueueDue()).toBeGreaterThanOrEqual(1);
    expect(Number((await store.findByRepo(repo.id))?.next_update_unix)).toBeGreaterThan(Date.now() / 1000 + 500);
    // Queued already: a second run finds nothing due for it.
    const again = await store.due(Math.floor(Date.now() / 1000), 1000);
    expect(again.map((m) => m.repo_id)).not.toContain(repo.id);
  });
});
