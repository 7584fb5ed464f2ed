/**
 * LDAP login sources against a real OpenLDAP (a private slapd per run): the source is added with the CLI
 * (`repohost admin auth add-ldap`), an administrator creates accounts bound to it without a password, and those
 * accounts sign in with the directory's password on the API (basic auth) and over git's HTTP protocol; unknown
 * names the directory vouches for are created on first sign-in; the admin filter makes site administrators; a
 * deactivated source refuses; wrong passwords count in the sign-in throttle; two-factor authentication still
 * applies; an unreachable directory answers promptly with 503, never a hang.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '@repohost/cli';
import { SYSTEM, UserSchema, matchesSchema, userActor, type User } from '@repohost/core';
import { basic, createToken, createUser, jsonInit, SLAPD_MISSING, slapdPath, startSlapd, startTestServer, TEST_DB, tokenHeader, totp, type TestDirectory, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const hasSlapd = slapdPath() !== undefined;
if (!hasSlapd) console.warn(SLAPD_MISSING);

function person(uid: string, base: string, password: string, extra: Record<string, string> = {}): string {
  const lines = [
    `dn: uid=${uid},ou=people,${base}`,
    'objectClass: inetOrgPerson',
    `uid: ${uid}`,
    `cn: ${uid}`,
    `sn: ${extra.sn ?? 'Tester'}`,
    `givenName: ${extra.givenName ?? uid}`,
    `mail: ${uid}@directory.example`,
    `userPassword: ${password}`,
    ...(extra.employeeType ? [`employeeType: ${extra.employeeType}`] : []),
  ];
  return `${lines.join('\n')}\n`;
}

describe.skipIf(!hasSlapd)('LDAP login source (slapd)', () => {
  let directory: TestDirectory;
  let s: TestServer;
  let work: string;
  let gitEnv: NodeJS.ProcessEnv;
  let adminToken: string;
  let sourceId: number;
  const people = () => `ou=people,${directory.baseDn}`;

  /** The CLI on the server's own database. */
  async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
    const db = s.host.settings.database;
    const env: Record<string, string> =
      TEST_DB === 'postgres'
        ? { FORGEJO__DATABASE__DB_TYPE: 'postgres', FORGEJO__DATABASE__HOST: db.HOST, FORGEJO__DATABASE__NAME: db.NAME, FORGEJO__DATABASE__USER: db.USER, FORGEJO__DATABASE__PASSWD: db.PASSWD, FORGEJO__DATABASE__SCHEMA: db.SCHEMA }
        : { FORGEJO__DATABASE__PATH: db.PATH };
    // The server's key, as an installation's CLI reads it: the bind passwords are encrypted under it.
    env.FORGEJO__SECURITY__SECRET_KEY = s.host.settings.security.SECRET_KEY;
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env, cwd: work });
    return { code, out: out.join(''), err: err.join('') };
  }

  function git(args: string[], cwd: string): Promise<{ code: number; stderr: string }> {
    return new Promise((resolve, reject) => {
      execFile('git', args, { cwd, env: gitEnv, timeout: 60_000 }, (error, _stdout, stderr) => {
        if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr: String(stderr) });
      });
    });
  }

  const me = (login: string, password: string, headers: Record<string, string> = {}) =>
    s.fetch('/api/v1/user', { headers: { Authorization: basic(login, password), ...headers } });

  async function adminCreate(body: Record<string, unknown>): Promise<Response> {
    return s.fetch('/api/v1/admin/users', jsonInit('POST', body, tokenHeader(adminToken)));
  }

  async function stored(name: string): Promise<User | undefined> {
    return s.host.users.findByName(name);
  }

  beforeAll(async () => {
    directory = await startSlapd();
    work = await mkdtemp(path.join(tmpdir(), 'repohost-ldap-'));
    const home = path.join(work, 'home');
    await mkdir(home);
    await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = LDAP Tester\n\temail = ldap@example.com\n[init]\n\tdefaultBranch = main\n');
    gitEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
    // A file database, so the CLI (another RepoHost) sees what the server sees; PostgreSQL: the same schema.
    s = await startTestServer({
      database: { PATH: path.join(work, 'forgejo.db') },
      // Per account only: every request comes from 127.0.0.1, and other tests here must not share a count.
      security: { LOGIN_MAX_FAILURES_PER_ACCOUNT: 3, LOGIN_MAX_FAILURES_PER_ADDRESS: 0, LOGIN_FAILURE_WINDOW: 300 },
    });
    await createUser(s.host, 'siteadmin', { admin: true });
    adminToken = await createToken(s.host, 'siteadmin');

    await directory.add(
      [
        `dn: ou=people,${directory.baseDn}\nobjectClass: organizationalUnit\nou: people\n`,
        `dn: ou=service,${directory.baseDn}\nobjectClass: organizationalUnit\nou: service\n`,
        `dn: cn=reader,ou=service,${directory.baseDn}\nobjectClass: person\ncn: reader\nsn: reader\nuserPassword: reader-pass\n`,
        person('alice', directory.baseDn, 'alice-pass', { givenName: 'Alice', sn: 'Doe' }),
        person('bob', directory.baseDn, 'bob-pass', { givenName: 'Bob', sn: 'Builder' }),
        person('carol', directory.baseDn, 'carol-pass', { employeeType: 'admin' }),
        person('dave', directory.baseDn, 'dave-pass', { employeeType: 'contractor' }),
        person('erin', directory.baseDn, 'erin-pass'),
        person('frank', directory.baseDn, 'frank-pass'),
        person('grace', directory.baseDn, 'grace-pass'),
        person('heidi', directory.baseDn, 'heidi-pass'),
      ].join('\n'),
    );

    const added = await cli([
      'admin', 'auth', 'add-ldap',
      '--name', 'corp directory',
      '--security-protocol', 'unencrypted',
      '--host', directory.host,
      '--port', String(directory.port),
      '--bind-dn', `cn=reader,ou=service,${directory.baseDn}`,
      '--bind-password', 'reader-pass',
      '--user-search-base', people(),
      '--user-filter', '(&(objectClass=inetOrgPerson)(uid=%s))',
      '--admin-filter', '(employeeType=admin)',
      '--restricted-filter', '(employeeType=contractor)',
      '--username-attribute', 'uid',
      '--firstname-attribute', 'givenName',
      '--surname-attribute', 'sn',
      '--email-attribute', 'mail',
    ]);
    expect(added.err).toBe('');
    expect(added.code).toBe(0);
    const listed = await cli(['admin', 'auth', 'list']);
    expect(listed.code).toBe(0);
    const row = listed.out.split('\n').find((line) => line.includes('corp directory'));
    expect(row).toMatch(/^(\d+)\t+corp directory\t+LDAP \(via BindDN\)\t+true$/);
    sourceId = Number(/^\d+/.exec(row!)![0]);
  }, 60_000);

  afterAll(async () => {
    await s?.cleanup();
    await directory?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  test('an administrator creates a directory account without a password; it signs in with the directory password only', async () => {
    const res = await adminCreate({ username: 'alice', email: 'alice@corp.example', source_id: sourceId, login_name: 'alice' });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(matchesSchema(UserSchema, body)).toBe(true);
    expect(body.source_id).toBe(sourceId);
    expect(body.login_name).toBe('alice');
    expect((await stored('alice'))!.passwd).toBe('');

    const listed = await s.fetch(`/api/v1/admin/users?source_id=${sourceId}&login_name=alice`, { headers: tokenHeader(adminToken) });
    expect(listed.status).toBe(200);
    const page = await json<Array<{ login: string; source_id: number; login_name: string }>>(listed);
    expect(page.map((u) => [u.login, u.source_id, u.login_name])).toEqual([['alice', sourceId, 'alice']]);

    const ok = await me('alice', 'alice-pass');
    expect(ok.status).toBe(200);
    const self = await json(ok);
    expect(matchesSchema(UserSchema, self)).toBe(true);
    expect(self.login).toBe('alice');
    expect(self.email).toBe('alice@corp.example');

    expect(await expectApiError(await me('alice', 'wrong-pass'), 401, s.url)).toBe('invalid username, password or token');
    // An empty password would be an anonymous bind, which the directory accepts: never a sign-in.
    await expectApiError(await me('alice', ''), 401, s.url);
  });

  test('a password given for a directory account is not stored, and does not sign in', async () => {
    const res = await adminCreate({ username: 'erin', email: 'erin@corp.example', password: 'local-password-1', source_id: sourceId, login_name: 'erin' });
    expect(res.status).toBe(201);
    expect((await stored('erin'))!.passwd).toBe('');
    await expectApiError(await me('erin', 'local-password-1'), 401, s.url);
    expect((await me('erin', 'erin-pass')).status).toBe(200);
  });

  test('source_id must name a login source; a local account still needs a password', async () => {
    const missing = await adminCreate({ username: uniq('x'), email: `${uniq('x')}@corp.example`, source_id: 9999, login_name: 'x' });
    expect(await expectApiError(missing, 422, s.url)).toContain('login source does not exist [id: 9999]');
    await expectApiError(await adminCreate({ username: uniq('x'), email: `${uniq('x')}@corp.example` }), 400, s.url);
    const editMissing = await s.fetch('/api/v1/admin/users/alice', jsonInit('PATCH', { source_id: 9999, login_name: 'alice' }, tokenHeader(adminToken)));
    await expectApiError(editMissing, 422, s.url);
  });

  test('an admin binds an existing local account to the directory with PATCH: then the directory password signs it in', async () => {
    const name = uniq('loc');
    await createUser(s.host, name);
    const edited = await s.fetch(`/api/v1/admin/users/${name}`, jsonInit('PATCH', { source_id: sourceId, login_name: 'frank' }, tokenHeader(adminToken)));
    const body = await json(edited);
    expect(edited.status, JSON.stringify(body)).toBe(200);
    expect([body.source_id, body.login_name]).toEqual([sourceId, 'frank']);
    expect((await stored(name))!.passwd).toBe('');
    const withPassword = await s.fetch(`/api/v1/admin/users/${name}`, jsonInit('PATCH', { password: 'another-local-1' }, tokenHeader(adminToken)));
    expect(withPassword.status).toBe(200);
    expect((await stored(name))!.passwd).toBe('');
    expect((await me(name, 'frank-pass')).status).toBe(200);
    // Its old local password no longer counts.
    await expectApiError(await me(name, 'correct-horse-battery'), 401, s.url);
  });

  test('git over HTTP takes the directory password', async () => {
    const repo = uniq('r');
    const created = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo, private: true, auto_init: true }, { Authorization: basic('alice', 'alice-pass') }));
    expect(created.status, await created.clone().text()).toBe(201);
    const port = new URL(s.url).port;
    const ok = await git(['clone', '-q', `http://alice:alice-pass@127.0.0.1:${port}/alice/${repo}.git`, path.join(work, `clone-${repo}`)], work);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const refused = await git(['clone', '-q', `http://alice:not-it@127.0.0.1:${port}/alice/${repo}.git`, path.join(work, `refused-${repo}`)], work);
    expect(refused.code).not.toBe(0);
  });

  test('an unknown name the directory vouches for is created on first sign-in (bind DN search), without a password', async () => {
    expect(await stored('bob')).toBeUndefined();
    await expectApiError(await me('bob', 'wrong'), 401, s.url);
    expect(await stored('bob')).toBeUndefined();
    await expectApiError(await me('nobody-here', 'bob-pass'), 401, s.url);
    expect(await stored('nobody-here')).toBeUndefined();
    // Filter metacharacters never reach the directory as such.
    await expectApiError(await me('*', 'bob-pass'), 401, s.url);
    await expectApiError(await me('bob)(uid=*', 'bob-pass'), 401, s.url);

    const res = await me('bob', 'bob-pass');
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(matchesSchema(UserSchema, body)).toBe(true);
    expect(body.login).toBe('bob');
    expect(body.full_name).toBe('Bob Builder');
    expect(body.email).toBe('bob@directory.example');
    expect(body.is_admin).toBe(false);
    const bob = (await stored('bob'))!;
    expect([bob.login_source, bob.login_name, bob.passwd, bob.must_change_password]).toEqual([sourceId, 'bob', '', 0]);
    // The second sign-in finds the account.
    expect((await me('bob', 'bob-pass')).status).toBe(200);
    expect((await s.host.userAdmin.search(SYSTEM, { loginName: 'bob' }, { page: 1, limit: 10 })).total).toBe(1);
  });

  test('the admin filter makes a site administrator at sign-in, and takes it back when the directory does', async () => {
    const first = await me('carol', 'carol-pass');
    expect(first.status).toBe(200);
    expect((await json(first)).is_admin).toBe(true);
    expect((await stored('carol'))!.is_admin).toBe(1);
    const asAdmin = await s.fetch('/api/v1/admin/users', { headers: { Authorization: basic('carol', 'carol-pass') } });
    expect(asAdmin.status).toBe(200);

    await directory.modify(`dn: uid=carol,${people()}\nchangetype: modify\ndelete: employeeType\n`);
    const after = await me('carol', 'carol-pass');
    expect(after.status).toBe(200);
    expect((await json(after)).is_admin).toBe(false);
    await expectApiError(await s.fetch('/api/v1/admin/users', { headers: { Authorization: basic('carol', 'carol-pass') } }), 403, s.url);
  });

  test('the restricted filter makes a restricted account', async () => {
    const res = await me('dave', 'dave-pass');
    expect(res.status).toBe(200);
    expect((await json(res)).restricted).toBe(true);
  });

  test('a deactivated source refuses sign-in and does not create accounts; reactivated, it signs in again', async () => {
    const off = await cli(['admin', 'auth', 'update-ldap', '--id', String(sourceId), '--not-active']);
    expect(off.err).toBe('');
    expect(off.code).toBe(0);
    expect((await cli(['admin', 'auth', 'list'])).out).toMatch(/corp directory\t+LDAP \(via BindDN\)\t+false\n/);
    await expectApiError(await me('alice', 'alice-pass'), 401, s.url);
    await expectApiError(await me('grace', 'grace-pass'), 401, s.url);
    expect(await stored('grace')).toBeUndefined();

    expect((await cli(['admin', 'auth', 'update-ldap', '--id', String(sourceId), '--active'])).code).toBe(0);
    expect((await me('alice', 'alice-pass')).status).toBe(200);
  });

  test('wrong directory passwords count in the sign-in throttle: then even the right one is 429', async () => {
    const res = await adminCreate({ username: 'heidi', email: 'heidi@corp.example', source_id: sourceId, login_name: 'heidi' });
    expect(res.status).toBe(201);
    for (let i = 0; i < 3; i++) await expectApiError(await me('heidi', `wrong-${i}`), 401, s.url);
    const limited = await me('heidi', 'heidi-pass');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('two-factor authentication still applies to a directory account', async () => {
    const user = (await stored('erin'))!;
    const { secret } = await s.host.twoFactor.enrol(userActor(user), user);
    const step = Math.floor(Date.now() / 30_000);
    await s.host.twoFactor.confirm(userActor(user), user, totp(secret, step));
    try {
      expect(await expectApiError(await me('erin', 'erin-pass'), 401, s.url)).toBe('invalid provided OTP');
      // The next step's code (the confirming code's step is used up); one step of skew is accepted.
      expect((await me('erin', 'erin-pass', { 'X-Forgejo-OTP': totp(secret, step + 1) })).status).toBe(200);
    } finally {
      await s.host.twoFactor.disable(SYSTEM, user);
    }
  });

  test('an unreachable or silent directory answers promptly with 503, never a hang', async () => {
    // A port nobody listens on (refused at once), and a listener that accepts and never answers (timeout).
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as { port: number }).port;
    try {
      for (const [port, bound] of [[closedPort, 'down'], [silentPort, 'mute']] as const) {
        const source = await s.host.loginSources.createLdap(SYSTEM, 'bind_dn', {
          name: `${bound} directory`,
          host: '127.0.0.1',
          port,
          user_search_base: people(),
          user_filter: '(uid=%s)',
          email_attribute: 'mail',
        });
        const name = uniq(bound);
        expect((await adminCreate({ username: name, email: `${name}@corp.example`, source_id: source.id, login_name: name })).status).toBe(201);
        const started = Date.now();
        const res = await me(name, 'any-password');
        const message = await expectApiError(res, 503, s.url);
        expect(message).toContain(`LDAP login source "${bound} directory"`);
        expect(Date.now() - started).toBeLessThan(15_000);
        await s.host.loginSources.updateLdap(SYSTEM, source.id, 'bind_dn', { active: false });
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 30_000);

  test('a source still used by accounts cannot be deleted', async () => {
    const refused = await cli(['admin', 'auth', 'delete', '--id', String(sourceId)]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`login source is still used by some users [id: ${sourceId}]`);
    expect((await cli(['admin', 'auth', 'list'])).out).toContain('corp directory');
  });
});
