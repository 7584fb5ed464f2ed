/**
 * Workers benchmark (run by `npm run bench`; imports the BUILT packages): `repohost web --workers 1` against
 * `--workers 2` on one installation (SQLite on disk, WAL), each a fresh child process of the built binary, for
 *  - GET /api/v1/repos/{owner}/{repo} (anonymous, public repository),
 *  - GET /api/v1/repos/{owner}/{repo}/issues?state=all&limit=50 (a page of 50 issues, each with two labels, a
 *    milestone and an assignee, out of BENCH_WORKERS_ISSUES),
 *  - git clones of a small repository by 32 parallel `git clone` clients in a closed loop,
 * with req/s (or clones/s) and p50/p99 per worker count and the ratio of 2 to 1, and beside each figure the CPU
 * cores the server's processes used and how busy the machine was (Linux's /proc): the load generator and the git
 * clients take their share of the same cores, and on a shared machine so does everything else. The counts run in the order
 * 1, 2, 2, 1 (each figure is the mean of its two runs), so a machine whose speed drifts during the bench does not
 * favour either. Load comes from wrk (Debian's package, one thread) when it is on PATH, else (or with
 * BENCH_LOADGEN=node) from bench/loadgen.mjs, in its own process (32 keep-alive connections): wrk costs the shared
 * cores far less than a Node.js load generator, which on 2 cores is most of the difference. Clones come from
 * bench/git-client.mjs. On a 2-core machine the load generator and the git clients share the cores with the server,
 * so the ratio says what a second process adds on the same machine, not what a second machine would. Numbers are
 * reported, not asserted.
 *
 *   node bench/workers.mjs
 *
 * Knobs (environment): BENCH_WORKERS_ISSUES (500), BENCH_WORKERS_COUNTS ("1,2"), BENCH_WORKERS_ROUNDS (1), BENCH_CONNECTIONS (32),
 * BENCH_WARMUP_MS (1000), BENCH_DURATION_MS (5000), BENCH_CLONE_CLIENTS (32), BENCH_CLONE_MS (10000).
 */
import { fork, spawn } from 'node:child_process';
import { accessSync, constants, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RepoHost, SYSTEM, loadSettings, userActor } from '@repohost/core';
import { startServer } from '@repohost/server';
import { cloneLoad, gitEnv, mustGit } from './git-client.mjs';
import { createBenchIssues } from './issues.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const LOADGEN = path.join(here, 'loadgen.mjs');
const REPOHOST_BIN = path.join(here, '..', 'packages', 'cli', 'dist', 'main.js');

const ISSUES = Number(process.env.BENCH_WORKERS_ISSUES ?? 500);
const COUNTS = (process.env.BENCH_WORKERS_COUNTS ?? '1,2').split(',').map(Number);
/** Times the order 1, 2, 2, 1 is run. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_WORKERS_ROUNDS ?? 1));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const CLONE_CLIENTS = Number(process.env.BENCH_CLONE_CLIENTS ?? 32);
const CLONE_WARMUP_MS = 1000;
const CLONE_MS = Number(process.env.BENCH_CLONE_MS ?? 10_000);
const GIT_TIMEOUT_MS = 30_000;

const log = (line = '') => process.stdout.write(`${line}\n`);
/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS = 100;

/** CPU seconds used so far by `pid` and its children (workers), their waited-for children (git) included; Linux only. */
function treeCpuSeconds(pid) {
  const read = (p) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After the command: state ppid … utime(12) stime(13) cutime(14) cstime(15), counted from `state` as 0.
      return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) };
    } catch {
      return undefined;
    }
  };
  let ticks = read(pid)?.ticks ?? Number.NaN;
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const child = read(entry);
      if (child?.ppid === pid) ticks += child.ticks;
    }
  } catch {
    return Number.NaN;
  }
  return ticks / TICKS;
}

