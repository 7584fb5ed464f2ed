/**
 * A repository's own server-side git hooks (`/repos/{owner}/{repo}/hooks/git…`): edited by site administrators
 * and accounts allowed `allow_git_hook`, only while `[security] DISABLE_GIT_HOOKS` is false (Forgejo's default is
 * true: then nobody may), and run by real `git push`es over HTTP: a pre-receive hook that refuses, an update hook
 * given each ref, a post-receive hook whose output the client sees. Unhappy paths: anonymous, a repository
 * admin without the grant, a stranger on a private repository, an unknown hook name, bad input.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createToken, createUser, jsonInit, openTestHost, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

interface Account {
  name: string;
  token: string;
  h: Record<string, string>;
}

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

let s: TestServer;
let admin: Account;
let owner: Account;
let allowed: Account;
let stranger: Account;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
let counter = 0;

function git(args: string[], cwd: string): Promise<Result> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: gitEnv, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

async function gitOk(args: string[], cwd: string): Promise<string> {
  const result = await git(args, cwd);
  expect(result.code, `git ${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result.stdout.trim();
}

async function account(prefix: string, options: { admin?: boolean } = {}): Promise<Account> {
  const name = uniq(prefix);
  await createUser(s.host, name, options);
  const token = await createToken(s.host, name);
  return { name, token, h: tokenHeader(token) };
}

const call = (method: string, apiPath: string, who?: Account, body?: unknown) =>
  s.fetch(`/api/v1${apiPath}`, body === undefined ? { method, headers: who?.h ?? {} } : jsonInit(method, body, who?.h ?? {}));

async function repo(options: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('r');
  const res = await call('POST', '/user/repos', owner, { name, auto_init: true, ...options });
  expect(res.status, await res.clone().text()).toBe(201);
  return `${owner.name}/${name}`;
}

async function cloneAndCommit(full: string): Promise<string> {
  const dir = path.join(scratch, `clone-${++counter}`);
  const url = `http://${owner.name}:${owner.token}@127.0.0.1:${new URL(s.url).port}/${full}.git`;
  await gitOk(['clone', '-q', url, dir], scratch);
  await writeFile(path.join(dir, `f-${counter}.txt`), `change ${counter}\n`);
  await gitOk(['add', '.'], dir);
  await gitOk(['commit', '-q', '-m', `change ${counter}`], dir);
  return dir;
}

async function serverRef(full: string, ref: string): Promise<string | undefined> {
  const [o, n] = full.split('/');
  return (await s.host.git.readRefs({ owner: o!.toLowerCase(), name: n!.toLowerCase() }, [ref])).get(ref);
}

beforeAll(async () => {
  s = await startTestServer({ security: { DISABLE_GIT_HOOKS: false } });
  [admin, owner, allowed, stranger] = await Promise.all([account('ha', { admin: true }), account('ho'), account('hg'), account('hs')]);
  // A site administrator grants the hooks right, as in Forgejo's user edit.
  const granted = await call('PATCH', `/admin/users/${allowed.name}`, admin, { login_name: allowed.name, source_id: 0, allow_git_hook: true });
  expect(granted.status, await granted.clone().text()).toBe(200);
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-git-hooks-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Hook Tester\n\temail = hooks@example.com\n[init]\n\tdefaultBranch = main\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
});
afterAll(async () => {
  await s?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('git hooks through the API', () => {
  test('a new repository lists the three hooks, inactive; a hook set reads back and lists active; deleting empties it', async () => {
    const full = await repo();
    const listed = await call('GET', `/repos/${full}/hooks/git`, admin);
    expect(listed.status).toBe(200);
    expect(await json(listed)).toEqual([
      { name: 'pre-receive', is_active: false, content: '' },
      { name: 'update', is_active: false, content: '' },
      { name: 'post-receive', is_active: false, content: '' },
    ]);

    const content = '#!/bin/sh\r\necho hello\r\n';
    const edited = await call('PATCH', `/repos/${full}/hooks/git/post-receive`, admin, { content });
    expect(edited.status).toBe(200);
    // Carriage returns go, so sh can run a hook written on Windows.
    expect(await json(edited)).toEqual({ name: 'post-receive', is_active: true, content: '#!/bin/sh\necho hello\n' });
    expect(await json(await call('GET', `/repos/${full}/hooks/git/post-receive`, admin))).toEqual({ name: 'post-receive', is_active: true, content: '#!/bin/sh\necho hello\n' });
    const after = await json<{ name: string; is_active: boolean }[]>(await call('GET', `/repos/${full}/hooks/git`, admin));
    expect(after.map((h) => [h.name, h.is_active])).toEqual([
      ['pre-receive', false],
      ['update', false],
      ['post-receive', true],
    ]);

    expect((await call('DELETE', `/repos/${full}/hooks/git/post-receive`, admin)).status).toBe(204);
    expect(await json(await call('GET', `/repos/${full}/hooks/git/post-receive`, admin))).toEqual({ name: 'post-receive', is_active: false, content: '' });
    // Blank content removes it too, as Forgejo's edit does.
    await call('PATCH', `/repos/${full}/hooks/git/update`, admin, { content: 'exit 0\n' });
    const blanked = await call('PATCH', `/repos/${full}/hooks/git/update`, admin, { content: '  \n' });
    expect(await json(blanked)).toEqual({ name: 'update', is_active: false, content: '' });
  });

  test('who may: an allowed account on its own repository may; the owner without the grant 403; anonymous 401; a stranger 404 on a private one', async () => {
    const own = uniq('r');
    expect((await call('POST', '/user/repos', allowed, { name: own })).status).toBe(201);
    const mine = await call('PATCH', `/repos/${allowed.name}/${own}/hooks/git/pre-receive`, allowed, { content: 'exit 0\n' });
    expect(mine.status).toBe(200);

    const full = await repo({ private: true });
    const refused = await call('GET', `/repos/${full}/hooks/git`, owner);
    expect(await expectApiError(refused, 403, s.url)).toBe('must be allowed to edit Git hooks');
    await expectApiError(await call('PATCH', `/repos/${full}/hooks/git/update`, owner, { content: 'exit 1\n' }), 403, s.url);
    await expectApiError(await call('GET', `/repos/${full}/hooks/git`), 401, s.url);
    // The grant is for repositories the account administers: a private one of someone else does not exist for it.
    await expectApiError(await call('GET', `/repos/${full}/hooks/git`, allowed), 404, s.url);
    await expectApiError(await call('GET', `/repos/${full}/hooks/git/update`, stranger), 404, s.url);
    // Nothing was written by the refused calls.
    expect((await json<{ is_active: boolean }>(await call('GET', `/repos/${full}/hooks/git/update`, admin))).is_active).toBe(false);
  });

  test('bad input: an unknown hook name is 404; content that is not a string is 422', async () => {
    const full = await repo();
    await expectApiError(await call('GET', `/repos/${full}/hooks/git/pre-commit`, admin), 404, s.url);
    await expectApiError(await call('PATCH', `/repos/${full}/hooks/git/..%2Fconfig`, admin, { content: 'x' }), 404, s.url);
    await expectApiError(await call('DELETE', `/repos/${full}/hooks/git/nope`, admin), 404, s.url);
    const bad = await call('PATCH', `/repos/${full}/hooks/git/update`, admin, { content: 12 });
    expect(bad.status).toBe(422);
    // The webhooks of the same path prefix are still what they were.
    expect((await call('GET', `/repos/${full}/hooks`, admin)).status).toBe(200);
  });
});

describe('git hooks run on push', () => {
  test('pre-receive refuses with its message and the branch stays; update gets each ref; post-receive speaks to the client', async () => {
    const full = await repo();
    const marker = path.join(scratch, `update-${counter}.log`);
    await call('PATCH', `/repos/${full}/hooks/git/pre-receive`, admin, {
      content: '#!/bin/sh\nwhile read old new ref; do\n  case "$ref" in refs/heads/locked) echo "locked is closed" >&2; exit 1;; esac\ndone\nexit 0\n',
    });
    await call('PATCH', `/repos/${full}/hooks/git/update`, admin, { content: `#!/bin/sh\necho "$1" >> '${marker}'\n` });
    await call('PATCH', `/repos/${full}/hooks/git/post-receive`, admin, { content: '#!/bin/sh\nread old new ref\necho "received $ref"\n' });

    const dir = await cloneAndCommit(full);
    const refused = await git(['push', 'origin', 'HEAD:locked'], dir);
    expect(refused.code, refused.stderr).not.toBe(0);
    expect(refused.stderr).toContain('remote: locked is closed');
    expect(await serverRef(full, 'refs/heads/locked')).toBeUndefined();

    const pushed = await git(['push', 'origin', 'HEAD:main'], dir);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stderr).toContain('remote: received refs/heads/main');
    expect(await serverRef(full, 'refs/heads/main')).toBe(await gitOk(['rev-parse', 'HEAD'], dir));
    expect((await readFile(marker, 'utf8')).trim()).toBe('refs/heads/main');
    // The push was recorded as any other: the branch API shows the new commit.
    const branch = await json<{ commit: { id: string } }>(await call('GET', `/repos/${full}/branches/main`, owner));
    expect(branch.commit.id).toBe(await gitOk(['rev-parse', 'HEAD'], dir));
  });

  test('a repository without hooks pushes as before, and its hooks stay its own', async () => {
    const full = await repo();
    const dir = await cloneAndCommit(full);
    const pushed = await git(['push', 'origin', 'HEAD:locked'], dir);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stderr).not.toContain('remote:');
  });
});

describe('git hooks disabled (the default)', () => {
  test('nobody may edit them, site administrators included', async () => {
    const host = await openTestHost();
    try {
      expect(host.host.settings.security.DISABLE_GIT_HOOKS).toBe(true);
      const { startServer } = await import('@repohost/server');
      const running = await startServer(host.host, { port: 0, hostname: '127.0.0.1' });
      try {
        const root = await createUser(host.host, uniq('da'), { admin: true });
        const token = await createToken(host.host, root.name);
        const base = `http://127.0.0.1:${(running.server.address() as { port: number }).port}/api/v1`;
        const created = await fetch(`${base}/user/repos`, jsonInit('POST', { name: 'r' }, tokenHeader(token)));
        expect(created.status).toBe(201);
        const res = await fetch(`${base}/repos/${root.name}/r/hooks/git`, { headers: tokenHeader(token) });
        expect(res.status).toBe(403);
        expect((await json<{ message: string }>(res)).message).toBe('must be allowed to edit Git hooks');
      } finally {
        await running.close();
      }
    } finally {
      await host.cleanup();
    }
  });
});
