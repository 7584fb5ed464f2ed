import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli, type CliIo } from '@repohost/cli';
import { testDatabaseEnv } from '@repohost/test-support';

interface Run {
  code: number;
  out: string;
  err: string;
}

describe('repohost CLI', () => {
  let work: string;
  let dbEnv: Awaited<ReturnType<typeof testDatabaseEnv>>;

  beforeEach(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'repohost-cli-'));
    dbEnv = await testDatabaseEnv();
  });
  afterEach(async () => {
    await dbEnv.cleanup();
    await rm(work, { recursive: true, force: true });
  });

  function io(extra: Partial<CliIo> = {}, env: Record<string, string> = {}): CliIo & { out: string[]; err: string[] } {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      stdout: (t) => out.push(t),
      stderr: (t) => err.push(t),
      env: { ...dbEnv.env, ...env },
      cwd: work,
      ...extra,
    };
  }

  async function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
    const i = io({}, env);
    const code = await runCli(args, i);
    return { code, out: i.out.join(''), err: i.err.join('') };
  }

  async function createAlice(extra: string[] = []): Promise<string> {
    const r = await cli(['admin', 'user', 'create', '--username', 'alice', '--password', 'secret-pass-1', '--email', 'alice@example.com', '--admin', '--access-token', ...extra]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain("New user 'alice' has been successfully created!");
    const token = /([0-9a-f]{40})/.exec(r.out)?.[1];
    expect(token).toBeDefined();
    return token!;
  }

  /** Runs `repohost web --port 0`, calls `use` with its URL, then stops it. */
  async function withWeb(use: (url: string, stderr: string[]) => Promise<void>, args: string[] = []): Promise<void> {
    const controller = new AbortController();
    let listening!: (url: string) => void;
    const ready = new Promise<string>((resolve) => (listening = resolve));
    const i = io({ signal: controller.signal, onListening: (url) => listening(url) });
    const done = runCli(['web', '--port', '0', ...args], i);
    const url = await Promise.race([ready, done.then((code) => Promise.reject(new Error(`web exited ${code}: ${i.err.join('')}`)))]);
    try {
      await use(url.replace('0.0.0.0', '127.0.0.1'), i.err);
    } finally {
      controller.abort();
      expect(await done).toBe(0);
    }
  }

  it('creates an admin with a token that the web server accepts, with data under the work path', async () => {
    const token = await createAlice();
    await withWeb(async (url) => {
      const version = await fetch(`${url}api/v1/version`);
      expect(version.status).toBe(200);
      expect(await version.json()).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
      const me = await fetch(`${url}api/v1/user`, { headers: { Authorization: `token ${token}` } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ login: 'alice', is_admin: true, email: 'alice@example.com' });
    });
    if (!dbEnv.env.FORGEJO__DATABASE__DB_TYPE) expect(existsSync(path.join(work, 'data', 'forgejo.db'))).toBe(true);
  });

  it('web warns of repositories without storage and of storage no repository claims', async () => {
    const token = await createAlice();
    const repos = path.join(work, 'data', 'forgejo-repositories', 'alice');
    await withWeb(async (url) => {
      const created = await fetch(`${url}api/v1/user/repos`, {
        method: 'POST',
        headers: { Authorization: `token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'lost' }),
      });
      expect(created.status).toBe(201);
    });
    await rm(path.join(repos, 'lost.git'), { recursive: true });
    await mkdir(path.join(repos, 'stray.git'));
    await withWeb(async (_url, stderr) => {
      await vi.waitFor(() => expect(stderr.join('')).toContain('unadopted'), { timeout: 5000 });
      expect(stderr.join('')).toContain('1 repositories have no git storage (their git operations answer 404): alice/lost');
      expect(stderr.join('')).toContain('1 unadopted repositories in storage (see /api/v1/admin/unadopted): alice/stray');
    });
  });

  it('uses the scopes and name given for the access token', async () => {
    const r = await cli([
      'admin', 'user', 'create', '--username', 'bob', '--password', 'secret-pass-1', '--email', 'bob@example.com',
      '--access-token', '--access-token-name', 'ci', '--access-token-scopes', 'read:repository',
    ]);
    expect(r.code).toBe(0);
    const token = /([0-9a-f]{40})/.exec(r.out)![1]!;
    await withWeb(async (url) => {
      const me = await fetch(`${url}api/v1/user`, { headers: { Authorization: `token ${token}` } });
      expect(me.status).toBe(403);
      const list = await fetch(`${url}api/v1/users/bob/tokens`, { headers: { Authorization: `Basic ${Buffer.from('bob:secret-pass-1').toString('base64')}` } });
      expect(await list.json()).toEqual([expect.objectContaining({ name: 'ci', scopes: ['read:repository'] })]);
    });
  });

  it('lists users, with --admin filtering', async () => {
    await createAlice();
    expect((await cli(['admin', 'user', 'create', '--username', 'bob', '--random-password', '--email', 'bob@example.com'])).code).toBe(0);
    const all = await cli(['admin', 'user', 'list']);
    expect(all.code).toBe(0);
    expect(all.out.split('\n')[0]).toMatch(/^ID\s+Username\s+Email\s+IsActive\s+IsAdmin\s+2FA$/);
    expect(all.out).toMatch(/alice\s+alice@example.com\s+true\s+true/);
    expect(all.out).toMatch(/bob\s+bob@example.com\s+true\s+false/);
    const admins = await cli(['admin', 'user', 'list', '--admin']);
    expect(admins.out).toContain('alice');
    expect(admins.out).not.toContain('bob');
  });

  it('prints a generated password that works', async () => {
    const r = await cli(['admin', 'user', 'create', '--username', 'carol', '--email', 'carol@example.com', '--random-password', '--random-password-length', '20']);
    expect(r.code).toBe(0);
    const password = /generated random password is '([^']+)'/.exec(r.out)?.[1];
    expect(password).toHaveLength(20);
    await withWeb(async (url) => {
      const me = await fetch(`${url}api/v1/users/carol/tokens`, { headers: { Authorization: `Basic ${Buffer.from(`carol:${password}`).toString('base64')}` } });
      expect(me.status).toBe(200);
    });
  });

  it('changes a password: the old one stops working', async () => {
    await createAlice();
    const r = await cli(['admin', 'user', 'change-password', '-u', 'alice', '-p', 'new-secret-2', '--must-change-password=false']);
    expect(r.code).toBe(0);
    expect(r.out).toContain("alice's password has been successfully updated!");
    await withWeb(async (url) => {
      const auth = (p: string) => ({ Authorization: `Basic ${Buffer.from(`alice:${p}`).toString('base64')}` });
      expect((await fetch(`${url}api/v1/users/alice/tokens`, { headers: auth('secret-pass-1') })).status).toBe(401);
      expect((await fetch(`${url}api/v1/users/alice/tokens`, { headers: auth('new-secret-2') })).status).toBe(200);
    });
    const short = await cli(['admin', 'user', 'change-password', '-u', 'alice', '-p', 'short']);
    expect(short.code).toBe(1);
    expect(short.err).toContain('password');
  });

  it('generates access tokens, raw or with a message', async () => {
    await createAlice();
    const raw = await cli(['admin', 'user', 'generate-access-token', '-u', 'alice', '-t', 'deploy', '--scopes', 'read:repository,write:user', '--raw']);
    expect(raw.code).toBe(0);
    expect(raw.out).toMatch(/^[0-9a-f]{40}\n$/);
    const again = await cli(['admin', 'user', 'generate-access-token', '-u', 'alice', '-t', 'deploy']);
    expect(again.code).toBe(1);
    expect(again.err).toContain('access token name has been used already');
    const bad = await cli(['admin', 'user', 'generate-access-token', '-u', 'alice', '-t', 'x', '--scopes', 'write:everything']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('invalid access token scope');
  });

  it('deletes users, refusing the last admin', async () => {
    await createAlice();
    expect((await cli(['admin', 'user', 'create', '--username', 'bob', '--password', 'secret-pass-1', '--email', 'bob@example.com'])).code).toBe(0);
    const last = await cli(['admin', 'user', 'delete', '--username', 'alice']);
    expect(last.code).toBe(1);
    expect(last.err).toContain('last admin');
    // Found by email wherever the account is, not only on the first page of the user list (one user per page here).
    expect((await cli(['admin', 'user', 'delete', '--email', 'BOB@example.com'], { FORGEJO__API__MAX_RESPONSE_ITEMS: '1' })).code).toBe(0);
    const list = await cli(['admin', 'user', 'list']);
    expect(list.out).not.toContain('bob');
    expect((await cli(['admin', 'user', 'delete', '--id', '999'])).code).toBe(1);
  });

  it('refuses bad input with a message and exit code 1, creating nothing', async () => {
    const cases: [string[], string][] = [
      [['admin', 'user', 'create', '--username', 'x'], '--email'],
      [['admin', 'user', 'create', '--username', 'api', '--password', 'secret-pass-1', '--email', 'a@b.c'], 'reserved'],
      [['admin', 'user', 'create', '--username', '../evil', '--password', 'secret-pass-1', '--email', 'a@b.c'], 'username'],
      [['admin', 'user', 'create', '--username', 'ok', '--password', 'secret-pass-1', '--email', 'not-an-email'], 'email'],
      [['admin', 'user', 'create', '--username', 'ok', '--email', 'a@b.c'], '--password'],
      [['admin', 'user', 'create', '--username', 'ok', '--password', 'x', '--email', 'a@b.c', '--bogus'], 'bogus'],
      [['frobnicate'], 'unknown command'],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.err, args.join(' ')).toContain(message);
    }
    await createAlice();
    const dup = await cli(['admin', 'user', 'create', '--username', 'ALICE', '--password', 'secret-pass-1', '--email', 'other@example.com']);
    expect(dup.code).toBe(1);
    expect(dup.err).toContain('user already exists');
    const list = await cli(['admin', 'user', 'list']);
    expect(list.out.trim().split('\n')).toHaveLength(2);
  });

  it('reads --config and FORGEJO__ environment overrides', async () => {
    const conf = path.join(work, 'custom.ini');
    await writeFile(conf, '[server]\nROOT_URL = https://git.example.com/\n[repository]\nDEFAULT_BRANCH = trunk\n');
    const token = await createAlice(['--config', conf]);
    await withWeb(async (url) => {
      const created = await fetch(`${url}api/v1/user/repos`, {
        method: 'POST',
        headers: { Authorization: `token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'demo', auto_init: true }),
      });
      expect(created.status).toBe(201);
      const repo = (await created.json()) as { clone_url: string; default_branch: string };
      expect(repo.clone_url).toBe('https://git.example.com/alice/demo.git');
      expect(repo.default_branch).toBe('trunk');
    }, ['--config', conf]);
    const missing = await cli(['--config', path.join(work, 'nope.ini'), 'migrate']);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('does not exist');
    const badEnv = await cli(['migrate'], { FORGEJO__SERVER__HTTP_PORT: 'abc' });
    expect(badEnv.code).toBe(1);
    expect(badEnv.err).toContain('HTTP_PORT');
  });

  it('finds custom/conf/app.ini under the work path and writes a pid file', async () => {
    await mkdir(path.join(work, 'custom', 'conf'), { recursive: true });
    await writeFile(path.join(work, 'custom', 'conf', 'app.ini'), '[repohost]\nREPORTED_VERSION = 1.22.0+test\n');
    const pid = path.join(work, 'web.pid');
    await withWeb(async (url) => {
      expect(await (await fetch(`${url}api/v1/version`)).json()).toEqual({ version: '1.22.0+test' });
      expect((await readFile(pid, 'utf8')).trim()).toBe(String(process.pid));
    }, ['--pid', pid]);
    expect(existsSync(pid)).toBe(false);
  });

  it('migrates a fresh database, then reports it up to date', async () => {
    const first = await cli(['migrate']);
    expect(first.code).toBe(0);
    expect(first.out).toContain('0001_users_create');
    const second = await cli(['migrate']);
    expect(second.out).toContain('up to date');
  });
});
