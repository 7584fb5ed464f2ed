/**
 * `repohost web --workers N` (the built binary): N worker processes behind one port, started after the primary
 * opened the installation; which worker answered is observed from outside (the kernel's socket tables), so the
 * server exposes nothing new for it. Writes from many clients at once spread over the workers (on SQLite: several
 * processes on one file) all land, counters agree, nothing answers 500 and a cheap read stays quick meanwhile; a
 * killed worker is replaced while the port keeps answering; workers that keep dying make the primary give up;
 * SIGTERM stops everything. Every process a test starts is killed in afterEach, whatever happened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '@repohost/cli';
import { useCliWorkspace } from './cli-workspace.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = path.join(root, 'packages', 'cli', 'dist', 'main.js');
const WORKER_ENV = 'REPOHOST_WEB_WORKER';
const linux = process.platform === 'linux';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');

/** Child processes of `pid` (its workers), from the process table. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so split after the last ')'.
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) === pid && state !== 'Z') children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children.sort((a, b) => a - b);
}

/** Every process on the machine started as a worker for `workPath`: what must not outlive a test. */
function workersOf(workPath: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      const spec = environ.find((line) => line.startsWith(`${WORKER_ENV}=`));
      if (spec?.includes(JSON.stringify(workPath).slice(1, -1)) && alive(Number(entry))) found.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** The process holding the server side of the TCP connection from local port `clientPort` to `serverPort`. */
function serverOf(serverPort: number, clientPort: number, candidates: number[]): number | undefined {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  let inode: string | undefined;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      if (fields[1]!.endsWith(`:${hex(serverPort)}`) && fields[2]!.endsWith(`:${hex(clientPort)}`)) inode = fields[9];
    }
  }
  if (!inode || inode === '0') return undefined;
  for (const pid of candidates) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return pid;
      }
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

interface Answer {
  status: number;
  body: string;
  ms: number;
  clientPort: number;
}

/** One HTTP request; `agent` false means a connection of its own. Resolves with status 0 on a transport error. */
function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: unknown; agent?: http.Agent | false; timeoutMs?: number } = {}): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = http.request(
      url,
      {
        method: options.method ?? 'GET',
        agent: options.agent ?? false,
        timeout: options.timeoutMs ?? 30_000,
        headers: { ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        const clientPort = res.socket.localPort ?? 0;
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), ms: performance.now() - started, clientPort }));
        res.on('error', () => resolve({ status: 0, body: '', ms: performance.now() - started, clientPort }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => resolve({ status: 0, body: error.message, ms: performance.now() - started, clientPort: 0 }));
    req.end(body);
  });
}

