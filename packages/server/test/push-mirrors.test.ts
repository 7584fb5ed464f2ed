/**
 * Push mirrors (`/repos/{owner}/{repo}/push_mirrors…`), with two RepoHost servers on loopback: the source (which
 * may push to local networks) pushes with the real git client to a repository on the target, authenticated as a
 * user of the target with a token. Who may see and change mirrors, Forgejo's answers to bad input, credentials
 * never shown, and the pushes themselves: on commit, on demand, with a branch filter, with a wrong password. Native
 * git only (the in-memory backend answers 501: push-mirrors-settings.test.ts).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PushMirrorSchema, matchesSchema, schemaErrors, type ApiPushMirror } from '@repohost/core';
import { PushMirrorsStore } from '@repohost/core/internal';
import { TEST_GIT, jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, expectApiError, json, uniq, type Account } from './helpers';

let source: TestServer;
let target: TestServer;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;

function git(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: gitEnv, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr}`));
      else resolve(String(stdout));
    });
  });
}

async function createRepo(server: TestServer, who: Account, body: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('r');
  const res = await server.fetch('/api/v1/user/repos', jsonInit('POST', { name, ...body }, who.h));
  expect(res.status, await res.clone().text()).toBe(201);
  return `${who.name}/${name}`;
}

function checkShape(mirror: unknown): ApiPushMirror {
  expect(matchesSchema(PushMirrorSchema, mirror), schemaErrors(PushMirrorSchema, mirror).join('\n')).toBe(true);
  return mirror as ApiPushMirror;
}

async function addMirror(server: TestServer, full: string, who: Account, body: Record<string, unknown>): Promise<ApiPushMirror> {
  const res = await server.fetch(`/api/v1/repos/${full}/push_mirrors`, jsonInit('POST', body, who.h));
  expect(res.status, await res.clone().text()).toBe(200);
  return checkShape(await json(res));
}

async function listMirrors(server: TestServer, full: string, who: Account, query = ''): Promise<{ items: ApiPushMirror[]; total: string | null; text: string }> {
  const res = await server.fetch(`/api/v1/repos/${full}/push_mirrors${query}`, { headers: who.h });
  const text = await res.clone().text();
  expect(res.status, text).toBe(200);
  const items = await json<ApiPushMirror[]>(res);
  items.forEach(checkShape);
  return { items, total: res.headers.get('x-total-count'), text };
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

/** The commit a branch of a target repository points at, if it exists. */
async function targetBranch(full: string, who: Account, branch: string): Promise<string | undefined> {
  const res = await target.fetch(`/api/v1/repos/${full}/branches/${encodeURIComponent(branch)}`, { headers: who.h });
  if (res.status !== 200) return undefined;
  return (await json<{ commit: { id: string } }>(res)).commit.id;
}

/** A working copy of a source repository, pushing as `who`, with one commit on `main`. */
async function workingCopy(full: string, who: Account): Promise<string> {
  const dir = await mkdtemp(path.join(scratch, 'wc-'));
  await git(['init', '-q', '-b', 'main'], dir);
  const port = new URL(source.url).port;
  await git(['remote', 'add', 'origin', `http://${who.name}:${who.token}@127.0.0.1:${port}/${full}.git`], dir);
  return dir;
}

let counter = 0;
async function commit(dir: string, message: string): Promise<string> {
  counter++;
  await writeFile(path.join(dir, 'file.txt'), `${message}\n${counter}\n`);
  await git(['add', 'file.txt'], dir);
  await git(['commit', '-q', '-m', message], dir);
  return (await git(['rev-parse', 'HEAD'], dir)).trim();
}

function mirrorsStore(server: TestServer): PushMirrorsStore {
  return (server.host as unknown as { ctx: { store<T>(c: new (...a: never[]) => T): T } }).ctx.store(PushMirrorsStore);
}

