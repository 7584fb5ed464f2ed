/**
 * End-to-end git over SSH: the real `ssh` client and `git` against RepoHost's built-in SSH server, and against
 * `repohost serv` the way OpenSSH runs it (the command `repohost keys` prints, with SSH_ORIGINAL_COMMAND set).
 * Keys come from `ssh-keygen`; everything is asserted from the client's side and from the API afterwards.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepoHost, RepositorySchema, SYSTEM, loadSettings, matchesSchema, userActor, type User } from '@repohost/core';
import { startServer, startSshServer } from '@repohost/server';
import { createToken, createUser, openTestHost, startTestServer, testDatabaseEnv, tokenHeader, type TestServer } from '@repohost/test-support';

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(root, 'packages', 'cli', 'dist', 'main.js');

let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
let counter = 0;

/** A fresh, not yet existing folder path under the scratch folder. */
function freshDir(label: string): string {
  return path.join(scratch, `${label}-${++counter}`);
}

function exec(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: Buffer | string; timeout?: number } = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      { cwd: options.cwd ?? scratch, env: options.env ?? gitEnv, maxBuffer: 64 << 20, timeout: options.timeout ?? 60_000, encoding: 'buffer' },
      (error, stdout, stderr) => {
        if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: stdout.toString('latin1'), stderr: stderr.toString() });
      },
    );
    // A command that exits without reading its input closes the pipe: not an error here.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input ?? '');
  });
}