/** A started `repohost web --workers N`. */
interface Cluster {
  child: ChildProcess;
  pid: number;
  url: string;
  port: number;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

describe.runIf(linux)('repohost web --workers', () => {
  const ws = useCliWorkspace('repohost-web-workers-');
  const started: Cluster[] = [];
  let occupied: Server | undefined;

  beforeAll(async () => {
    const { ensureBuilt } = (await import(path.join(root, 'scripts', 'build-if-stale.mjs'))) as { ensureBuilt(): Promise<void> };
    await ensureBuilt();
  }, 600_000);

  afterEach(async () => {
    occupied?.close();
    occupied = undefined;
    // Whatever a test left: the primaries, then any worker of this work path (a worker outliving its primary would
    // be a bug the assertions below look for; here it is only cleaned up).
    for (const cluster of started.splice(0)) {
      if (cluster.child.exitCode === null && cluster.child.signalCode === null) cluster.child.kill('SIGKILL');
      await cluster.exited;
    }
    for (const pid of workersOf(ws.work)) process.kill(pid, 'SIGKILL');
    await waitFor('the workers to go', () => (workersOf(ws.work).length === 0 ? true : undefined), 10_000);
  });

  /** Starts the built binary with `args` and waits for its "listening on" line (or its exit). */
  async function startCluster(args: string[], env: Record<string, string> = {}): Promise<Cluster> {
    const child = spawn(process.execPath, [CLI, 'web', '--work-path', ws.work, '--port', '0', '--pid', path.join(ws.work, 'web.pid'), ...args], {
      cwd: ws.work,
      env: { ...process.env, ...ws.env, FORGEJO__SERVER__HTTP_ADDR: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const cluster: Cluster = { child, pid: child.pid!, url: '', port: 0, stdout: () => out, stderr: () => err, exited };
    started.push(cluster);
    const url = await waitFor(
      'the listening line',
      () => {
        const match = /RepoHost listening on (http:\/\/\S+)/.exec(out)?.[1];
        if (match) return match;
        if (child.exitCode !== null) return '';
        return undefined;
      },
      90_000,
    );
    cluster.url = url;
    cluster.port = url ? Number(new URL(url).port) : 0;
    return cluster;
  }

  /** Creates users with tokens (before the server starts, as an administrator would); returns their tokens. */
  async function users(names: string[]): Promise<Record<string, string>> {
    const tokens: Record<string, string> = {};
    for (const name of names) {
      const r = await ws.cli(['admin', 'user', 'create', '--username', name, '--email', `${name}@example.com`, '--password', 'a-long-password-1', '--must-change-password=false', '--access-token']);
      expect(r.code, r.err).toBe(0);
      tokens[name] = /Access token was successfully created\.\.\. (\S+)/.exec(r.out)![1]!;
    }
    return tokens;
  }

  it('serves one port from two worker processes, both answering, and SIGTERM stops them all', async () => {
    const cluster = await startCluster(['--workers', '2']);
    expect(cluster.url, cluster.stderr()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(cluster.stdout()).toBe(`RepoHost listening on ${cluster.url} (ROOT_URL http://localhost:${cluster.port}/, database ${ws.env.FORGEJO__DATABASE__DB_TYPE ?? 'sqlite3'}, 2 workers)\n`);
    expect(readFileSync(path.join(ws.work, 'web.pid'), 'utf8')).toBe(`${cluster.pid}\n`);
    const workers = childrenOf(cluster.pid);
    expect(workers).toHaveLength(2);
    expect(workers).not.toContain(cluster.pid);
    expect(workersOf(ws.work).sort((a, b) => a - b)).toEqual(workers);

    // Connections held open at once: each is served by the worker it was handed to.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const servedBy = new Set<number>();
    for (let round = 0; round < 3 && servedBy.size < 2; round++) {
      const answers = await Promise.all(Array.from({ length: 16 }, () => request(`${cluster.url}api/v1/version`, { agent })));
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body)).toHaveProperty('version');
        const pid = serverOf(cluster.port, answer.clientPort, workers);
        if (pid !== undefined) servedBy.add(pid);
      }
    }
    agent.destroy();
    expect([...servedBy].sort((a, b) => a - b)).toEqual(workers);

    cluster.child.kill('SIGTERM');
    expect(await cluster.exited).toEqual({ code: 0, signal: null });
    expect(cluster.stderr()).not.toMatch(/Error|exited/);
    expect(existsSync(path.join(ws.work, 'web.pid'))).toBe(false);
    for (const pid of workers) expect(alive(pid)).toBe(false);
    expect(workersOf(ws.work)).toEqual([]);
    expect((await request(`${cluster.url}api/v1/version`, { timeoutMs: 5000 })).status).toBe(0);
  }, 180_000);

  it('workers whose primary is killed stop on their own: none is left behind', async () => {
    const cluster = await startCluster(['--workers', '2']);
    expect(cluster.url, cluster.stderr()).not.toBe('');
    const workers = childrenOf(cluster.pid);
    expect(workers).toHaveLength(2);
    cluster.child.kill('SIGKILL');
    expect(await cluster.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await waitFor('the orphaned workers to stop', () => (workers.every((pid) => !alive(pid)) ? true : undefined), 30_000);
    expect(workersOf(ws.work)).toEqual([]);
    expect((await request(`${cluster.url}api/v1/version`, { timeoutMs: 5000 })).status).toBe(0);
  }, 120_000);

  it('takes a burst of concurrent writes from many clients: all land, counters agree, no 500, reads stay quick', async () => {
    const names = ['ann', 'ben', 'cat', 'dan', 'eve', 'fay'];
    const tokens = await users(names);
    const cluster = await startCluster(['--workers', '2']);
    expect(cluster.url, cluster.stderr()).not.toBe('');
    const api = `${cluster.url}api/v1`;
    const as = (name: string) => ({ authorization: `token ${tokens[name]}` });
    const repo = await request(`${api}/user/repos`, { method: 'POST', headers: as('ann'), body: { name: 'burst' } });
    expect(repo.status, repo.body).toBe(201);
    const first = await request(`${api}/repos/ann/burst/issues`, { method: 'POST', headers: as('ann'), body: { title: 'the first' } });
    expect(first.status, first.body).toBe(201);

    // A cheap read, probed all along the burst on connections of its own.
    let probing = true;
    const probeLatencies: number[] = [];
    const probeStatuses: number[] = [];
    const probe = (async () => {
      while (probing) {
        const answer = await request(`${api}/version`);
        probeLatencies.push(answer.ms);
        probeStatuses.push(answer.status);
        await sleep(10);
      }
    })();

    const issuesEach = 6;
    const commentsEach = 6;
    const statuses: { what: string; status: number; body: string }[] = [];
    const agent = new http.Agent({ keepAlive: true, maxSockets: 24 });
    const record = async (what: string, call: Promise<Answer>) => {
      const answer = await call;
      statuses.push({ what, status: answer.status, body: answer.status >= 300 ? answer.body : '' });
    };
    await Promise.all(
      names.map(async (name) => {
        const work: Promise<void>[] = [];
        for (let i = 0; i < issuesEach; i++) work.push(record('issue', request(`${api}/repos/ann/burst/issues`, { method: 'POST', agent, headers: as(name), body: { title: `${name} ${i}`, body: `from ${name}` } })));
        for (let i = 0; i < commentsEach; i++) work.push(record('comment', request(`${api}/repos/ann/burst/issues/1/comments`, { method: 'POST', agent, headers: as(name), body: { body: `${name} says ${i}` } })));
        work.push(record('star', request(`${api}/user/starred/ann/burst`, { method: 'PUT', agent, headers: as(name) })));
        await Promise.all(work);
      }),
    );
    probing = false;
    await probe;
    agent.destroy();

    expect(statuses.filter((s) => !(s.what === 'star' ? s.status === 204 : s.status === 201))).toEqual([]);
    expect(statuses).toHaveLength(names.length * (issuesEach + commentsEach + 1));
    const issues = JSON.parse((await request(`${api}/repos/ann/burst/issues?state=all&limit=50`)).body) as { number: number }[];
    expect(issues.map((i) => i.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 1 + names.length * issuesEach }, (_, i) => i + 1));
    const repoAfter = JSON.parse((await request(`${api}/repos/ann/burst`)).body) as { open_issues_count: number; stars_count: number };
    expect(repoAfter.open_issues_count).toBe(1 + names.length * issuesEach);
    expect(repoAfter.stars_count).toBe(names.length);
    const issueOne = JSON.parse((await request(`${api}/repos/ann/burst/issues/1`)).body) as { comments: number };
    expect(issueOne.comments).toBe(names.length * commentsEach);
    const comments = JSON.parse((await request(`${api}/repos/ann/burst/issues/1/comments`)).body) as unknown[];
    expect(comments).toHaveLength(names.length * commentsEach);

    expect(probeStatuses.length).toBeGreaterThan(0);
    expect(probeStatuses.filter((s) => s !== 200)).toEqual([]);
    // Generous (a loaded 2-core machine), but well under the 5 s a write waiting on SQLite's own busy handler
    // held its worker's event loop for.
    expect(Math.max(...probeLatencies)).toBeLessThan(4000);
    expect(cluster.stderr()).not.toMatch(/internal error|exited/);
  }, 240_000);

  it('answers /metrics with the whole cluster\'s numbers, whichever worker the scrape reaches', async () => {
    const cluster = await startCluster(['--workers', '2'], { FORGEJO__METRICS__ENABLED: 'true' });
    expect(cluster.url, cluster.stderr()).not.toBe('');
    const workers = childrenOf(cluster.pid);
    // Each on a connection of its own: the primary hands them to the workers in turn.
    const requests = 20;
    for (let i = 0; i < requests; i++) expect((await request(`${cluster.url}api/v1/version`)).status).toBe(200);
    const versionCount = (body: string) => Number(/^repohost_http_requests_total\{[^}]*route="\/api\/v1\/version"[^}]*status="200"[^}]*\} (\d+)$/m.exec(body)?.[1] ?? NaN);

    // Scrapes on connections held open at once reach both workers; each answers with the cluster's total.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const scrapes = await waitFor('every scrape to count every request', async () => {
      const answers = await Promise.all(Array.from({ length: 8 }, () => request(`${cluster.url}metrics`, { agent })));
      return answers.every((a) => a.status === 200 && versionCount(a.body) === requests) ? answers : undefined;
    }, 30_000);
    const reached = new Set(scrapes.map((a) => serverOf(cluster.port, a.clientPort, workers)));
    agent.destroy();
    expect([...reached].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(workers);
    for (const scrape of scrapes) {
      // The installation's gauges once (not summed over the workers); the per-process ones summed.
      expect(scrape.body.match(/^gitea_build_info\{/gm)).toHaveLength(1);
      expect(scrape.body).toMatch(/^gitea_users 0$/m);
      expect(scrape.body).toMatch(/^repohost_git_processes_started_total \d+$/m);
    }
    cluster.child.kill('SIGTERM');
    expect(await cluster.exited).toEqual({ code: 0, signal: null });
  }, 180_000);