/** The machine's busy and total CPU seconds so far (all cores), from /proc/stat; NaN elsewhere. */
function machineCpuSeconds() {
  try {
    const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const total = values.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = values[3] + values[4];
    return { busy: (total - idle) / TICKS, total: total / TICKS };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}

/**
 * Runs `work` and adds to its result the CPU cores the server used meanwhile (`serverCores`) and how busy the whole
 * machine was (`machineBusy`, 0-1): on a shared machine, what else ran shows there.
 */
async function withCpu(pid, work) {
  const started = performance.now();
  const server = treeCpuSeconds(pid);
  const machine = machineCpuSeconds();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const machineAfter = machineCpuSeconds();
  return { ...result, serverCores: (treeCpuSeconds(pid) - server) / seconds, machineBusy: (machineAfter.busy - machine.busy) / (machineAfter.total - machine.total) };
}
const progress = (line) => process.stderr.write(`  … ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const fixed = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** wrk (Debian's package) when it is on PATH and BENCH_LOADGEN is not 'node': a load generator in C. */
const WRK = process.env.BENCH_LOADGEN === 'node' ? undefined : findOnPath('wrk');

function findOnPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    try {
      const file = path.join(dir, name);
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** One `wrk` run: its output, or a rejection when it fails. */
function runWrk(url, seconds) {
  return new Promise((resolve, reject) => {
    const child = spawn(WRK, ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', '--timeout', '10s', url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`wrk exited with ${code}: ${out}`));
    });
  });
}

/** Milliseconds of a wrk duration such as 635.00us, 2.05ms or 1.10s. */
function wrkMs(text) {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return { us: value / 1000, ms: value, s: value * 1000, m: value * 60_000 }[match[2]];
}

/**
 * req/s and latencies of GET `url` by wrk (one thread, CONNECTIONS keep-alive connections): a warm-up run, then the
 * measured one. Errors are non-2xx answers plus socket errors (timeouts included).
 */
async function measureWrk(url) {
  await runWrk(url, Math.max(1, Math.round(WARMUP_MS / 1000)));
  const out = await runWrk(url, Math.max(1, Math.round(DURATION_MS / 1000)));
  const figure = (regex) => regex.exec(out)?.[1];
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: Number(figure(/Requests\/sec:\s+([\d.]+)/)),
    p50Ms: wrkMs(figure(/^\s+50%\s+(\S+)$/m) ?? ''),
    p99Ms: wrkMs(figure(/^\s+99%\s+(\S+)$/m) ?? ''),
    errors: Number(figure(/Non-2xx or 3xx responses: (\d+)/) ?? 0) + (socketErrors ? socketErrors.slice(1).reduce((a, b) => a + Number(b), 0) : 0),
  };
}

/** req/s and latencies of GET `url`: by wrk when present, else by loadgen in a child process. */
function measure(url) {
  return WRK ? measureWrk(url) : measureNode(url);
}

/** req/s and latencies of GET `url`, measured by loadgen in a child process. */
function measureNode(url) {
  return new Promise((resolve, reject) => {
    const child = fork(LOADGEN, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`load generator for ${url} did not finish in time`));
    }, WARMUP_MS + DURATION_MS + 30_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      if (message.ok) resolve(message.result);
      else reject(new Error(`load generator failed: ${message.error}`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.send({ url, connections: CONNECTIONS, warmupMs: WARMUP_MS, durationMs: DURATION_MS });
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The built `repohost web --workers N` over `workPath` on a free loopback port, once it says it listens (with N > 1,
 * once every worker does). stop() sends SIGTERM and waits for the exit (SIGKILL after 15 s).
 */
async function spawnWorkers(workPath, workers) {
  const port = await freePort();
  const child = spawn(process.execPath, [REPOHOST_BIN, 'web', '--work-path', workPath, '--port', String(port), '--workers', String(workers)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORGEJO__SERVER__HTTP_ADDR: '127.0.0.1' },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => {
    if (err.length < 64 * 1024) err += c;
  });
  let exited = null;
  const gone = new Promise((resolve) => child.once('exit', (code, signal) => resolve((exited = { code, signal }))));
  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await gone;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 60_000;
  while (!out.includes('RepoHost listening on')) {
    if (exited) throw new Error(`repohost web --workers ${workers} exited early (${JSON.stringify(exited)}): ${err}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`repohost web --workers ${workers} did not start within 60 s: ${err}`);
    }
    await sleep(20);
  }
  return { base: `http://127.0.0.1:${port}/`, pid: child.pid, stop, stderr: () => err, alive: () => exited === null };
}