beforeAll(async () => {
  target = await startTestServer();
  source = await startTestServer({ migrations: { ALLOW_LOCALNETWORKS: true } });
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-push-mirrors-'));
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

describe.skipIf(TEST_GIT === 'memory')('the push mirrors API', () => {
  let owner: Account;
  let full: string;
  beforeAll(async () => {
    owner = await account(source, 'own');
    full = await createRepo(source, owner);
  });

  test('add, list, get by remote name, delete: shapes and Forgejo names, no remote contacted', async () => {
    expect((await listMirrors(source, full, owner)).items).toEqual([]);
    const added = await addMirror(source, full, owner, { remote_address: 'https://example.com/test/repo.git', interval: '8h' });
    expect(added).toMatchObject({
      repo_name: full.split('/')[1],
      remote_address: 'https://example.com/test/repo.git',
      interval: '8h0m0s',
      sync_on_commit: false,
      last_update: null,
      last_error: '',
      branch_filter: '',
      public_key: '',
    });
    expect(added.remote_name).toMatch(/^remote_mirror_[A-Za-z0-9]{10}$/);
    expect(Date.parse(added.created)).toBeGreaterThan(Date.now() - 60_000);

    const listed = await listMirrors(source, full, owner);
    expect(listed.items).toEqual([added]);
    expect(listed.total).toBe('1');

    const got = await source.fetch(`/api/v1/repos/${full}/push_mirrors/${added.remote_name}`, { headers: owner.h });
    expect(got.status).toBe(200);
    expect(checkShape(await json(got))).toEqual(added);

    const removed = await source.fetch(`/api/v1/repos/${full}/push_mirrors/${added.remote_name}`, { method: 'DELETE', headers: owner.h });
    expect(removed.status).toBe(204);
    await expectApiError(await source.fetch(`/api/v1/repos/${full}/push_mirrors/${added.remote_name}`, { headers: owner.h }), 404, source.url);
    await expectApiError(await source.fetch(`/api/v1/repos/${full}/push_mirrors/${added.remote_name}`, { method: 'DELETE', headers: owner.h }), 404, source.url);
    expect((await listMirrors(source, full, owner)).items).toEqual([]);
  });

  test('the same address twice makes two mirrors (Forgejo does not refuse it); the list pages with X-Total-Count', async () => {
    const repo = await createRepo(source, owner);
    const a = await addMirror(source, repo, owner, { remote_address: 'https://example.com/same.git', interval: '0' });
    const b = await addMirror(source, repo, owner, { remote_address: 'https://example.com/same.git', interval: '10m', sync_on_commit: true });
    expect(a.remote_name).not.toBe(b.remote_name);
    expect(a.interval).toBe('0s');
    expect(b).toMatchObject({ interval: '10m0s', sync_on_commit: true });
    const first = await listMirrors(source, repo, owner, '?limit=1&page=1');
    expect(first.total).toBe('2');
    expect(first.items.map((m) => m.remote_name)).toEqual([a.remote_name]);
    const second = await listMirrors(source, repo, owner, '?limit=1&page=2');
    expect(second.items.map((m) => m.remote_name)).toEqual([b.remote_name]);
  });

  test('credentials given in the address or apart are kept out of every answer', async () => {
    const repo = await createRepo(source, owner);
    const res = await source.fetch(
      `/api/v1/repos/${repo}/push_mirrors`,
      jsonInit('POST', { remote_address: 'https://someone:in-url-secret@example.com/x.git', remote_password: 'apart-secret', interval: '8h' }, owner.h),
    );
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).not.toContain('in-url-secret');
    expect(text).not.toContain('apart-secret');
    expect(text).not.toContain('someone');
    expect(checkShape(JSON.parse(text)).remote_address).toBe('https://example.com/x.git');
    const listed = await listMirrors(source, repo, owner);
    expect(listed.text).not.toContain('secret');
    // Stored encrypted: the row does not hold them in clear either.
    const info = await json<{ id: number }>(await source.fetch(`/api/v1/repos/${repo}`, { headers: owner.h }));
    const rows = await mirrorsStore(source).list(info.id, { page: 1, limit: 10 });
    expect(rows.items).toHaveLength(1);
    expect(rows.items[0]!.credentials).not.toBe('');
    expect(JSON.stringify(rows.items)).not.toContain('secret');
  });

  test("bad input: Forgejo's 400 for intervals, SSH and malformed addresses, 403 for local folders, 422 for filters", async () => {
    const post = (body: unknown) => source.fetch(`/api/v1/repos/${full}/push_mirrors`, jsonInit('POST', body, owner.h));
    const address = 'https://example.com/x.git';
    expect(await expectApiError(await post({ remote_address: address, interval: 'soon' }), 400, source.url)).toBe('time: invalid duration "soon"');
    expect(await expectApiError(await post({ remote_address: address }), 400, source.url)).toBe('time: invalid duration ""');
    await expectApiError(await post({ remote_address: address, interval: '5m' }), 400, source.url);
    await expectApiError(await post({ remote_address: address, interval: '-1h' }), 400, source.url);
    expect(await expectApiError(await post({ remote_address: address, interval: '8h', use_ssh: true }), 400, source.url)).toBe('SSH authentication not available.');
    expect(await expectApiError(await post({ remote_address: 'ftp://example.com/x.git', interval: '8h' }), 400, source.url)).toBe('Invalid mirror protocol');
    expect(await expectApiError(await post({ remote_address: '', interval: '8h' }), 400, source.url)).toBe('Invalid Url ');
    expect(await expectApiError(await post({ remote_address: 'http://[::1', interval: '8h' }), 400, source.url)).toBe('Invalid Url ');
    expect(await expectApiError(await post({ remote_address: scratch, interval: '8h' }), 403, source.url)).toBe('Permission denied');
    await expectApiError(await post({ remote_address: address, interval: '8h', branch_filter: 'main,[' }), 422, source.url);
    await expectApiError(await post({ remote_address: `https://example.com/${'x'.repeat(2100)}.git`, interval: '8h' }), 422, source.url);
    // Malformed JSON: the router's answer for every body.
    await expectApiError(await post('{"remote_address": 5'), 422, source.url);
    expect((await listMirrors(source, full, owner)).items).toEqual([]);
  });

  test('a loopback remote is refused without [migrations] ALLOW_LOCALNETWORKS, and so is a local folder for a site admin', async () => {
    const someone = await account(target, 'tgt', { admin: true });
    const repo = await createRepo(target, someone);
    const post = (address: string) => target.fetch(`/api/v1/repos/${repo}/push_mirrors`, jsonInit('POST', { remote_address: address, interval: '8h' }, someone.h));
    expect(await expectApiError(await post(`${source.url}${full}.git`), 403, target.url)).toBe('Permission denied');
    await expectApiError(await post('http://localhost:1/x.git'), 403, target.url);
    await expectApiError(await post('http://10.1.2.3/x.git'), 403, target.url);
    await expectApiError(await post('/tmp'), 403, target.url);
  });
});

describe.skipIf(TEST_GIT === 'memory')('each push checks the address again', () => {
  test('a stored mirror to a host the settings now refuse is not pushed to: last_error says why', async () => {
    // As if added while loopback was allowed: the target server does not allow it.
    const someone = await account(target, 'again');
    const repo = await createRepo(target, someone);
    const info = await json<{ id: number }>(await target.fetch(`/api/v1/repos/${repo}`, { headers: someone.h }));
    const row = await mirrorsStore(target).insert({
      repo_id: info.id,
      remote_name: 'remote_mirror_stored0001',
      remote_address: `${source.url}nobody/nothing.git`,
      interval_seconds: 0,
      created_unix: Math.floor(Date.now() / 1000),
    });
    const res = await target.fetch(`/api/v1/repos/${repo}/push_mirrors-sync`, { method: 'POST', headers: someone.h });
    expect(res.status).toBe(200);
    const failed = await eventually(async () => {
      const got = checkShape(await json(await target.fetch(`/api/v1/repos/${repo}/push_mirrors/${row.remote_name}`, { headers: someone.h })));
      return got.last_update ? got : undefined;
    }, 'the refused push');
    expect(failed.last_error).toBe('You can not import from disallowed hosts.');
  });
});

describe.skipIf(TEST_GIT === 'memory')('who may use push mirrors', () => {
  let owner: Account;
  let reader: Account;
  let writer: Account;
  let repoAdmin: Account;
  let stranger: Account;
  let siteAdmin: Account;
  let pub: string;
  let priv: string;
  let mirrorName: string;
  beforeAll(async () => {
    owner = await account(source, 'own');
    reader = await account(source, 'rd');
    writer = await account(source, 'wr');
    repoAdmin = await account(source, 'adm');
    stranger = await account(source, 'str');
    siteAdmin = await account(source, 'site', { admin: true });
    pub = await createRepo(source, owner);
    priv = await createRepo(source, owner, { private: true });
    for (const [who, permission] of [
      [reader, 'read'],
      [writer, 'write'],
      [repoAdmin, 'admin'],
    ] as const) {
      for (const repo of [pub, priv]) {
        const res = await source.fetch(`/api/v1/repos/${repo}/collaborators/${who.name}`, jsonInit('PUT', { permission }, owner.h));
        expect(res.status).toBe(204);
      }
    }
    mirrorName = (await addMirror(source, pub, owner, { remote_address: 'https://example.com/x.git', interval: '8h' })).remote_name;
  });

  test('anonymous, strangers, readers and writers get 403 on a public repository, 404 on a private one they cannot see', async () => {
    const paths = ['/push_mirrors', `/push_mirrors/${mirrorName}`];
    for (const p of paths) {
      await expectApiError(await source.fetch(`/api/v1/repos/${pub}${p}`), 403, source.url);
      for (const who of [stranger, reader, writer]) await expectApiError(await source.fetch(`/api/v1/repos/${pub}${p}`, { headers: who.h }), 403, source.url);
      await expectApiError(await source.fetch(`/api/v1/repos/${priv}${p}`), 404, source.url);
      await expectApiError(await source.fetch(`/api/v1/repos/${priv}${p}`, { headers: stranger.h }), 404, source.url);
      await expectApiError(await source.fetch(`/api/v1/repos/${priv}${p}`, { headers: reader.h }), 403, source.url);
    }
    const body = { remote_address: 'https://example.com/y.git', interval: '8h' };
    await expectApiError(await source.fetch(`/api/v1/repos/${pub}/push_mirrors`, jsonInit('POST', body)), 403, source.url);
    await expectApiError(await source.fetch(`/api/v1/repos/${pub}/push_mirrors`, jsonInit('POST', body, writer.h)), 403, source.url);
    await expectApiError(await source.fetch(`/api/v1/repos/${pub}/push_mirrors/${mirrorName}`, { method: 'DELETE', headers: writer.h }), 403, source.url);
    await expectApiError(await source.fetch(`/api/v1/repos/${pub}/push_mirrors-sync`, { method: 'POST', headers: writer.h }), 403, source.url);
    await expectApiError(await source.fetch(`/api/v1/repos/${priv}/push_mirrors-sync`, { method: 'POST', headers: stranger.h }), 404, source.url);
    expect((await listMirrors(source, pub, owner)).items.map((m) => m.remote_name)).toEqual([mirrorName]);
  });

  test('repository administrators and site administrators may', async () => {
    for (const who of [repoAdmin, siteAdmin]) {
      expect((await listMirrors(source, pub, who)).items).toHaveLength(1);
      const added = await addMirror(source, priv, who, { remote_address: 'https://example.com/z.git', interval: '0' });
      const removed = await source.fetch(`/api/v1/repos/${priv}/push_mirrors/${added.remote_name}`, { method: 'DELETE', headers: who.h });
      expect(removed.status).toBe(204);
    }
  });

  test('an archived repository shows its mirrors but refuses changes and syncs (423)', async () => {
    const repo = await createRepo(source, owner);
    const mirror = await addMirror(source, repo, owner, { remote_address: 'https://example.com/a.git', interval: '8h' });
    const archived = await source.fetch(`/api/v1/repos/${repo}`, jsonInit('PATCH', { archived: true }, owner.h));
    expect(archived.status).toBe(200);
    expect((await listMirrors(source, repo, owner)).items).toHaveLength(1);
    await expectApiError(
      await source.fetch(`/api/v1/repos/${repo}/push_mirrors`, jsonInit('POST', { remote_address: 'https://example.com/b.git', interval: '8h' }, owner.h)),
      423,
      source.url,
    );
    await expectApiError(await source.fetch(`/api/v1/repos/${repo}/push_mirrors/${mirror.remote_name}`, { method: 'DELETE', headers: owner.h }), 423, source.url);
    await expectApiError(await source.fetch(`/api/v1/repos/${repo}/push_mirrors-sync`, { method: 'POST', headers: owner.h }), 423, source.url);
  });

  test('deleting the repository deletes its push mirrors', async () => {
    const repo = await createRepo(source, owner);
    await addMirror(source, repo, owner, { remote_address: 'https://example.com/gone.git', interval: '8h' });
    const info = await json<{ id: number }>(await source.fetch(`/api/v1/repos/${repo}`, { headers: owner.h }));
    expect(await mirrorsStore(source).idsOf(info.id)).toHaveLength(1);
    const deleted = await source.fetch(`/api/v1/repos/${repo}`, { method: 'DELETE', headers: owner.h });
    expect(deleted.status).toBe(204);
    expect(await mirrorsStore(source).idsOf(info.id)).toEqual([]);
  });
});

describe.skipIf(TEST_GIT === 'memory')('pushing with the git client to another RepoHost', () => {
  let sourceUser: Account;
  let targetUser: Account;
  let full: string;
  let dir: string;
  beforeAll(async () => {
    sourceUser = await account(source, 'src');
    targetUser = await account(target, 'dst');
    full = await createRepo(source, sourceUser);
    dir = await workingCopy(full, sourceUser);
    await commit(dir, 'first');
    await git(['push', '-q', 'origin', 'main'], dir);
  });

  const remoteOf = (repo: string) => `${target.url}${repo}.git`;

  test('sync_on_commit: a push to the source reaches the target within seconds; tags and deletions follow', async () => {
    const destination = await createRepo(target, targetUser, { private: true });
    const mirror = await addMirror(source, full, sourceUser, {
      remote_address: remoteOf(destination),
      remote_username: targetUser.name,
      remote_password: targetUser.token,
      interval: '0',
      sync_on_commit: true,
    });
    const head = await commit(dir, 'second');
    await git(['push', '-q', 'origin', 'main'], dir);
    expect(await eventually(async () => ((await targetBranch(destination, targetUser, 'main')) === head ? true : undefined), 'the pushed commit')).toBe(true);

    await git(['tag', 'v1.0'], dir);
    await git(['checkout', '-q', '-b', 'topic'], dir);
    const topic = await commit(dir, 'topic work');
    await git(['push', '-q', 'origin', 'v1.0', 'topic'], dir);
    await eventually(async () => ((await targetBranch(destination, targetUser, 'topic')) === topic ? true : undefined), 'the new branch');
    const tag = await target.fetch(`/api/v1/repos/${destination}/tags/v1.0`, { headers: targetUser.h });
    expect(tag.status).toBe(200);

    await git(['push', '-q', 'origin', '--delete', 'topic'], dir);
    await eventually(async () => ((await targetBranch(destination, targetUser, 'topic')) === undefined ? true : undefined), 'the branch deleted there');

    const after = await eventually(async () => {
      const items = (await listMirrors(source, full, sourceUser)).items;
      const m = items.find((i) => i.remote_name === mirror.remote_name);
      return m?.last_update ? m : undefined;
    }, 'last_update');
    expect(after.last_error).toBe('');
    const text = (await listMirrors(source, full, sourceUser)).text;
    expect(text).not.toContain(targetUser.token);
    // The push is off the source's pushing client's path: nothing of it in that client's answer, and the target is
    // left as it was when the mirror goes.
    const removed = await source.fetch(`/api/v1/repos/${full}/push_mirrors/${mirror.remote_name}`, { method: 'DELETE', headers: sourceUser.h });
    expect(removed.status).toBe(204);
    await git(['checkout', '-q', 'main'], dir);
  });

  test('push_mirrors-sync pushes every mirror now (200, empty), those without sync_on_commit included', async () => {
    const destination = await createRepo(target, targetUser);
    const mirror = await addMirror(source, full, sourceUser, {
      remote_address: remoteOf(destination),
      remote_username: targetUser.name,
      remote_password: targetUser.token,
      interval: '8h',
    });
    expect(await targetBranch(destination, targetUser, 'main')).toBeUndefined();
    const res = await source.fetch(`/api/v1/repos/${full}/push_mirrors-sync`, { method: 'POST', headers: sourceUser.h });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    const head = (await git(['rev-parse', 'main'], dir)).trim();
    await eventually(async () => ((await targetBranch(destination, targetUser, 'main')) === head ? true : undefined), 'the synced commit');
    await source.fetch(`/api/v1/repos/${full}/push_mirrors/${mirror.remote_name}`, { method: 'DELETE', headers: sourceUser.h });
  });

  test('a branch filter pushes only the branches it matches', async () => {
    const destination = await createRepo(target, targetUser);
    const mirror = await addMirror(source, full, sourceUser, {
      remote_address: remoteOf(destination),
      remote_username: targetUser.name,
      remote_password: targetUser.token,
      interval: '0',
      branch_filter: 'release/*, stable',
    });
    expect(mirror.branch_filter).toBe('release/*, stable');
    await git(['checkout', '-q', '-b', 'release/1'], dir);
    const release = await commit(dir, 'release one');
    await git(['push', '-q', 'origin', 'release/1'], dir);
    await git(['checkout', '-q', 'main'], dir);
    const res = await source.fetch(`/api/v1/repos/${full}/push_mirrors-sync`, { method: 'POST', headers: sourceUser.h });
    expect(res.status).toBe(200);
    await eventually(async () => ((await targetBranch(destination, targetUser, 'release/1')) === release ? true : undefined), 'the filtered branch');
    expect(await targetBranch(destination, targetUser, 'main')).toBeUndefined();
    await source.fetch(`/api/v1/repos/${full}/push_mirrors/${mirror.remote_name}`, { method: 'DELETE', headers: sourceUser.h });
  });

  test('a wrong password: last_error says so, without the credentials; nothing reaches the target', async () => {
    const destination = await createRepo(target, targetUser);
    const password = 'wrong-password-4711';
    const mirror = await addMirror(source, full, sourceUser, {
      remote_address: remoteOf(destination),
      remote_username: targetUser.name,
      remote_password: password,
      interval: '0',
    });
    const res = await source.fetch(`/api/v1/repos/${full}/push_mirrors-sync`, { method: 'POST', headers: sourceUser.h });
    expect(res.status).toBe(200);
    const failed = await eventually(async () => {
      const got = await source.fetch(`/api/v1/repos/${full}/push_mirrors/${mirror.remote_name}`, { headers: sourceUser.h });
      const body = checkShape(await json(got));
      return body.last_update && body.last_error ? body : undefined;
    }, 'last_error');
    expect(failed.last_error).not.toContain(password);
    expect(failed.last_error.toLowerCase()).toMatch(/auth|401|denied|could not read/);
    expect(JSON.stringify((await listMirrors(source, full, sourceUser)).items)).not.toContain(password);
    expect(await targetBranch(destination, targetUser, 'main')).toBeUndefined();
    await source.fetch(`/api/v1/repos/${full}/push_mirrors/${mirror.remote_name}`, { method: 'DELETE', headers: sourceUser.h });
  });

  test('enqueueDue queues mirrors whose interval elapsed (the update_mirrors task), and a due push goes through', async () => {
    const destination = await createRepo(target, targetUser);
    const mirror = await addMirror(source, full, sourceUser, {
      remote_address: remoteOf(destination),
      remote_username: targetUser.name,
      remote_password: targetUser.token,
      interval: '10m',
    });
    // Never pushed: due at once.
    expect(await source.host.pushMirrors.enqueueDue()).toBeGreaterThanOrEqual(1);
    const head = (await git(['rev-parse', 'main'], dir)).trim();
    await eventually(async () => ((await targetBranch(destination, targetUser, 'main')) === head ? true : undefined), 'the due push');
    await eventually(async () => {
      const got = checkShape(await json(await source.fetch(`/api/v1/repos/${full}/push_mirrors/${mirror.remote_name}`, { headers: sourceUser.h })));
      return got.last_update ? true : undefined;
    }, 'last_update');
    // Just pushed: not due again for ten minutes.
    const queued = await source.host.pushMirrors.enqueueDue();
    const info = await json<{ id: number }>(await source.fetch(`/api/v1/repos/${full}`, { headers: sourceUser.h }));
    const due = await mirrorsStore(source).due(Math.floor(Date.now() / 1000), 1000);
    expect(due.filter((d) => d.repo_id === info.id).map((d) => d.id)).not.toContain(
      (await mirrorsStore(source).byName(info.id, mirror.remote_name))!.id,
    );
    expect(queued).toBeGreaterThanOrEqual(0);
  });
});
