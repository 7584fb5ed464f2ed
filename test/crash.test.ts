/**
 * kill -9 of the built server in the middle of work, then a restart: the database and the disk must agree, every
 * repository must pass `git fsck`, no git process may outlive the server, and no name may stay blocked.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepoHost, SYSTEM, loadSettings } from '@repohost/core';
import { testDatabaseEnv } from '@repohost/test-support';
import { freePort, git, waitFor } from './support/cluster.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const CLI = path.join(root, 'packages', 'cli', 'dist', 'main.js');

/** Pids of live processes whose command line mentions `text` (our git processes all name the work path). */
async function processesMentioning(text: string): Promise<{ pid: number; cmd: string }[]> {
  const found: { pid: number; cmd: string }[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replace(/\0/g, ' ');
      const state = (await readFile(`/proc/${entry}/stat`, 'utf8')).split(') ')[1]?.[0];
      if (cmd.includes(text) && state !== 'Z') found.push({ pid: Number(entry), cmd });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Bytes read so far by the live processes unpacking a push inside `dir` (0 when there are none). */
async function bytesUnpacked(dir: string): Promise<number> {
  let total = 0;
  const unpackers = [...(await processesMentioning('index-pack')), ...(await processesMentioning('unpack-objects'))];
  for (const { pid } of unpackers) {
    try {
      if (!(await readlink(`/proc/${pid}/cwd`)).startsWith(dir)) continue;
      total += Number(/^rchar: (\d+)$/m.exec(await readFile(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

class ServerProcess {
  readonly stderr: string[] = [];
  private exited: Promise<void>;
  constructor(
    readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.stderr!.on('data', (c: Buffer) => this.stderr.push(c.toString()));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  async kill9(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    await this.exited;
  }
}

describe('crash consistency of the built server', () => {
  let workPath: string;
  let env: NodeJS.ProcessEnv;
  let cleanupDb: () => Promise<void>;
  let token: string;
  let running: ServerProcess | undefined;
  const reposDir = () => path.join(workPath, 'data', 'forgejo-repositories');

  async function start(): Promise<ServerProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, [CLI, 'web', '--quiet', '--work-path', workPath, '--port', String(port)], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const server = new ServerProcess(child, `http://127.0.0.1:${port}/`);
    await waitFor('the server to answer', async () => {
      if (child.exitCode !== null) throw new Error(`server exited: ${server.stderr.join('')}`);
      const ok = await fetch(`${server.url}api/v1/version`).then((r) => r.ok, () => false);
      return ok ? true : undefined;
    });
    running = server;
    return server;
  }

  const api = (server: ServerProcess, pathname: string, init: RequestInit = {}) =>
    fetch(`${server.url}api/v1${pathname}`, { ...init, headers: { authorization: `token ${token}`, 'content-type': 'application/json', ...init.headers } });

  /** What the database says alice owns, what the disk holds, and whether every repository is sound. */
  async function agreement(server: ServerProcess): Promise<{ rows: string[]; disk: string[]; unadopted: string[] }> {
    const rows: string[] = [];
    for (let page = 1; ; page++) {
      const list = (await (await api(server, `/user/repos?limit=50&page=${page}`)).json()) as { name: string }[];
      rows.push(...list.map((r) => r.name.toLowerCase()));
      if (list.length < 50) break;
    }
    const disk = (await readdir(path.join(reposDir(), 'alice')).catch(() => [] as string[])).filter((n) => n.endsWith('.git')).map((n) => n.slice(0, -4));
    for (const name of disk) {
      const fsck = await git(['--git-dir', path.join(reposDir(), 'alice', `${name}.git`), 'fsck', '--strict'], workPath);
      // Notices (an empty repository's unborn HEAD) are not problems; anything else is.
      const problems = fsck.stderr.split('\n').filter((line) => line && !line.startsWith('notice:'));
      expect({ name, code: fsck.code, problems }).toEqual({ name, code: 0, problems: [] });
    }
    const unadopted = (await (await api(server, '/admin/unadopted')).json()) as string[];
    return { rows: rows.sort(), disk: disk.sort(), unadopted };
  }

  beforeAll(async () => {
    // The test drives the built binary, as an operator runs it.
    const { ensureBuilt } = (await import(path.join(root, 'scripts', 'build-if-stale.mjs'))) as { ensureBuilt(): Promise<void> };
    await ensureBuilt();
    workPath = await mkdtemp(path.join(tmpdir(), 'repohost-crash-'));
    const db = await testDatabaseEnv();
    cleanupDb = db.cleanup;
    env = { PATH: process.env.PATH, HOME: workPath, ...db.env, FORGEJO__SERVER__HTTP_ADDR: '127.0.0.1' };
    // A new installation, as `repohost` would start it: the key file it makes is what the binary reads.
    const host = await RepoHost.open({ settings: loadSettings({ workPath, env }), noSecretKey: 'generate' });
    const alice = await host.users.create(SYSTEM, { username: 'alice', email: 'alice@example.com', password: 'a-good-password', admin: true });
    token = (await host.tokens.create(SYSTEM, alice, { name: 'crash', scopes: ['all'] })).value;
    await host.close();
  }, 180_000);

  afterAll(async () => {
    await running?.stop();
    await cleanupDb?.();
    if (workPath) await rm(workPath, { recursive: true, force: true });
  });

  it('a burst of creates killed midway leaves no storage without a row, nothing half-made, no name blocked', async () => {
    const server = await start();
    const names = Array.from({ length: 40 }, (_, i) => `burst${i}`);
    let answered = 0;
    const creates = names.map((name) =>
      api(server, '/user/repos', { method: 'POST', body: JSON.stringify({ name, auto_init: true }) }).then(
        (r) => {
          answered++;
          return r.status;
        },
        () => 'connection lost',
      ),
    );
    await waitFor('the first creates to finish', async () => (answered >= 3 ? true : undefined));
    await server.kill9();
    const outcomes = await Promise.all(creates);
    expect(outcomes.filter((o) => o === 'connection lost').length).toBeGreaterThan(0);
    // Git processes die with the server: none keeps writing into the repositories.
    await waitFor('git processes to die with the server', async () => ((await processesMentioning(reposDir())).length === 0 ? true : undefined), 5000);

    const restarted = await start();
    const { rows, disk, unadopted } = await agreement(restarted);
    expect(disk).toEqual(rows);
    expect(unadopted).toEqual([]);
    // Every name is usable: created again where no row holds it, 409 where one does.
    for (const name of names) {
      const status = (await api(restarted, '/user/repos', { method: 'POST', body: JSON.stringify({ name }) })).status;
      expect({ name, status }).toEqual({ name, status: rows.includes(name) ? 409 : 201 });
    }
    await restarted.stop();
  });

  it('a push killed midway is either recorded or not applied, and the next push records it', async () => {
    let server = await start();
    expect((await api(server, '/user/repos', { method: 'POST', body: JSON.stringify({ name: 'big' }) })).status).toBe(201);
    const local = await mkdtemp(path.join(tmpdir(), 'repohost-crash-local-'));
    try {
      await git(['init', '-q', '-b', 'main', local], local);
      // Incompressible, so the upload takes a while and the kill lands inside it.
      await writeFile(path.join(local, 'blob.bin'), randomBytes(48 << 20));
      await git(['add', '.'], local);
      await git(['-c', 'user.name=a', '-c', 'user.email=a@b.c', 'commit', '-qm', 'big'], local);
      const remote = `${server.url.replace('http://', `http://alice:${token}@`)}alice/big.git`;
      const refs = () => git(['--git-dir', path.join(reposDir(), 'alice', 'big.git'), 'for-each-ref', 'refs/heads/'], workPath);
      const push = git(['push', remote, 'main'], local);
      // The worst moment: the whole pack has arrived and git is still indexing it, so a receive-pack left
      // running would go on to update the refs of a push whose client was told it failed.
      await waitFor('the pack to arrive', async () => ((await bytesUnpacked(reposDir())) >= 48 << 20 ? true : undefined), 60_000);
      const refsAtCrash = (await refs()).stdout;
      await server.kill9();
      expect((await push).code).not.toBe(0);
      await waitFor('git processes to die with the server', async () => ((await processesMentioning(reposDir())).length === 0 && (await bytesUnpacked(reposDir())) === 0 ? true : undefined), 5000);
      await new Promise((r) => setTimeout(r, 300));
      const refsLater = (await refs()).stdout;
      expect(refsLater).toBe(refsAtCrash);

      server = await start();
      const { rows, disk } = await agreement(server);
      expect(disk).toEqual(rows);
      const repo = (await (await api(server, '/repos/alice/big')).json()) as { empty: boolean };
      expect(repo.empty).toBe(refsLater.trim() === '');

      const retry = await git(['push', `${server.url.replace('http://', `http://alice:${token}@`)}alice/big.git`, 'main'], local);
      expect(retry.code, retry.stderr).toBe(0);
      const after = (await (await api(server, '/repos/alice/big')).json()) as { empty: boolean; size: number };
      expect(after.empty).toBe(false);
      expect(after.size).toBeGreaterThan(40 << 10); // KiB, as Forgejo reports it
      await server.stop();
    } finally {
      await rm(local, { recursive: true, force: true });
    }
  });
});