/** The bench user, a public repository with ISSUES issues (two labels, a milestone, an assignee each) and a few commits. */
async function populate(workPath, gitHome) {
  const settings = loadSettings({ workPath, overrides: { server: { HTTP_ADDR: '127.0.0.1', HTTP_PORT: 0 } } });
  const host = await RepoHost.open({ settings, noSecretKey: 'generate' });
  const running = await startServer(host, { hostname: '127.0.0.1', port: 0 });
  try {
    const user = await host.users.create(SYSTEM, { username: 'bench', email: 'bench@example.com', password: 'bench-password-123', admin: false });
    const actor = userActor(user);
    const access = await host.repos.create(actor, { name: 'hello', auto_init: true, issue_labels: 'Default' });
    const started = performance.now();
    await createBenchIssues(host, actor, access, ISSUES);
    progress(`${ISSUES} issues created in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // A few commits of sources and docs, so a clone transfers a real (if small) pack.
    const { value: token } = await host.tokens.create(SYSTEM, user, { name: 'bench-write', scopes: ['write:repository'] });
    const dir = await mkdtemp(path.join(tmpdir(), 'repohost-bench-workers-seed-'));
    try {
      const env = gitEnv(gitHome, token);
      await mustGit(['clone', '--quiet', `${running.url}bench/hello.git`, dir], { env, timeoutMs: GIT_TIMEOUT_MS });
      for (let c = 0; c < 3; c++) {
        await mkdir(path.join(dir, 'src'), { recursive: true });
        for (let f = 0; f < 5; f++) {
          const lines = Array.from({ length: 80 }, (_, i) => `export const value${c}_${f}_${i} = 'line ${i} of file ${f}, commit ${c}';`);
          await writeFile(path.join(dir, 'src', `file${f}.js`), `${lines.join('\n')}\n`);
        }
        await mustGit(['-C', dir, 'add', '--all'], { env });
        await mustGit(['-C', dir, 'commit', '--quiet', '-m', `Commit ${c}`], { env });
      }
      await mustGit(['-C', dir, 'push', '--quiet', 'origin', 'HEAD'], { env, timeoutMs: GIT_TIMEOUT_MS });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  } finally {
    await running.close();
    await host.close();
  }
}

async function main() {
  const workPath = await mkdtemp(path.join(tmpdir(), 'repohost-bench-workers-'));
  const gitHome = await mkdtemp(path.join(tmpdir(), 'repohost-bench-workers-git-home-'));
  try {
    log(`Workers benchmark — node ${process.version}, ${cpus().length} CPU(s), load average before ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
    log(`load generator: ${WRK ? `${WRK} (one thread)` : 'bench/loadgen.mjs (Node.js)'}; data: SQLite on disk (WAL); ${CONNECTIONS} keep-alive connections, ${WARMUP_MS / 1000} s warm-up + ${DURATION_MS / 1000} s measured; ${CLONE_CLIENTS} parallel git clones for ${CLONE_MS / 1000} s`);
    progress(`setting up ${ISSUES} issues and a small repository …`);
    await populate(workPath, gitHome);

    const cases = [
      { label: 'GET /repos/{owner}/{repo}', path: 'api/v1/repos/bench/hello' },
      { label: 'GET /repos/{owner}/{repo}/issues?limit=50', path: 'api/v1/repos/bench/hello/issues?state=all&limit=50' },
    ];
    /** Every run's figures by case and worker count: two runs each per round, in the order 1, 2, 2, 1. */
    const runs = new Map();
    const add = (key, value) => runs.set(key, [...(runs.get(key) ?? []), value]);
    const order = Array.from({ length: ROUNDS }, () => [...COUNTS, ...[...COUNTS].reverse()]).flat();
    for (const workers of order) {
      progress(`repohost web --workers ${workers} …`);
      const server = await spawnWorkers(workPath, workers);
      try {
        for (const c of cases) {
          const probe = await fetch(`${server.base}${c.path}`);
          if (probe.status !== 200) throw new Error(`${c.label} answered ${probe.status}: ${(await probe.text()).slice(0, 200)}`);
          await probe.arrayBuffer().catch(() => undefined);
          progress(`  ${c.label} …`);
          add(`${c.label} ${workers}`, await withCpu(server.pid, () => measure(`${server.base}${c.path}`)));
        }
        progress(`  ${CLONE_CLIENTS} parallel clones …`);
        const clones = await withCpu(server.pid, () => cloneLoad({
          url: `${server.base}bench/hello.git`,
          clients: CLONE_CLIENTS,
          warmupMs: CLONE_WARMUP_MS,
          durationMs: CLONE_MS,
          maxClones: 20_000,
          timeoutMs: GIT_TIMEOUT_MS,
          home: gitHome,
        }));
        add(`clones ${workers}`, clones);
        if (!server.alive()) throw new Error(`the server exited during the load: ${server.stderr()}`);
      } finally {
        await server.stop();
      }
    }

    // The mean of a case's runs, figure by figure; failures added up.
    const mean = (key) => {
      const all = runs.get(key);
      const avg = (field) => all.reduce((sum, r) => sum + r[field], 0) / all.length;
      const total = (field) => all.reduce((sum, r) => sum + (r[field] ?? 0), 0);
      return {
        rps: avg('rps'),
        clonesPerSecond: avg('clonesPerSecond'),
        p50Ms: avg('p50Ms'),
        p99Ms: avg('p99Ms'),
        serverCores: avg('serverCores'),
        machineBusy: avg('machineBusy'),
        errors: total('errors'),
        failed: total('failedInWindow') + total('failedOutside'),
        failures: all.flatMap((r) => r.failures ?? []),
        each: all,
      };
    };
    const results = new Map([...runs.keys()].map((key) => [key, mean(key)]));
    log();
    const widths = [46, 9, 19, 9, 9, 9, 13, 13];
    const row = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
    log(row(['', 'workers', 'req/s (each run)', 'p50 ms', 'p99 ms', 'errors', 'server cores', 'machine busy']));
    const cpu = (r) => [fixed(r.serverCores, 2), `${fixed(r.machineBusy * 100, 0)} %`];
    for (const c of cases) {
      for (const workers of COUNTS) {
        const r = results.get(`${c.label} ${workers}`);
        log(row([c.label, workers, `${fixed(r.rps, 0)} (${r.each.map((e) => fixed(e.rps, 0)).join('/')})`, fixed(r.p50Ms), fixed(r.p99Ms), r.errors, ...cpu(r)]));
      }
    }
    for (const workers of COUNTS) {
      const r = results.get(`clones ${workers}`);
      log(row([`${CLONE_CLIENTS} parallel git clones (clones/s)`, workers, `${fixed(r.clonesPerSecond)} (${r.each.map((e) => fixed(e.clonesPerSecond)).join('/')})`, fixed(r.p50Ms, 0), fixed(r.p99Ms, 0), r.failed, ...cpu(r)]));
      for (const f of r.failures) log(`  clone failures (${workers} workers): ${f.count}× ${f.reason}: ${f.first}`);
    }
    if (COUNTS.includes(1) && COUNTS.includes(2)) {
      log();
      // Per server core: what each core the server used gave; equal figures mean the second process scales and only
      // the cores the machine had to spare (after the load generator) limit the total.
      const perCore = (r, rate) => rate / r.serverCores;
      for (const c of cases) {
        const one = results.get(`${c.label} 1`);
        const two = results.get(`${c.label} 2`);
        log(`${c.label}: 2 workers ${fixed(two.rps / one.rps, 2)}× 1 worker; req/s per server core ${fixed(perCore(one, one.rps), 0)} and ${fixed(perCore(two, two.rps), 0)}`);
      }
      log(`${CLONE_CLIENTS} parallel git clones: 2 workers ${fixed(results.get('clones 2').clonesPerSecond / results.get('clones 1').clonesPerSecond, 2)}× 1 worker`);
    }
    log(`load average after ${loadavg().map((n) => n.toFixed(2)).join(' ')} (other processes on the machine count against both runs)`);
  } finally {
    await rm(workPath, { recursive: true, force: true });
    await rm(gitHome, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error('bench crashed:', error);
  process.exitCode = 1;
});