/** git with the given GIT_SSH_COMMAND (and any other environment); never throws on a non-zero exit. */
function git(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Result> {
  return exec('git', args, { cwd: options.cwd, env: { ...gitEnv, ...options.env } });
}

async function gitOk(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Result> {
  const result = await git(args, options);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${result.code}):\n${result.stderr}\n${result.stdout}`);
  return result;
}

async function commitFile(repoDir: string, file: string, content: string | Buffer, message: string): Promise<string> {
  await writeFile(path.join(repoDir, file), content);
  await gitOk(['add', '--', file], { cwd: repoDir });
  await gitOk(['commit', '-q', '-m', message], { cwd: repoDir });
  return (await gitOk(['rev-parse', 'HEAD'], { cwd: repoDir })).stdout.trim();
}

interface KeyPair {
  file: string;
  /** `type base64` */
  publicKey: string;
}

async function keygen(label: string): Promise<KeyPair> {
  const file = path.join(scratch, 'keys', label);
  await mkdir(path.dirname(file), { recursive: true });
  const made = await exec('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `${label}@example.com`, '-f', file]);
  expect(made.code, made.stderr).toBe(0);
  const publicKey = (await readFile(`${file}.pub`, 'utf8')).trim().split(' ').slice(0, 2).join(' ');
  return { file, publicKey };
}

/** The OpenSSH client as git should run it against the built-in server: this key only, no host key checks. */
function sshCommand(key: KeyPair, port: number): string {
  return `ssh -F /dev/null -i ${key.file} -p ${port} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR`;
}

/** Pids of live processes whose command line mentions `text`. */
async function processesMentioning(text: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replace(/\0/g, ' ');
      const state = (await readFile(`/proc/${entry}/stat`, 'utf8')).split(') ')[1]?.[0];
      if (cmd.includes(text) && state !== 'Z') found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-git-ssh-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Git Tester\n\temail = tester@example.com\n[init]\n\tdefaultBranch = main\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the built-in SSH server with the real ssh and git clients', () => {
  let ts: TestServer;
  let port: number;
  let aliceToken: string;
  let aliceKey: KeyPair;
  let bobKey: KeyPair;
  let strangerKey: KeyPair;
  /** GIT_SSH_COMMAND for each key. */
  let as: { alice: Record<string, string>; bob: Record<string, string>; stranger: Record<string, string> };
  const url = (repo: string) => `ssh://git@127.0.0.1:${port}/${repo}`;
  /** scp-like form: git sends the path without a leading slash. */
  const scpUrl = (repo: string) => `git@127.0.0.1:${repo}`;

  async function getRepo(fullName: string): Promise<Record<string, unknown>> {
    const res = await ts.fetch(`/api/v1/repos/${fullName}`, { headers: tokenHeader(aliceToken) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(matchesSchema(RepositorySchema, body)).toBe(true);
    return body;
  }

  beforeAll(async () => {
    // Actions off: a push would start a workflow detection whose git readers these tests would count as the
    // transfers' own processes.
    ts = await startTestServer({ server: { START_SSH_SERVER: true, SSH_LISTEN_HOST: '127.0.0.1', SSH_LISTEN_PORT: 0 }, actions: { ENABLED: false } });
    // A random listening port is what ssh_url names.
    port = ts.host.settings.server.SSH_PORT;
    expect(port).toBeGreaterThan(0);
    const alice = await createUser(ts.host, 'alice');
    const bob = await createUser(ts.host, 'bob');
    aliceToken = await createToken(ts.host, 'alice');
    [aliceKey, bobKey, strangerKey] = await Promise.all([keygen('alice'), keygen('bob'), keygen('stranger')]);
    await ts.host.keys.add(userActor(alice), alice, { title: 'laptop', key: `${aliceKey.publicKey} alice@laptop` });
    await ts.host.keys.add(userActor(bob), bob, { title: 'laptop', key: bobKey.publicKey });
    as = {
      alice: { GIT_SSH_COMMAND: sshCommand(aliceKey, port) },
      bob: { GIT_SSH_COMMAND: sshCommand(bobKey, port) },
      stranger: { GIT_SSH_COMMAND: sshCommand(strangerKey, port) },
    };
    const owner = userActor(alice);
    await ts.host.repos.create(owner, { name: 'pub1', auto_init: true });
    await ts.host.repos.create(owner, { name: 'pub256', auto_init: true, object_format_name: 'sha256' });
    await ts.host.repos.create(owner, { name: 'priv1', auto_init: true, private: true });
    await ts.host.repos.create(owner, { name: 'priv256', auto_init: true, private: true, object_format_name: 'sha256' });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  it('names the port it listens on in ssh_url', async () => {
    const repo = await getRepo('alice/pub1');
    expect(repo.ssh_url).toBe(`ssh://git@127.0.0.1:${port}/alice/pub1.git`);
  });

  for (const format of ['sha1', 'sha256'] as const) {
    const suffix = format === 'sha1' ? '1' : '256';
    it(`lets the owner clone and push a public and a private ${format} repository`, async () => {
      for (const name of [`pub${suffix}`, `priv${suffix}`]) {
        const work = freshDir(name);
        await gitOk(['clone', '-q', scpUrl(`alice/${name}.git`), work], { env: as.alice });
        expect((await gitOk(['rev-parse', '--show-object-format'], { cwd: work })).stdout.trim()).toBe(format);
        expect(await readFile(path.join(work, 'README.md'), 'utf8')).toContain(`# ${name}`);
        const before = await getRepo(`alice/${name}`);

        const id = await commitFile(work, 'payload.bin', randomBytes(16 * 1024), 'Add payload');
        expect(id).toHaveLength(format === 'sha1' ? 40 : 64);
        const push = await gitOk(['push', 'origin', 'main'], { cwd: work, env: as.alice });
        expect(push.stderr).toContain('main -> main');

        // Another clone, through the ssh:// form (a path with a leading slash), sees the push.
        const again = freshDir(`${name}-again`);
        await gitOk(['clone', '-q', url(`alice/${name}.git`), again], { env: as.alice });
        expect((await gitOk(['rev-parse', 'HEAD'], { cwd: again })).stdout.trim()).toBe(id);
        // The push was recorded as an HTTP push is.
        const after = await getRepo(`alice/${name}`);
        expect(after.size as number).toBeGreaterThan(before.size as number);
        expect(after.empty).toBe(false);
        expect(await ts.host.repoStorage.pending()).toEqual([]);
      }
    });
  }

  it('records the first push into an empty repository: not empty any more, default branch set', async () => {
    await ts.host.repos.create(userActor(await ts.host.users.resolve(SYSTEM, 'alice')), { name: 'blank', object_format_name: 'sha256' });
    expect((await getRepo('alice/blank')).empty).toBe(true);
    const clone = await gitOk(['clone', scpUrl('alice/blank'), freshDir('blank-clone')], { env: as.alice });
    expect(clone.stderr).toMatch(/cloned an empty repository/);
    // (git 2.39 does not take the object format from an empty remote: start a sha256 repository here.)
    const work = freshDir('blank');
    await gitOk(['init', '-q', '--object-format=sha256', '-b', 'trunk', work]);
    const id = await commitFile(work, 'first.txt', 'first\n', 'First commit');
    expect(id).toHaveLength(64);
    await gitOk(['push', scpUrl('alice/blank'), 'trunk'], { cwd: work, env: as.alice });
    const repo = await getRepo('alice/blank');
    expect(repo.empty).toBe(false);
    expect(repo.default_branch).toBe('trunk');
    const refs = await gitOk(['ls-remote', '--symref', scpUrl('alice/blank.git'), 'HEAD'], { env: as.alice });
    expect(refs.stdout).toContain('ref: refs/heads/trunk\tHEAD');
    expect(refs.stdout).toContain(`${id}\tHEAD`);
  });

  it('lets another user clone a public repository but not push to it, and not see a private one', async () => {
    const head = (await gitOk(['ls-remote', scpUrl('alice/pub1.git'), 'refs/heads/main'], { env: as.alice })).stdout;
    const work = freshDir('bob-pub1');
    await gitOk(['clone', '-q', scpUrl('alice/pub1.git'), work], { env: as.bob });
    await commitFile(work, 'bob.txt', 'from bob\n', 'Bob was here');
    const push = await git(['push', 'origin', 'main'], { cwd: work, env: as.bob });
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain('RepoHost: User permission denied');
    expect((await gitOk(['ls-remote', scpUrl('alice/pub1.git'), 'refs/heads/main'], { env: as.alice })).stdout).toBe(head);

    for (const name of ['priv1', 'priv256', 'missing']) {
      const clone = await git(['clone', '-q', scpUrl(`alice/${name}.git`), freshDir(`bob-${name}`)], { env: as.bob });
      expect(clone.code).not.toBe(0);
      // The same answer for a private repository as for one that does not exist.
      expect(clone.stderr).toContain(`RepoHost: Cannot find repository: alice/${name}`);
      expect((await git(['push', scpUrl(`alice/${name}.git`), 'main'], { cwd: work, env: as.bob })).stderr).toContain('Cannot find repository');
    }
  });

  it('refuses an unknown key, and any login but git, at authentication', async () => {
    const clone = await git(['clone', '-q', scpUrl('alice/pub1.git'), freshDir('stranger')], { env: as.stranger });
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toContain('Permission denied (publickey)');
    const wrongUser = await git(['ls-remote', `alice@127.0.0.1:alice/pub1.git`], { env: as.alice });
    expect(wrongUser.code).not.toBe(0);
    expect(wrongUser.stderr).toContain('Permission denied (publickey)');
  });

  it('speaks protocol v2 when the client asks for it (GIT_PROTOCOL), v0 otherwise', async () => {
    const v2 = await gitOk(['-c', 'protocol.version=2', 'ls-remote', scpUrl('alice/pub256.git')], { env: { ...as.alice, GIT_TRACE_PACKET: '1' } });
    expect(v2.stderr).toMatch(/< version 2$/m);
    expect(v2.stdout).toMatch(/^[0-9a-f]{64}\tHEAD$/m);
    const v0 = await gitOk(['-c', 'protocol.version=0', 'ls-remote', scpUrl('alice/pub256.git')], { env: { ...as.alice, GIT_TRACE_PACKET: '1' } });
    expect(v0.stderr).not.toMatch(/< version 2$/m);
    expect(v0.stdout.split('\n').find((l) => l.endsWith('\tHEAD'))).toBe(v2.stdout.split('\n').find((l) => l.endsWith('\tHEAD')));
    // A v2 fetch, end to end.
    const work = freshDir('v2');
    await gitOk(['-c', 'protocol.version=2', 'clone', '-q', scpUrl('alice/pub256.git'), work], { env: as.alice });
  });

  it('answers a shell with a greeting, and refuses other commands and bad paths before starting git', async () => {
    const ssh = (command: string[], key = aliceKey, input = '') =>
      exec('ssh', [...sshCommand(key, port).split(' ').slice(1), '-T', 'git@127.0.0.1', ...command], { input });
    const shell = await ssh([]);
    expect(shell.code).toBe(0);
    expect(shell.stderr).toContain("Hi there, alice! You've successfully authenticated, but RepoHost does not provide shell access.");
    const refused: [string, string][] = [
      ['ls /', 'RepoHost: Unknown git command: ls'],
      ['git-upload-archive alice/pub1.git', 'RepoHost: Unknown git command: git-upload-archive'],
      ["git-upload-pack '../../etc/passwd'", 'RepoHost: Invalid repository path'],
      ["git-upload-pack 'alice'", 'RepoHost: Invalid repository path'],
      ['git-upload-pack', 'RepoHost: Too few arguments'],
      ["git-upload-pack 'alice/pub1.git", 'RepoHost: Error parsing arguments'],
    ];
    for (const [command, message] of refused) {
      const result = await ssh([command]);
      expect({ command, code: result.code }).toEqual({ command, code: 1 });
      expect(result.stderr).toContain(message);
    }
    // The dashless form, with the quoting git uses: the server speaks first (its advertisement), then a flush ends it.
    const advert = await ssh(["git upload-pack '/alice/pub1.git'"], aliceKey, '0000');
    expect(advert.code).toBe(0);
    expect(advert.stdout).toContain('refs/heads/main');
  });

  it('stops git when the client goes away, and the next push works', async () => {
    const repoPath = path.join(ts.host.settings.repository.ROOT, 'alice', 'pub1.git');
    // receive-pack waits for the client's commands after its advertisement: the client hangs up instead.
    const client = spawn('ssh', [...sshCommand(aliceKey, port).split(' ').slice(1), 'git@127.0.0.1', "git-receive-pack 'alice/pub1.git'"], { stdio: ['pipe', 'pipe', 'pipe'] });
    await new Promise<void>((resolve) => client.stdout.once('data', () => resolve()));
    expect((await processesMentioning(repoPath)).length).toBeGreaterThan(0);
    client.kill('SIGKILL');
    await waitFor('git to stop', async () => ((await processesMentioning(repoPath)).length === 0 ? true : undefined));

    const work = freshDir('after-hangup');
    await gitOk(['clone', '-q', scpUrl('alice/pub1.git'), work], { env: as.alice });
    const id = await commitFile(work, 'after.txt', 'after\n', 'After a hang-up');
    await gitOk(['push', 'origin', 'main'], { cwd: work, env: as.alice });
    expect((await gitOk(['ls-remote', scpUrl('alice/pub1.git'), 'refs/heads/main'], { env: as.bob })).stdout).toContain(id);
    await waitFor('the push to be recorded', async () => ((await ts.host.repoStorage.pending()).length === 0 ? true : undefined));
  });
});

describe('the built-in SSH server\'s host key and bounds', () => {
  it('generates an ed25519 host key on first start, keeps it (0600), and serves the same key after a restart', async () => {
    const t = await openTestHost();
    try {
      const first = await startSshServer(t.host, { port: 0, hostname: '127.0.0.1' });
      const keyFile = path.join(t.host.settings.server.APP_DATA_PATH, 'ssh', 'gitea.rsa');
      expect(((await stat(keyFile)).mode & 0o777).toString(8)).toBe('600');
      expect(first.hostPublicKeys).toHaveLength(1);
      expect(first.hostPublicKeys[0]).toMatch(/^ssh-ed25519 /);
      expect((await readFile(`${keyFile}.pub`, 'utf8')).trim()).toBe(first.hostPublicKeys[0]);
      const scanned = await exec('ssh-keyscan', ['-p', String(first.port), '-t', 'ed25519', '127.0.0.1']);
      expect(scanned.stdout).toContain(first.hostPublicKeys[0]);
      await first.close();

      const second = await startSshServer(t.host, { port: 0, hostname: '127.0.0.1' });
      expect(second.hostPublicKeys).toEqual(first.hostPublicKeys);
      const rescanned = await exec('ssh-keyscan', ['-p', String(second.port), '-t', 'ed25519', '127.0.0.1']);
      expect(rescanned.stdout).toContain(first.hostPublicKeys[0]);
      await second.close();
    } finally {
      await t.cleanup();
    }
  });

  it('drops connections that do not authenticate in time, and those over the unauthenticated limit', async () => {
    const t = await openTestHost();
    const server = await startSshServer(t.host, { port: 0, hostname: '127.0.0.1', authTimeoutMs: 400, maxUnauthenticated: 2 });
    try {
      const open = () =>
        new Promise<{ closed: Promise<number> }>((resolve, reject) => {
          const socket = connect(server.port, '127.0.0.1');
          const started = Date.now();
          socket.on('error', () => {});
          socket.resume();
          const closed = new Promise<number>((done) => socket.once('close', () => done(Date.now() - started)));
          socket.once('connect', () => resolve({ closed }));
          socket.once('error', reject);
        });
      const a = await open();
      const b = await open();
      // Let the server count both before the third arrives.
      await new Promise((r) => setTimeout(r, 50));
      const c = await open();
      expect(await c.closed).toBeLessThan(300);
      expect(await a.closed).toBeGreaterThanOrEqual(350);
      expect(await b.closed).toBeGreaterThanOrEqual(300);
      // Once they are gone, a new connection is served (it gets the server's greeting).
      const greeting = await new Promise<string>((resolve) => {
        const socket = connect(server.port, '127.0.0.1');
        socket.once('data', (d: Buffer) => {
          resolve(d.toString('latin1'));
          socket.destroy();
        });
      });
      expect(greeting).toMatch(/^SSH-2\.0-RepoHost/);
    } finally {
      await server.close();
      await t.cleanup();
    }
  });
});

describe('the built-in SSH server\'s idle timeout and settings', () => {
  it('closes an authenticated connection on which no git data moves, and stops its git', async () => {
    const t = await openTestHost();
    try {
      const alice = await createUser(t.host, 'alice');
      const key = await keygen('idle');
      await t.host.keys.add(userActor(alice), alice, { title: 'k', key: key.publicKey });
      await t.host.repos.create(userActor(alice), { name: 'idle', auto_init: true });
      const server = await startSshServer(t.host, { port: 0, hostname: '127.0.0.1', idleTimeoutMs: 500 });
      try {
        const repoPath = path.join(t.host.settings.repository.ROOT, 'alice', 'idle.git');
        // receive-pack advertises, then waits for commands that never come; the client keeps its input open.
        const client = spawn('ssh', [...sshCommand(key, server.port).split(' ').slice(1), 'git@127.0.0.1', "git-receive-pack 'alice/idle.git'"], { stdio: ['pipe', 'pipe', 'pipe'] });
        const exited = new Promise<void>((resolve) => client.once('exit', () => resolve()));
        await new Promise<void>((resolve) => client.stdout.once('data', () => resolve()));
        const advertised = Date.now();
        expect((await processesMentioning(repoPath)).length).toBeGreaterThan(0);
        await exited;
        expect(Date.now() - advertised).toBeGreaterThanOrEqual(400);
        await waitFor('git to stop', async () => ((await processesMentioning(repoPath)).length === 0 ? true : undefined));
      } finally {
        await server.close();
      }
    } finally {
      await t.cleanup();
    }
  });

  it('starts with startServer only when START_SSH_SERVER is on and DISABLE_SSH off, and closes with it', async () => {
    for (const [server, expected] of [
      [{ START_SSH_SERVER: true, DISABLE_SSH: true }, false],
      [{ START_SSH_SERVER: false }, false],
      [{ START_SSH_SERVER: true }, true],
    ] as const) {
      const t = await openTestHost({ server: { ...server, SSH_LISTEN_HOST: '127.0.0.1', SSH_LISTEN_PORT: 0 } });
      try {
        const running = await startServer(t.host, { port: 0, hostname: '127.0.0.1' });
        expect(running.ssh !== undefined).toBe(expected);
        const sshPort = running.ssh?.port;
        await running.close();
        if (sshPort !== undefined) {
          const refused = await new Promise<boolean>((resolve) => {
            const socket = connect(sshPort, '127.0.0.1');
            socket.once('connect', () => {
              socket.destroy();
              resolve(false);
            });
            socket.once('error', () => resolve(true));
          });
          expect(refused).toBe(true);
        }
      } finally {
        await t.cleanup();
      }
    }
  });
});

describe('git over OpenSSH: repohost keys and repohost serv', () => {
  let workPath: string;
  let env: NodeJS.ProcessEnv;
  let cleanupDb: () => Promise<void>;
  let aliceKey: KeyPair;
  let bobKey: KeyPair;
  let ids: { alice: number; bob: number };
  let fakeSsh: string;

  const cli = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => exec(process.execPath, [CLI, '--work-path', workPath, ...args], { env: { ...env, ...extraEnv } });

  /** What sshd runs for the key: the command `repohost keys` put in its authorized_keys line. */
  async function authorizedCommand(key: KeyPair): Promise<string> {
    const [type, content] = key.publicKey.split(' ') as [string, string];
    const out = await cli(['keys', '-e', 'git', '-u', 'git', '-t', type, '-k', content]);
    expect(out.code, out.stderr).toBe(0);
    const match = /^command="((?:[^"\\]|\\.)*)",(\S+) (.+)$/m.exec(out.stdout);
    expect(match, out.stdout).not.toBeNull();
    expect(match![2]).toBe('no-port-forwarding,no-X11-forwarding,no-agent-forwarding,no-pty,no-user-rc,restrict');
    expect(match![3]).toBe(key.publicKey);
    return match![1]!.replace(/\\"/g, '"');
  }

  /** git's environment for pushing and fetching as the key's owner through `repohost serv`. */
  async function through(key: KeyPair): Promise<Record<string, string>> {
    return { GIT_SSH_COMMAND: fakeSsh, GIT_SSH_VARIANT: 'ssh', REPOHOST_AUTHORIZED_COMMAND: await authorizedCommand(key), ...(env as Record<string, string>) };
  }

  beforeAll(async () => {
    const { ensureBuilt } = (await import(path.join(root, 'scripts', 'build-if-stale.mjs'))) as { ensureBuilt(): Promise<void> };
    await ensureBuilt();
    workPath = await mkdtemp(path.join(tmpdir(), 'repohost-serv-'));
    const db = await testDatabaseEnv();
    cleanupDb = db.cleanup;
    env = { PATH: process.env.PATH ?? '', HOME: gitEnv.HOME, LANG: 'C', LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1', ...db.env };
    [aliceKey, bobKey] = await Promise.all([keygen('serv-alice'), keygen('serv-bob')]);
    // A new installation, as `repohost` would start it: the key file it makes is what `repohost serv` reads.
    const host = await RepoHost.open({ settings: loadSettings({ workPath, env }), noSecretKey: 'generate' });
    try {
      const make = (name: string) => host.users.create(SYSTEM, { username: name, email: `${name}@example.com`, password: 'a-good-password' });
      const alice: User = await make('alice');
      const bob: User = await make('bob');
      ids = {
        alice: (await host.keys.add(userActor(alice), alice, { title: 'k', key: aliceKey.publicKey })).id,
        bob: (await host.keys.add(userActor(bob), bob, { title: 'k', key: bobKey.publicKey })).id,
      };
      await host.repos.create(userActor(alice), { name: 'open', auto_init: true, object_format_name: 'sha256' });
      await host.repos.create(userActor(alice), { name: 'secret', auto_init: true, private: true });
    } finally {
      await host.close();
    }
    // Stands in for ssh + sshd: the remote command is git's last argument; sshd would run the authorized command
    // with it in SSH_ORIGINAL_COMMAND (and GIT_PROTOCOL, which git sets for its ssh, passed through).
    fakeSsh = path.join(scratch, 'fake-ssh');
    await writeFile(fakeSsh, '#!/bin/sh\nfor last; do :; done\nSSH_ORIGINAL_COMMAND="$last" exec sh -c "$REPOHOST_AUTHORIZED_COMMAND"\n');
    await chmod(fakeSsh, 0o755);
  }, 180_000);

  afterAll(async () => {
    await cleanupDb?.();
    if (workPath) await rm(workPath, { recursive: true, force: true });
  });

  it('repohost keys prints the authorized_keys line for a known key, nothing for other logins, exit 1 for unknown keys', async () => {
    const command = await authorizedCommand(aliceKey);
    expect(command).toBe(`${process.execPath} ${CLI} --work-path=${workPath} serv key-${ids.alice}`);
    const [type, content] = bobKey.publicKey.split(' ') as [string, string];
    const other = await cli(['keys', '-e', 'git', '-u', 'root', '-t', type, '-k', content]);
    expect(other).toEqual({ code: 0, stdout: '', stderr: '' });
    const stranger = await keygen('serv-stranger');
    const unknown = await cli(['keys', '-u', 'git', '-t', 'ssh-ed25519', '-k', stranger.publicKey.split(' ')[1]!]);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    const missing = await cli(['keys', '-t', type, '-k', content]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No username provided');
  });

  it('repohost serv serves clone and push as the key\'s owner, over protocol v0 and v2', async () => {
    const asAlice = await through(aliceKey);
    const work = freshDir('serv-open');
    await gitOk(['clone', '-q', 'git@repohost:alice/open.git', work], { env: asAlice });
    expect((await gitOk(['rev-parse', '--show-object-format'], { cwd: work })).stdout.trim()).toBe('sha256');
    const id = await commitFile(work, 'served.txt', 'through serv\n', 'Through serv');
    await gitOk(['push', 'origin', 'main'], { cwd: work, env: asAlice });
    const v2 = await gitOk(['-c', 'protocol.version=2', 'ls-remote', 'git@repohost:/alice/open.git', 'refs/heads/main'], { env: { ...asAlice, GIT_TRACE_PACKET: '1' } });
    expect(v2.stderr).toMatch(/< version 2$/m);
    expect(v2.stdout).toContain(id);

    // The push is recorded in the database, as any other push.
    const host = await RepoHost.open({ settings: loadSettings({ workPath, env }), reconcile: false });
    try {
      const { repo } = await host.repos.resolve(SYSTEM, 'alice', 'open');
      expect(repo.is_empty).toBe(0);
      expect(await host.repoStorage.pending()).toEqual([]);
    } finally {
      await host.close();
    }
    await gitOk(['clone', '-q', 'git@repohost:alice/secret.git', freshDir('serv-secret')], { env: asAlice });
  });

  it('repohost serv enforces the same permissions and says why on stderr', async () => {
    const asBob = await through(bobKey);
    const work = freshDir('serv-bob');
    await gitOk(['clone', '-q', 'git@repohost:alice/open.git', work], { env: asBob });
    await commitFile(work, 'bob.txt', 'bob\n', 'Bob');
    const push = await git(['push', 'origin', 'main'], { cwd: work, env: asBob });
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain('RepoHost: User permission denied');
    const secret = await git(['clone', '-q', 'git@repohost:alice/secret.git', freshDir('serv-bob-secret')], { env: asBob });
    expect(secret.code).not.toBe(0);
    expect(secret.stderr).toContain('RepoHost: Cannot find repository: alice/secret');

    // Run directly, as sshd would: a shell is greeted, unknown commands and keys are refused.
    const shell = await cli(['serv', `key-${ids.bob}`]);
    expect(shell.code).toBe(0);
    expect(shell.stderr).toContain("Hi there, bob! You've successfully authenticated, but RepoHost does not provide shell access.");
    const unknownCommand = await cli(['serv', `key-${ids.bob}`], { SSH_ORIGINAL_COMMAND: 'rm -rf /' });
    expect(unknownCommand).toMatchObject({ code: 1, stdout: '' });
    expect(unknownCommand.stderr).toContain('RepoHost: Unknown git command: rm');
    const unknownKey = await cli(['serv', 'key-99999'], { SSH_ORIGINAL_COMMAND: "git-upload-pack 'alice/open.git'" });
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.stderr).toContain('RepoHost: Cannot find key: 99999');
    const badArgument = await cli(['serv', 'nonsense']);
    expect(badArgument.code).toBe(1);
    expect(badArgument.stderr).toContain('RepoHost: Key ID format error');
  });
});
