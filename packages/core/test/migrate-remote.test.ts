import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userActor, type Actor } from '../src/users/actor.js';
import { loadSettings, type SettingsOverrides } from '../src/config/settings.js';
import {
  checkRemoteAddress,
  decryptRemoteCredentials,
  encryptRemoteCredentials,
  followRemoteRedirects,
  gitRemoteOptions,
  redactCredentials,
  REMOTE_ADDRESS_MESSAGES,
  RemoteAddressError,
  remoteRequest,
  sanitizeRemoteUrl,
  type CheckedRemote,
} from '../src/remote/remote.js';
import type { User } from '../src/users/tables.js';

const user = (is_admin: 0 | 1): Actor => userActor({ id: 7, name: 'u7', lower_name: 'u7', is_admin, is_restricted: 0, type: 0 } as User);
const someone = user(0);
const admin = user(1);
const settings = (overrides: SettingsOverrides = {}) => loadSettings({ workPath: '/tmp', overrides });
const local = settings({ migrations: { ALLOW_LOCALNETWORKS: true } });

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RemoteAddressError);
  return (error as RemoteAddressError).message;
}

describe('remote addresses', () => {
  it('refuses what is no address, other protocols, and local networks unless allowed', async () => {
    expect(await refusal(checkRemoteAddress(local, someone, { address: '' }))).toBe(REMOTE_ADDRESS_MESSAGES.url);
    expect(await refusal(checkRemoteAddress(local, someone, { address: 'http://exa mple/\n' }))).toBe(REMOTE_ADDRESS_MESSAGES.url);
    expect(await refusal(checkRemoteAddress(local, someone, { address: 'ftp://127.0.0.1/x.git' }))).toBe(REMOTE_ADDRESS_MESSAGES.protocol);
    expect(await refusal(checkRemoteAddress(local, someone, { address: 'ssh://git@127.0.0.1/x.git' }))).toBe(REMOTE_ADDRESS_MESSAGES.protocol);
    for (const address of ['http://127.0.0.1:3000/a/b.git', 'http://[::1]/a.git', 'https://10.1.2.3/a.git', 'git://192.168.1.1/a.git', 'http://169.254.169.254/', 'http://0.0.0.0/']) {
      expect(await refusal(checkRemoteAddress(settings(), someone, { address }))).toBe(REMOTE_ADDRESS_MESSAGES.blocked);
    }
    // A name that resolves to nothing: said so, unless its name alone is refused.
    expect(await refusal(checkRemoteAddress(local, someone, { address: 'http://no-such-host.invalid/a.git' }))).toBe(REMOTE_ADDRESS_MESSAGES.unresolved);
    const blockedName = settings({ migrations: { BLOCKED_DOMAINS: '*.invalid' } });
    expect(await refusal(checkRemoteAddress(blockedName, someone, { address: 'http://no-such-host.invalid/a.git' }))).toBe(REMOTE_ADDRESS_MESSAGES.blocked);
    const allowed = await checkRemoteAddress(local, someone, { address: 'http://127.0.0.1:3000/a/b.git' });
    expect(allowed).toMatchObject({ url: 'http://127.0.0.1:3000/a/b.git', local: false, pinned: { host: '127.0.0.1', port: 3000, address: '127.0.0.1', family: 4 } });
  });

  it('takes credentials out of the URL; separately given ones win', async () => {
    const inUrl = await checkRemoteAddress(local, someone, { address: 'https://alice:s%40cret@127.0.0.1/o/r.git' });
    expect(inUrl.url).toBe('https://127.0.0.1/o/r.git');
    expect(inUrl.sanitized).toBe('https://127.0.0.1/o/r.git');
    expect(inUrl.credentials).toEqual({ username: 'alice', password: 's@cret' });
    expect(inUrl.pinned?.port).toBe(443);
    const given = await checkRemoteAddress(local, someone, { address: 'http://alice:old@127.0.0.1/o/r.git', username: 'bob', password: 'new' });
    expect(given.credentials).toEqual({ username: 'bob', password: 'new' });
    const none = await checkRemoteAddress(local, someone, { address: 'git://127.0.0.1/o/r.git' });
    expect(none.credentials).toBeUndefined();
    expect(none.pinned?.port).toBe(9418);
  });

  it('applies BLOCKED_DOMAINS and ALLOWED_DOMAINS to names and addresses', async () => {
    const blocked = settings({ migrations: { ALLOW_LOCALNETWORKS: true, BLOCKED_DOMAINS: 'localhost, 127.0.0.2' } });
    expect(await refusal(checkRemoteAddress(blocked, someone, { address: 'http://localhost/a.git' }))).toBe(REMOTE_ADDRESS_MESSAGES.blocked);
    expect(await refusal(checkRemoteAddress(blocked, someone, { address: 'http://127.0.0.2/a.git' }))).toBe(REMOTE_ADDRESS_MESSAGES.blocked);
    await expect(checkRemoteAddress(blocked, someone, { address: 'http://127.0.0.1/a.git' })).resolves.toBeDefined();

    const only = settings({ migrations: { ALLOW_LOCALNETWORKS: true, ALLOWED_DOMAINS: 'git.example.org' } });
    expect(await refusal(checkRemoteAddress(only, someone, { address: 'http://127.0.0.1/a.git' }))).toBe(REMOTE_ADDRESS_MESSAGES.blocked);
    const loopbackListed = settings({ migrations: { ALLOW_LOCALNETWORKS: true, ALLOWED_DOMAINS: '127.0.0.0/8' } });
    await expect(checkRemoteAddress(loopbackListed, someone, { address: 'http://127.0.0.1/a.git' })).resolves.toBeDefined();
    // Allowing a domain does not open local networks.
    const allowedButLocal = settings({ migrations: { ALLOWED_DOMAINS: 'localhost' } });
    expect(await refusal(checkRemoteAddress(allowedButLocal, someone, { address: 'http://localhost/a.git' }))).toBe(REMOTE_ADDRESS_MESSAGES.blocked);
  });

  it('judges IPv6 addresses that carry an IPv4 one by that address, and carrier-grade NAT as private', async () => {
    const inside = [
      'http://[::127.0.0.1]/a.git', // IPv4-compatible
      'http://[::ffff:0:10.0.0.1]/a.git', // IPv4-translated
      'http://[64:ff9b::7f00:1]/a.git', // NAT64 of 127.0.0.1
      'http://[64:ff9b::192.168.1.1]/a.git',
      'http://[64:ff9b:1::a00:1]/a.git', // local-use NAT64
      'http://[2002:7f00:1::1]/a.git', // 6to4 of 127.0.0.1
      'git://[2002:a9fe:a9fe::]/a.git', // 6to4 of 169.254.169.254
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/a.git', // Teredo, client 127.0.0.1 (stored inverted)
      'http://100.64.0.1/a.git',
      'http://100.127.255.254/a.git',
      'http://[fec0::1]/a.git', // site-local
    ];
    for (const address of inside) expect(await refusal(checkRemoteAddress(settings(), someone, { address })), address).toBe(REMOTE_ADDRESS_MESSAGES.blocked);
    // The same forms of public IPv4 addresses pass (nothing is contacted: the hosts are literals).
    for (const address of ['http://[64:ff9b::8.8.8.8]/a.git', 'http://[2002:808:808::1]/a.git', 'http://100.128.0.1/a.git', 'http://[2001:db8::1]/a.git']) {
      expect((await checkRemoteAddress(settings(), someone, { address })).pinned, address).toBeDefined();
    }
    // ALLOW_LOCALNETWORKS lets them all through, BLOCKED_DOMAINS sees the IPv4 address inside.
    for (const address of inside) await expect(checkRemoteAddress(local, someone, { address })).resolves.toBeDefined();
    const blockedNet = settings({ migrations: { ALLOW_LOCALNETWORKS: true, BLOCKED_DOMAINS: '127.0.0.0/8' } });
    expect(await refusal(checkRemoteAddress(blockedNet, someone, { address: 'http://[64:ff9b::7f00:1]/a.git' }))).toBe(REMOTE_ADDRESS_MESSAGES.blocked);
  });

  it('local paths: only site administrators, only with IMPORT_LOCAL_PATHS, only existing folders', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rh-remote-'));
    try {
      const allowing = settings({ security: { IMPORT_LOCAL_PATHS: true } });
      expect(await refusal(checkRemoteAddress(allowing, someone, { address: dir }))).toBe(REMOTE_ADDRESS_MESSAGES.localDenied);
      expect(await refusal(checkRemoteAddress(settings(), admin, { address: `file://${dir}` }))).toBe(REMOTE_ADDRESS_MESSAGES.localDenied);
      expect(await checkRemoteAddress(allowing, admin, { address: `file://${dir}` })).toMatchObject({ url: `file://${dir}`, local: true });
      expect(await checkRemoteAddress(allowing, admin, { address: dir })).toMatchObject({ url: `file://${dir}`, local: true });
      expect(await refusal(checkRemoteAddress(allowing, admin, { address: path.join(dir, 'missing') }))).toBe(REMOTE_ADDRESS_MESSAGES.invalidPath);
      expect(await refusal(checkRemoteAddress(allowing, admin, { address: 'file://elsewhere/x' }))).toBe(REMOTE_ADDRESS_MESSAGES.invalidPath);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('redirects and requests', () => {
  let target: http.Server;
  let redirector: http.Server;
  let targetPort = 0;
  let redirectorPort = 0;
  const seen: { url: string; authorization?: string }[] = [];

  beforeAll(async () => {
    target = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
      res.end('ok');
    });
    redirector = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
      const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '';
      res.writeHead(302, { Location: to.replace('PORT', String(targetPort)) }).end();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.2', resolve));
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    targetPort = (target.address() as AddressInfo).port;
    redirectorPort = (redirector.address() as AddressInfo).port;
  });
  afterAll(() => {
    target.close();
    redirector.close();
  });

  it('follows a redirect git would follow, to a host that passes the checks, without the credentials on another origin', async () => {
    // The redirect is answered to `/info/refs?service=…`: the test server reads its target from a path segment.
    const server = http.createServer((req, res) => {
      res.writeHead(301, { Location: `http://127.0.0.2:${targetPort}/moved/repo.git/info/refs?service=git-upload-pack` }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const remote = await checkRemoteAddress(local, someone, { address: `http://alice:pw@127.0.0.1:${port}/old/repo.git` });
      const followed = await followRemoteRedirects(local, someone, remote, { timeoutMs: 5000 });
      expect(followed.url).toBe(`http://127.0.0.2:${targetPort}/moved/repo.git`);
      expect(followed.pinned).toMatchObject({ address: '127.0.0.2', port: targetPort });
      expect(followed.credentials).toBeUndefined();

      const blocking = settings({ migrations: { ALLOW_LOCALNETWORKS: true, BLOCKED_DOMAINS: '127.0.0.2' } });
      const again = await checkRemoteAddress(blocking, someone, { address: `http://127.0.0.1:${port}/old/repo.git` });
      expect(await refusal(followRemoteRedirects(blocking, someone, again, { timeoutMs: 5000 }))).toBe(REMOTE_ADDRESS_MESSAGES.blocked);
    } finally {
      server.close();
    }
  });

  it('requests only the pinned host, with basic credentials, returning redirects unfollowed', async () => {
    const remote = await checkRemoteAddress(local, someone, { address: `http://bob:hunter22@127.0.0.1:${redirectorPort}/` });
    const answer = await remoteRequest(local, remote, `http://127.0.0.1:${redirectorPort}/api?to=http://127.0.0.2:PORT/x`, { timeoutMs: 5000, maxBodyBytes: 1000 });
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`http://127.0.0.2:${targetPort}/x`);
    expect(seen.at(-1)?.authorization).toBe(`Basic ${Buffer.from('bob:hunter22').toString('base64')}`);
    expect(await refusal(remoteRequest(local, remote, `http://127.0.0.2:${targetPort}/x`, { timeoutMs: 5000, maxBodyBytes: 10 }))).toBe(REMOTE_ADDRESS_MESSAGES.blocked);
  });

  it('gives up on a remote that never answers, within the timeout, without the credentials in the error', async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const remote = await checkRemoteAddress(local, someone, { address: `http://bob:hunter22@127.0.0.1:${port}/` });
      const started = Date.now();
      const error = await remoteRequest(local, remote, `http://127.0.0.1:${port}/x`, { timeoutMs: 300, maxBodyBytes: 10 }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/timed out/);
      expect((error as Error).message).not.toContain('hunter22');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe('git:// remotes', () => {
  let daemon: ChildProcess;
  let dir = '';
  let port = 0;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rh-gitd-'));
    const git = (...args: string[]) => spawnSync('git', args, { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1' }, encoding: 'utf8' });
    git('init', '-q', '--bare', '-b', 'main', 'r.git');
    const tree = git('--git-dir', 'r.git', 'mktree').stdout.trim();
    const commit = spawnSync('git', ['--git-dir', 'r.git', 'commit-tree', tree, '-m', 'first'], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@x', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@x' },
      encoding: 'utf8',
    }).stdout.trim();
    git('--git-dir', 'r.git', 'update-ref', 'refs/heads/main', commit);
    port = await freePort();
    daemon = spawn('git', ['daemon', '--reuseaddr', '--export-all', `--base-path=${dir}`, '--listen=127.0.0.1', `--port=${port}`, dir], { stdio: 'ignore' });
    // Ready once it accepts connections.
    for (let i = 0; i < 100; i++) {
      if (await connects(port)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  afterAll(async () => {
    daemon?.kill();
    await rm(dir, { recursive: true, force: true });
  });

  const runGit = (remote: CheckedRemote, ...command: string[]) => {
    const { args, env } = gitRemoteOptions(remote, local);
    return spawnSync('git', [...args, ...command], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1', ...env }, encoding: 'utf8', timeout: 20_000 });
  };

  it('connects to the checked address only, though the name would resolve elsewhere (or nowhere) by then', async () => {
    const checked = await checkRemoteAddress(local, someone, { address: `git://127.0.0.1:${port}/r.git` });
    expect(checked.pinned).toMatchObject({ address: '127.0.0.1', port });
    // As if the name had resolved to 127.0.0.1 when checked and resolves to nothing when git runs.
    const renamed: CheckedRemote = { ...checked, url: `git://rebound.invalid:${port}/r.git`, pinned: { ...checked.pinned!, host: 'rebound.invalid' } };
    const listed = runGit(renamed, 'ls-remote', renamed.url);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^[0-9a-f]{40}\trefs\/heads\/main$/m);
    const cloned = runGit(renamed, 'clone', '-q', '--mirror', renamed.url, 'copy.git');
    expect(cloned.status, cloned.stderr).toBe(0);
    expect(spawnSync('git', ['--git-dir', path.join(dir, 'copy.git'), 'rev-parse', 'refs/heads/main'], { encoding: 'utf8' }).status).toBe(0);

    // Pinned to where nothing listens: git fails there, and tries no other address.
    const closed = await freePort();
    const elsewhere: CheckedRemote = { ...renamed, pinned: { ...renamed.pinned!, port: closed } };
    const failed = runGit(elsewhere, 'ls-remote', elsewhere.url);
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toContain(`unable to connect to 127.0.0.1:${closed}`);
  });

  it('refuses a git:// remote it cannot pin, with a 422 message', async () => {
    const checked = await checkRemoteAddress(local, someone, { address: `git://127.0.0.1:${port}/r.git` });
    const error = (() => {
      try {
        gitRemoteOptions({ ...checked, pinned: undefined }, local);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(RemoteAddressError);
    expect((error as RemoteAddressError).message).toBe(REMOTE_ADDRESS_MESSAGES.unpinnable);
    // http without a pinned address is left to the HTTP checks (followRemoteRedirects refuses it).
    expect(() => gitRemoteOptions({ ...checked, url: 'http://127.0.0.1/r.git', pinned: undefined }, local)).not.toThrow();
  });
});

describe('git options, redaction and storage of credentials', () => {
  it('hands git the credentials through its credential helper, not the command line', async () => {
    const remote = await checkRemoteAddress(local, someone, { address: 'http://alice:pa%24%24%20word@127.0.0.1:8080/o/r.git' });
    const { args, env } = gitRemoteOptions(remote, local);
    expect(args.join(' ')).not.toContain('pa$$ word');
    expect(args).toContain('http.curloptResolve=127.0.0.1:8080:127.0.0.1');
    expect(args).toContain('http.followRedirects=false');
    const filled = spawnSync('git', [...args, 'credential', 'fill'], {
      input: 'protocol=http\nhost=127.0.0.1:8080\n\n',
      env: { PATH: process.env.PATH, HOME: os.tmpdir(), GIT_CONFIG_NOSYSTEM: '1', ...env },
      encoding: 'utf8',
    });
    expect(filled.status).toBe(0);
    expect(filled.stdout).toContain('username=alice\n');
    expect(filled.stdout).toContain('password=pa$$ word\n');
  });

  it('removes user information from every URL in a text, in linear time', () => {
    const cases: [string, string][] = [
      ['a https://u:p@h/x and git+ssh://me@host:1/y, not mail@example.com', 'a https://h/x and git+ssh://host:1/y, not mail@example.com'],
      ['x://a://b@c', 'x://a://c'],
      ['_a://u@h', '_a://u@h'],
      ['.a://u@h', '.a://h'],
      ['1a://u@h', '1a://u@h'],
      ['HTTP://U:P@H', 'HTTP://H'],
      ['s://no userinfo here@', 's://no userinfo here@'],
      ['s://u@h s://v@i s://w', 's://h s://i s://w'],
    ];
    for (const [text, expected] of cases) expect(redactCredentials(text), text).toBe(expected);
    const started = Date.now();
    for (const text of [`${'a.'.repeat(100_000)}b`, `${'a://'.repeat(50_000)}`, `s://${'x:'.repeat(100_000)}`]) expect(redactCredentials(text)).toBe(text);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('redacts, sanitizes and round-trips encrypted credentials', () => {
    expect(redactCredentials("fatal: unable to access 'https://bob:hunter22@host/x.git/'", { username: 'bob', password: 'hunter22' })).toBe(
      "fatal: unable to access 'https://host/x.git/'",
    );
    expect(redactCredentials('Password for hunter22 wrong', { username: 'bob', password: 'hunter22' })).toBe('Password for <credentials> wrong');
    expect(sanitizeRemoteUrl('https://bob:hunter22@host/x.git')).toBe('https://host/x.git');
    expect(sanitizeRemoteUrl('https://host/x.git')).toBe('https://host/x.git');
    const stored = encryptRemoteCredentials('key-1', { username: 'bob', password: 'hunter22' });
    expect(stored).not.toContain('hunter22');
    expect(decryptRemoteCredentials('key-1', stored)).toEqual({ username: 'bob', password: 'hunter22' });
    expect(decryptRemoteCredentials('key-2', stored)).toBeUndefined();
    expect(encryptRemoteCredentials('key-1', undefined)).toBe('');
    expect(decryptRemoteCredentials('key-1', '')).toBeUndefined();
  });
});