  it('replaces a worker killed with SIGKILL while the port keeps answering', async () => {
    const cluster = await startCluster(['--workers', '2']);
    expect(cluster.url, cluster.stderr()).not.toBe('');
    const before = childrenOf(cluster.pid);
    expect(before).toHaveLength(2);
    const victim = before[0]!;

    // Sequential requests, each on a connection of its own, from before the kill until the replacement serves.
    let probing = true;
    const answers: number[] = [];
    const probe = (async () => {
      while (probing) {
        answers.push((await request(`${cluster.url}api/v1/version`, { timeoutMs: 5000 })).status);
        await sleep(5);
      }
    })();
    await sleep(200);
    const beforeKill = answers.length;
    process.kill(victim, 'SIGKILL');
    const after = await waitFor('a replacement worker', () => {
      const now = childrenOf(cluster.pid);
      return now.length === 2 && !now.includes(victim) ? now : undefined;
    });
    const replacement = after.find((pid) => pid !== before[1])!;
    // Until the replacement has answered some of them (it listens once started), and 30 answers came after the kill.
    await waitFor('the replacement to answer', async () => {
      // New connections each time: held open at once, so each is served by the worker it was handed to.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
      const answers = await Promise.all(Array.from({ length: 8 }, () => request(`${cluster.url}api/v1/version`, { agent })));
      const served = answers.some((a) => a.status === 200 && serverOf(cluster.port, a.clientPort, after) === replacement);
      agent.destroy();
      return served ? true : undefined;
    });
    await waitFor('30 answers after the kill', () => (answers.length - beforeKill >= 30 ? true : undefined));
    probing = false;
    await probe;

    expect(after).toContain(before[1]);
    expect(cluster.stderr()).toContain(`worker ${victim} exited (killed by SIGKILL); starting another in 250 ms`);
    // At most the request the worker was serving when killed, and the one connection the primary handed to it before
    // it saw it die (node:cluster does not hand that one to another), are lost; every other request answered.
    expect(answers.filter((s) => s !== 200).length).toBeLessThanOrEqual(2);
    expect(answers.slice(-10)).toEqual(Array(10).fill(200));
    expect(cluster.child.exitCode).toBe(null);

    cluster.child.kill('SIGTERM');
    expect(await cluster.exited).toEqual({ code: 0, signal: null });
    expect(workersOf(ws.work)).toEqual([]);
  }, 180_000);

