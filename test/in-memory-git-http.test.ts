/**
 * The real `git` client against servers on both git backends, the same cases for each: clone and fetch over smart
 * HTTP (protocols v2 and v0), pushes with their refusals, from an in-memory forge (`RepoHost.inMemory()`) as from
 * the native one.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepoHost, userActor, type SettingsOverrides, type User } from '@repohost/core';
import { startServer } from '@repohost/server';
import { createToken, createUser, startTestServer } from '@repohost/test-support';

interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

interface Forge {
  host: RepoHost;
  url: string;
  cleanup(): Promise<void>;
}

const FORGES: { name: string; start(overrides?: SettingsOverrides): Promise<Forge> }[] = [
  {
    name: 'native',
    start: async (overrides = {}) => {
      const ts = await startTestServer(overrides);
      return { host: ts.host, url: ts.url, cleanup: ts.cleanup };
    },
  },
  {
    name: 'memory',
    start: async (overrides = {}) => {
      const host = await RepoHost.inMemory({ overrides: { ...overrides, server: { DOMAIN: '127.0.0.1', HTTP_PORT: 0 } } });
      const running = await startServer(host, { port: 0, hostname: '127.0.0.1' });
      return {
        host,
        url: host.settings.server.ROOT_URL,
        cleanup: async () => {
          await running.close();
          await host.close();
        },
      };
    },
  },
];

describe.each(FORGES)('git over smart HTTP: $name backend', (forge) => {
  let f: Forge;
  let scratch: string;
  let env: NodeJS.ProcessEnv;
  let alice: User;
  let first: string;

  function git(args: string[], cwd = scratch, extra: Record<string, string> = {}): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      execFile('git', args, { cwd, env: { ...env, ...extra }, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
        if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) });
      });
    });
  }
  async function gitOk(args: string[], cwd = scratch): Promise<string> {
    const result = await git(args, cwd);
    if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${result.code}):\n${result.stderr}`);
    return result.stdout;
  }
  const repoUrl = (name: string) => `${f.url}alice/${name}.git`;
  const head = async (name: string) => (await f.host.git.readRefs({ owner: 'alice', name }, ['refs/heads/main'])).get('refs/heads/main');

  beforeAll(async () => {
    f = await forge.start();
    scratch = await mkdtemp(path.join(tmpdir(), 'repohost-memory-http-'));
    const home = path.join(scratch, 'home');
    await mkdir(home);
    await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Git Tester\n\temail = tester@example.com\n[init]\n\tdefaultBranch = main\n');
    env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
    alice = await createUser(f.host, 'alice', { admin: true });
    await f.host.repos.create(userActor(alice), { name: 'demo', auto_init: true, readme: 'Default' });
    const access = await f.host.repos.resolve(userActor(alice), 'alice', 'demo');
    await f.host.contents.createFile(userActor(alice), access, 'src/app.txt', { content: Buffer.from('hello\n').toString('base64'), message: 'Add app' });
    await f.host.tags.create(userActor(alice), access, { viewer: userActor(alice), settings: f.host.settings }, { tag_name: 'v1', message: 'First' });
    first = (await head('demo'))!;
  });
  afterAll(async () => {
    await f?.cleanup();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('clones a repository with its branches and annotated tags', async () => {
    const dir = path.join(scratch, 'clone');
    await gitOk(['clone', '-q', repoUrl('demo'), dir]);
    expect((await gitOk(['rev-parse', 'HEAD'], dir)).trim()).toBe(first);
    expect((await gitOk(['log', '--format=%s'], dir)).trim().split('\n')).toEqual(['Add app', 'Initial commit']);
    expect(await readFile(path.join(dir, 'src/app.txt'), 'utf8')).toBe('hello\n');
    expect((await gitOk(['tag', '-n1'], dir)).trim()).toMatch(/^v1\s+First$/);
    expect((await gitOk(['cat-file', '-t', 'v1'], dir)).trim()).toBe('tag');
    await gitOk(['fsck', '--strict'], dir);
  });

  it('fetches new commits into an existing clone, sending only what it lacks', async () => {
    const dir = path.join(scratch, 'clone');
    const access = await f.host.repos.resolve(userActor(alice), 'alice', 'demo');
    await f.host.contents.createFile(userActor(alice), access, 'src/more.txt', { content: Buffer.from('more\n').toString('base64'), message: 'Add more' });
    const result = await git(['fetch', 'origin'], dir, { GIT_TRACE_PACKET: '1' });
    expect(result.code, result.stderr).toBe(0);
    // The server acknowledged the client's commit: what it sent starts there.
    expect(result.stderr).toContain(`fetch< ACK ${first}`);
    expect((await gitOk(['rev-parse', 'origin/main'], dir)).trim()).toBe(await head('demo'));
    expect((await gitOk(['log', '--format=%s', '-1', 'origin/main'], dir)).trim()).toBe('Add more');
    await gitOk(['fsck', '--strict'], dir);
  });

  it('clones an empty repository', async () => {
    await f.host.repos.create(userActor(alice), { name: 'empty' });
    const dir = path.join(scratch, 'empty');
    const result = await git(['clone', repoUrl('empty'), dir]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('empty repository');
  });

  const pushUrl = (name: string) => `${f.url.replace('http://', 'http://alice:correct-horse-battery@')}alice/${name}.git`;

  it('pushes new commits, branches and tags, recorded as the native backend records them', async () => {
    const dir = path.join(scratch, 'clone');
    await gitOk(['merge', '-q', '--ff-only', 'origin/main'], dir);
    await mkdir(path.join(dir, 'lib'), { recursive: true });
    await writeFile(path.join(dir, 'lib/new.txt'), 'new\n');
    await gitOk(['add', 'lib/new.txt'], dir);
    await gitOk(['commit', '-q', '-m', 'Pushed'], dir);
    const pushed = (await gitOk(['rev-parse', 'HEAD'], dir)).trim();
    await gitOk(['tag', '-a', 'v2', '-m', 'Second'], dir);
    const result = await git(['push', pushUrl('demo'), 'HEAD:main', 'HEAD:refs/heads/topic', 'v2'], dir);
    expect(result.code, result.stderr).toBe(0);
    expect(await head('demo')).toBe(pushed);
    const access = await f.host.repos.resolve(userActor(alice), 'alice', 'demo');
    const commits = await f.host.commits.list(userActor(alice), access, {}, { limit: 1 });
    expect(commits.items[0]!.commit.message).toBe('Pushed\n');
    const view = { viewer: userActor(alice), settings: f.host.settings };
    expect((await f.host.branches.list(userActor(alice), access, view)).items.map((b) => b.name).sort()).toEqual(['main', 'topic']);
    expect((await f.host.tags.get(userActor(alice), access, view, 'v2')).commit.sha).toBe(pushed);
    // A second clone sees the pushed objects, which came in a pack.
    const again = path.join(scratch, 'again');
    await gitOk(['clone', '-q', repoUrl('demo'), again]);
    expect(await readFile(path.join(again, 'lib/new.txt'), 'utf8')).toBe('new\n');
    await gitOk(['fsck', '--strict'], again);
  });

  it('takes force pushes and branch deletions, and refuses to delete the default branch', async () => {
    const dir = path.join(scratch, 'clone');
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], dir);
    const rewound = (await gitOk(['rev-parse', 'HEAD'], dir)).trim();
    const plain = await git(['push', pushUrl('demo'), 'HEAD:topic'], dir);
    expect(plain.code).not.toBe(0);
    expect(plain.stderr).toMatch(/non-fast-forward|fetch first|rejected/);
    const forced = await git(['push', '--force', pushUrl('demo'), 'HEAD:topic'], dir);
    expect(forced.code, forced.stderr).toBe(0);
    expect((await f.host.git.readRefs({ owner: 'alice', name: 'demo' }, ['refs/heads/topic'])).get('refs/heads/topic')).toBe(rewound);
    const deleted = await git(['push', pushUrl('demo'), ':topic'], dir);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await f.host.git.readRefs({ owner: 'alice', name: 'demo' }, ['refs/heads/topic'])).size).toBe(0);
    const before = await head('demo');
    const refused = await git(['push', pushUrl('demo'), ':main'], dir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('branch main is the default branch and cannot be deleted');
    expect(refused.stderr).toContain('pre-receive hook declined');
    expect(await head('demo')).toBe(before);
  });

  it('refuses a ref update whose old value moved, and a malformed pack, changing nothing', async () => {
    const before = (await head('demo'))!;
    const post = (body: Buffer) =>
      fetch(`${f.url}alice/demo.git/git-receive-pack`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-git-receive-pack-request', authorization: `Basic ${Buffer.from('alice:correct-horse-battery').toString('base64')}` },
        body,
      });
    const pkt = (line: string) => Buffer.from((Buffer.byteLength(line) + 4).toString(16).padStart(4, '0') + line);
    // The client says main is at its parent: it is not, so main stays.
    const parent = (await f.host.git.resolveCommit({ owner: 'alice', name: 'demo' }, `${before}~1`))!;
    const stale = await post(Buffer.concat([pkt(`${parent} ${parent} refs/heads/main\0report-status\n`), Buffer.from('0000')]));
    expect(stale.status).toBe(200);
    const staleText = Buffer.from(await stale.arrayBuffer()).toString('latin1');
    expect(staleText).toContain('ng refs/heads/main');
    expect(await head('demo')).toBe(before);
    // Garbage where the pack should be.
    const broken = await post(Buffer.concat([pkt(`${before} ${'1'.repeat(40)} refs/heads/main\0report-status\n`), Buffer.from('0000'), Buffer.from('PACK not a pack at all, really not a pack')]));
    const brokenText = Buffer.from(await broken.arrayBuffer()).toString('latin1');
    expect(brokenText).toMatch(/unpack (?!ok)/);
    expect(brokenText).toContain('ng refs/heads/main');
    expect(await head('demo')).toBe(before);
    // No pack, and a new value the repository does not have.
    const missing = await post(Buffer.concat([pkt(`${before} ${'2'.repeat(40)} refs/heads/main\0report-status\n`), Buffer.from('0000')]));
    expect(Buffer.from(await missing.arrayBuffer()).toString('latin1')).toContain('ng refs/heads/main');
    expect(await head('demo')).toBe(before);
  });

  // The native backend's git dies on such a body without a word on stdout (as Forgejo's does), so only the memory
  // backend, which reads the request itself, has an answer to give.
  it.runIf(forge.name === 'memory')('answers a push whose pkt-line is longer than the body with git\'s ERR line, changing nothing', async () => {
    const before = (await head('demo'))!;
    const command = `${before} ${'3'.repeat(40)} refs/heads/main\0report-status\n`;
    // The length says 0x00ff bytes; the body ends long before that.
    const res = await fetch(`${f.url}alice/demo.git/git-receive-pack`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-git-receive-pack-request', authorization: `token ${await createToken(f.host, 'alice')}` },
      body: Buffer.from(`00ff${command}`),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-git-receive-pack-result');
    const text = Buffer.from(await res.arrayBuffer()).toString('latin1');
    const line = 'ERR protocol error: bad line length\n';
    expect(text).toBe(`${(line.length + 4).toString(16).padStart(4, '0')}${line}`);
    expect(await head('demo')).toBe(before);
    // The repository still takes the next request.
    const clone = await git(['ls-remote', repoUrl('demo'), 'refs/heads/main']);
    expect(clone.stdout).toContain(before);
  });

  it('asks branch protection about pushes', async () => {
    const auth = { authorization: `Basic ${Buffer.from('alice:correct-horse-battery').toString('base64')}`, 'content-type': 'application/json' };
    const protect = await fetch(`${f.url}api/v1/repos/alice/demo/branch_protections`, { method: 'POST', headers: auth, body: JSON.stringify({ branch_name: 'main', enable_push: false }) });
    expect(protect.status, await protect.clone().text()).toBe(201);
    const dir = path.join(scratch, 'clone');
    await gitOk(['fetch', '-q', 'origin'], dir);
    await gitOk(['reset', '-q', '--hard', 'origin/main'], dir);
    await writeFile(path.join(dir, 'protected.txt'), 'no\n');
    await gitOk(['add', 'protected.txt'], dir);
    await gitOk(['commit', '-q', '-m', 'Protected'], dir);
    const before = await head('demo');
    const refused = await git(['push', pushUrl('demo'), 'HEAD:main'], dir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('remote: Not allowed to push to protected branch main');
    expect(refused.stderr).toContain('pre-receive hook declined');
    expect(await head('demo')).toBe(before);
    const other = await git(['push', pushUrl('demo'), 'HEAD:refs/heads/free'], dir);
    expect(other.code, other.stderr).toBe(0);
    expect((await fetch(`${f.url}api/v1/repos/alice/demo/branch_protections/main`, { method: 'DELETE', headers: auth })).status).toBe(204);
  });

  it('refuses a pack over [repohost] GIT_RECEIVE_MAX_INPUT_SIZE, changing nothing', async () => {
    const small = await forge.start({ repohost: { GIT_RECEIVE_MAX_INPUT_SIZE: 2000 } });
    try {
      const owner = await createUser(small.host, 'alice', { admin: true });
      await small.host.repos.create(userActor(owner), { name: 'small', auto_init: true });
      const key = { owner: 'alice', name: 'small' };
      const before = (await small.host.git.readRefs(key, ['refs/heads/main'])).get('refs/heads/main');
      const dir = path.join(scratch, `small-${forge.name}`);
      await gitOk(['clone', '-q', `${small.url}alice/small.git`, dir]);
      // Random bytes do not compress: the pack is well over the limit.
      await writeFile(path.join(dir, 'big.bin'), randomBytes(20_000));
      await gitOk(['add', 'big.bin'], dir);
      await gitOk(['commit', '-q', '-m', 'Big'], dir);
      const pushed = await git(['push', `${small.url.replace('http://', 'http://alice:correct-horse-battery@')}alice/small.git`, 'HEAD:main'], dir);
      expect(pushed.code).not.toBe(0);
      expect(pushed.stderr).toContain('pack exceeds maximum allowed size');
      expect((await small.host.git.readRefs(key, ['refs/heads/main'])).get('refs/heads/main')).toBe(before);
    } finally {
      await small.cleanup();
    }
  });

  it('clones and fetches over protocol v0 too', async () => {
    const dir = path.join(scratch, 'v0');
    const v0 = ['-c', 'protocol.version=0'];
    const cloned = await git([...v0, 'clone', repoUrl('demo'), dir], scratch, { GIT_TRACE_PACKET: '1' });
    expect(cloned.code, cloned.stderr).toBe(0);
    expect(cloned.stderr).not.toContain('version 2');
    expect((await gitOk(['rev-parse', 'HEAD'], dir)).trim()).toBe(await head('demo'));
    expect((await gitOk(['cat-file', '-t', 'v1'], dir)).trim()).toBe('tag');
    // Local commits the server does not know: the client sends them as haves first, over several rounds.
    for (let i = 0; i < 40; i++) await gitOk(['commit', '-q', '--allow-empty', '-m', `local ${i}`], dir);
    const access = await f.host.repos.resolve(userActor(alice), 'alice', 'demo');
    await f.host.contents.createFile(userActor(alice), access, 'v0.txt', { content: Buffer.from('v0\n').toString('base64'), message: 'Over v0' });
    const fetched = await git([...v0, 'fetch', 'origin'], dir, { GIT_TRACE_PACKET: '1' });
    expect(fetched.code, fetched.stderr).toBe(0);
    // Rounds of haves: unknown ones answered with NAK until a common commit is acknowledged.
    expect(fetched.stderr).toMatch(/fetch-pack< NAK/);
    expect(fetched.stderr).toMatch(/fetch-pack< ACK [0-9a-f]{40}/);
    expect((await gitOk(['log', '--format=%s', '-1', 'origin/main'], dir)).trim()).toBe('Over v0');
    await gitOk(['fsck', '--strict'], dir);
  });
});