  it('gives up, stops and exits 1 when workers keep dying', async () => {
    const cluster = await startCluster(['--workers', '2']);
    expect(cluster.url, cluster.stderr()).not.toBe('');
    const killed = new Set<number>();
    // Kill every worker as soon as it appears, until the primary gives up.
    while (cluster.child.exitCode === null) {
      for (const pid of childrenOf(cluster.pid)) {
        if (killed.has(pid)) continue;
        killed.add(pid);
        process.kill(pid, 'SIGKILL');
      }
      await sleep(20);
    }
    expect(await cluster.exited).toEqual({ code: 1, signal: null });
    expect(cluster.stderr()).toMatch(/Error: workers exited 6 times within 60 s \(the last: killed by SIGKILL\); not starting them again: see the errors above\. Stopping\.\n$/);
    expect(killed.size).toBeGreaterThanOrEqual(6);
    expect(existsSync(path.join(ws.work, 'web.pid'))).toBe(false);
    expect(workersOf(ws.work)).toEqual([]);
  }, 180_000);

  it('on a port already in use: the one line naming the setting, exit 1, no worker left', async () => {
    occupied = createServer();
    await new Promise<void>((resolve) => occupied!.listen(0, '127.0.0.1', resolve));
    const port = (occupied.address() as AddressInfo).port;
    const child = spawn(process.execPath, [CLI, 'web', '--work-path', ws.work, '--workers', '2', '--port', String(port)], {
      cwd: ws.work,
      env: { ...process.env, ...ws.env, FORGEJO__SERVER__HTTP_ADDR: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    started.push({ child, pid: child.pid!, url: '', port: 0, stdout: () => out, stderr: () => err, exited });
    expect(await exited).toEqual({ code: 1, signal: null });
    expect(out).toBe('');
    const lines = err.split('\n').filter((line) => line !== '' && !line.startsWith('Generated [security] SECRET_KEY'));
    expect(lines).toEqual([`Error: cannot listen on port ${port} of 127.0.0.1: it is already in use (is another server running?); choose another with [server] HTTP_PORT in app.ini, or --port`]);
    expect(workersOf(ws.work)).toEqual([]);
  }, 120_000);

  it('refuses a --workers that is not a count, and [server] WORKERS out of range', async () => {
    const notCount = await ws.cli(['web', '--workers', 'two']);
    expect(notCount.code).toBe(1);
    expect(notCount.err).toContain('Error: --workers must be a number of processes (0: one per CPU)');
    const negative = await ws.cli(['web', '--workers=-1']);
    expect(negative.code).toBe(1);
    expect(negative.err).toContain('Error: --workers must be a number of processes (0: one per CPU)');
    const tooMany = await ws.cli(['web', '--workers', '65']);
    expect(tooMany).toEqual({ code: 1, out: '', err: 'Error: [server] WORKERS: must be 0 (one per CPU) to 64\n' });
    // Storage in one process's memory cannot be shared by several.
    for (const [key, value, named] of [
      ['FORGEJO__REPOSITORY__BACKEND', 'memory', '[repository] BACKEND = memory'],
      ['FORGEJO__DATABASE__PATH', ':memory:', '[database] PATH = :memory:'],
    ] as const) {
      if (key === 'FORGEJO__DATABASE__PATH' && ws.env.FORGEJO__DATABASE__DB_TYPE === 'postgres') continue;
      const err: string[] = [];
      const code = await runCli(['web', '--workers', '2'], { stdout: () => undefined, stderr: (t) => err.push(t), env: { ...ws.env, [key]: value }, cwd: ws.work });
      expect(code).toBe(1);
      expect(err.join('')).toContain(`Error: --workers (or [server] WORKERS) needs storage the processes share, and ${named} keeps it in one process's memory`);
    }
    // Nothing was opened: no key file, no database.
    expect(existsSync(path.join(ws.work, 'data'))).toBe(false);
  });
});
