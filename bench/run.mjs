/**
 * RepoHost benchmark (`npm run bench`, which builds first; this file imports the BUILT packages).
 *
 * 1. Throughput and p99 latency of GET /api/v1/version, GET /api/v1/repos/{owner}/{repo} (public repository,
 *    anonymous, SQLite on disk), and the authenticated path (GET /api/v1/user and the same repository read with
 *    an access token), next to a bare node:http hello-world server measured the same way.
 * 2. Cold start: spawn a fresh `repohost web` (the built CLI binary) over a database holding 1,000 repositories
 *    and time until GET /api/v1/version first answers 200 (5 runs: median and max).
 * 3. Idle RSS (VmRSS) of that server process after start and a few requests.
 *
 * Load comes from bench/loadgen.mjs in its own process: N keep-alive connections in a closed loop, 1 s warm-up,
 * then a measured window. Everything runs on loopback and is bounded in time. Numbers are reported, not
 * asserted: the exit code is 0 unless something crashed.
 */
import { fork, spawn } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RepoHost, SYSTEM, loadSettings, userActor } from '@repohost/core';
import { startServer } from '@repohost/server';

const here = path.dirname(fileURLToPath(import.meta.url));
const LOADGEN = path.join(here, 'loadgen.mjs');
const REPOHOST_BIN = path.join(here, '..', 'packages', 'cli', 'dist', 'main.js');
const COLD_START_HELLO = path.join(here, 'cold-start-hello.mjs');

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const REPO_COUNT = Number(process.env.BENCH_REPOS ?? 1000);
const COLD_RUNS = 5;
const CREATE_CONCURRENCY = 8;

const TARGET_REPO_VS_HELLO = 40; // percent
const TARGET_COLD_START_MS = 500;
const TARGET_RSS_MB = 100;

const OWNER = 'bench';
const REPO = 'hello';

const t0 = performance.now();
const log = (line = '') => process.stdout.write(`${line}\n`);
const progress = (line) => process.stderr.write(`  … ${line}\n`);
const ms = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
const sleep = (n) => new Promise((resolve) => setTimeout(resolve, n));
const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const verdict = (ok) => (ok ? 'PASS' : 'MISS');

/** Runs one load job in a fresh loadgen child process and returns its figures. */
function measure(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const child = fork(LOADGEN, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settled = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      if (!settled) reject(new Error(`load generator for ${url} did not finish in time`));
      settled = true;
    }, WARMUP_MS + DURATION_MS + 20_000);
    child.once('message', (message) => {
      settled = true;
      clearTimeout(timer);
      if (message.ok) resolve(message.result);
      else reject(new Error(`load generator failed: ${message.error}`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      if (!settled) reject(error);
      settled = true;
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!settled) reject(new Error(`load generator exited with ${code} before reporting`));
      settled = true;
    });
    child.send({ url, connections: CONNECTIONS, warmupMs: WARMUP_MS, durationMs: DURATION_MS, headers });
  });
}

/** One GET; resolves with { status, body } or rejects on a transport error. */
function get(url, timeoutMs = 2000, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, timeout: timeoutMs, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/** A port that was free a moment ago on 127.0.0.1. */
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

async function startHelloWorld() {
  const body = JSON.stringify({ hello: 'world' });
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Creates the bench user, its public repository and `count` more (empty) repositories through the core API;
 * returns the setup time and an access token of the bench user.
 */
async function populate(host, count) {
  const user = await host.users.create(SYSTEM, {
    username: OWNER,
    email: `${OWNER}@example.com`,
    password: 'bench-password-123',
    admin: false,
  });
  const actor = userActor(user);
  await host.repos.create(actor, { name: REPO, description: 'benchmark subject', auto_init: true });
  let next = 0;
  let done = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await host.repos.create(actor, { name: `repo-${String(i).padStart(4, '0')}` });
      done += 1;
      if (done % 250 === 0) progress(`${done}/${count} repositories created (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  };
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
  const { value: token } = await host.tokens.create(SYSTEM, user, { name: 'bench', scopes: ['read:user', 'read:repository'] });
  return { setupMs: performance.now() - started, token };
}

/** Reads VmRSS of a process, in MiB. */
async function rssMiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) / 1024;
}

/**
 * Spawns a fresh server process (`script` with `args(port)`); resolves with the time from spawn to the first 200
 * from /api/v1/version and, when asked, its VmRSS after a few requests and a second of rest.
 */
async function coldStart(script, args, { repoHost }) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const stderr = [];
  const started = process.hrtime.bigint();
  const env = { ...process.env, FORGEJO__SERVER__HTTP_ADDR: '127.0.0.1' };
  const child = spawn(process.execPath, [script, ...args(port)], { stdio: ['ignore', 'ignore', 'pipe'], env });
  child.stderr.on('data', (c) => stderr.push(c));
  let exited = null;
  child.once('exit', (code, signal) => {
    exited = { code, signal };
  });
  const stop = async () => {
    if (exited) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await gone;
    clearTimeout(timer);
  };
  try {
    let elapsedMs;
    for (;;) {
      if (exited) throw new Error(`cold-start server exited early (${JSON.stringify(exited)}): ${Buffer.concat(stderr).toString()}`);
      if (Number(process.hrtime.bigint() - started) / 1e6 > 15_000) throw new Error('cold-start server did not answer within 15 s');
      try {
        const res = await get(`${base}/api/v1/version`, 1000);
        if (res.status === 200) {
          elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
          break;
        }
      } catch {
        // not listening yet
      }
      await sleep(2);
    }
    // A few ordinary requests, then let it settle before reading its resident set.
    for (let i = 0; i < 10; i++) {
      if (!repoHost) {
        await get(`${base}/api/v1/version`);
        continue;
      }
      const version = await get(`${base}/api/v1/version`);
      const repo = await get(`${base}/api/v1/repos/${OWNER}/${REPO}`);
      const list = await get(`${base}/api/v1/users/${OWNER}/repos?limit=50`);
      if (version.status !== 200 || repo.status !== 200 || list.status !== 200) {
        throw new Error(`unexpected statuses from the cold-start server: ${version.status} ${repo.status} ${list.status}`);
      }
    }
    await sleep(repoHost ? 1000 : 200);
    const rss = await rssMiB(child.pid);
    return { elapsedMs, rss };
  } finally {
    await stop();
  }
}

function row(cells, widths) {
  return cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
}

async function main() {
  const workPath = await mkdtemp(path.join(tmpdir(), 'repohost-bench-'));
  try {
    log(`RepoHost benchmark — node ${process.version}, ${process.platform}/${process.arch}, ${cpus().length} CPU(s) (${cpus()[0]?.model?.trim() ?? 'unknown'})`);
    log(`load: ${CONNECTIONS} keep-alive connections, closed loop, ${WARMUP_MS / 1000} s warm-up + ${DURATION_MS / 1000} s measured, generator in its own process`);
    log(`data: ${workPath} (SQLite on disk, WAL)`);
    log();

    // ---- setup: a database with REPO_COUNT repositories --------------------------------------------------
    progress(`setting up ${REPO_COUNT} repositories through host.repos.create …`);
    const settings = loadSettings({ workPath, overrides: { server: { HTTP_ADDR: '127.0.0.1', HTTP_PORT: 0 } } });
    const host = await RepoHost.open({ settings });
    const { setupMs, token } = await populate(host, REPO_COUNT);
    const withToken = { authorization: `token ${token}` };
    progress(`setup done in ${(setupMs / 1000).toFixed(1)} s`);

    // ---- 1. throughput ------------------------------------------------------------------------------------
    // The baseline is measured before and after RepoHost and the faster run is kept: the load generator warms up
    // and the machine's speed drifts, and a low baseline would flatter RepoHost's percentage.
    const measureHello = async () => {
      const hello = await startHelloWorld();
      progress('measuring node:http hello world …');
      const result = await measure(hello.url);
      await hello.close();
      return result;
    };
    const helloBefore = await measureHello();

    const running = await startServer(host, { hostname: '127.0.0.1', port: 0 });
    const repoPath = `api/v1/repos/${OWNER}/${REPO}`;
    const check = await get(`${running.url}${repoPath}`);
    if (check.status !== 200 || JSON.parse(check.body).full_name !== `${OWNER}/${REPO}`) {
      throw new Error(`anonymous repo read is not a 200 with the repository: ${check.status} ${check.body.slice(0, 200)}`);
    }
    progress('measuring GET /api/v1/version …');
    const versionResult = await measure(`${running.url}api/v1/version`);
    progress(`measuring GET /${repoPath} …`);
    const repoResult = await measure(`${running.url}${repoPath}`);
    const me = await get(`${running.url}api/v1/user`, 2000, withToken);
    const privateView = await get(`${running.url}${repoPath}`, 2000, withToken);
    if (me.status !== 200 || JSON.parse(me.body).login !== OWNER || privateView.status !== 200 || !JSON.parse(privateView.body).permissions.admin) {
      throw new Error(`token-authenticated reads do not answer as the owner: ${me.status} ${privateView.status}`);
    }
    progress('measuring GET /api/v1/user with a token …');
    const meResult = await measure(`${running.url}api/v1/user`, withToken);
    progress(`measuring GET /${repoPath} with a token …`);
    const repoAuthResult = await measure(`${running.url}${repoPath}`, withToken);
    await running.close();
    await host.close();
    const helloAfter = await measureHello();
    const helloResult = helloAfter.rps > helloBefore.rps ? helloAfter : helloBefore;

    // ---- 2 + 3. cold start and idle RSS -----------------------------------------------------------------
    const cold = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      progress(`cold start ${i + 1}/${COLD_RUNS} …`);
      cold.push(await coldStart(REPOHOST_BIN, (port) => ['web', '--quiet', '--work-path', workPath, '--port', String(port)], { repoHost: true }));
    }
    const baseline = [];
    for (let i = 0; i < COLD_RUNS; i++) baseline.push(await coldStart(COLD_START_HELLO, (port) => [String(port)], { repoHost: false }));

    // ---- report -----------------------------------------------------------------------------------------
    const widths = [48, 10, 9, 9, 9, 9];
    log(row(['endpoint', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'non-200'], widths));
    log(row(['-'.repeat(48), '-'.repeat(10), '-'.repeat(9), '-'.repeat(9), '-'.repeat(9), '-'.repeat(9)], widths));
    for (const [label, r] of [
      ['node:http hello world (best of 2 runs)', helloResult],
      ['RepoHost GET /api/v1/version', versionResult],
      [`RepoHost GET /${repoPath}`, repoResult],
      ['RepoHost GET /api/v1/user (token)', meResult],
      [`RepoHost GET /${repoPath} (token)`, repoAuthResult],
    ]) {
      log(row([label, r.rps.toFixed(0), ms(r.p50Ms), ms(r.p90Ms), ms(r.p99Ms), r.errors], widths));
    }
    const versionPct = (versionResult.rps / helloResult.rps) * 100;
    const repoPct = (repoResult.rps / helloResult.rps) * 100;
    log();
    log(`version rate   = ${versionPct.toFixed(1)} % of hello world`);
    log(`repo-read rate = ${repoPct.toFixed(1)} % of hello world`);
    log(`token reads    = ${((meResult.rps / helloResult.rps) * 100).toFixed(1)} % (GET /user), ${((repoAuthResult.rps / helloResult.rps) * 100).toFixed(1)} % (repo read) of hello world; the token repo read runs at ${((repoAuthResult.rps / repoResult.rps) * 100).toFixed(1)} % of the anonymous one`);
    log();

    const coldTimes = cold.map((c) => c.elapsedMs);
    const rss = cold.map((c) => c.rss);
    log(`cold start to first GET /api/v1/version 200, ${REPO_COUNT + 1} repositories in the database (setup took ${(setupMs / 1000).toFixed(1)} s):`);
    log(`  runs (ms): ${coldTimes.map((t) => t.toFixed(0)).join(', ')}`);
    log(`  median ${coldTimes.length ? median(coldTimes).toFixed(0) : 'n/a'} ms, max ${Math.max(...coldTimes).toFixed(0)} ms`);
    const baseTimes = baseline.map((c) => c.elapsedMs);
    log(`  for scale, a bare node:http process: median ${median(baseTimes).toFixed(0)} ms, max ${Math.max(...baseTimes).toFixed(0)} ms, RSS ${median(baseline.map((c) => c.rss)).toFixed(1)} MiB`);
    log(`idle RSS after start + 30 requests + 1 s (VmRSS, MiB): ${rss.map((v) => v.toFixed(1)).join(', ')}`);
    log(`  median ${median(rss).toFixed(1)} MiB, max ${Math.max(...rss).toFixed(1)} MiB`);
    log();

    const coldMedian = median(coldTimes);
    const rssMax = Math.max(...rss);
    log(`${verdict(repoPct >= TARGET_REPO_VS_HELLO)}  repo read ≥ ${TARGET_REPO_VS_HELLO} % of hello world: ${repoPct.toFixed(1)} % (${repoResult.rps.toFixed(0)} vs ${helloResult.rps.toFixed(0)} req/s)`);
    log(`${verdict(coldMedian < TARGET_COLD_START_MS)}  cold start median < ${TARGET_COLD_START_MS} ms: ${coldMedian.toFixed(0)} ms (max ${Math.max(...coldTimes).toFixed(0)} ms)`);
    log(`${verdict(rssMax < TARGET_RSS_MB)}  idle RSS < ${TARGET_RSS_MB} MB: ${rssMax.toFixed(1)} MiB (worst of ${rss.length})`);
    const failed = [helloResult, versionResult, repoResult, meResult, repoAuthResult].filter((r) => r.errors > 0);
    if (failed.length) log(`NOTE  non-200 answers during load: ${failed.map((r) => `${r.url} ${JSON.stringify(r.statuses)}`).join('; ')}`);
    log();
    log(`total bench time ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await rm(workPath, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error('bench crashed:', error);
  process.exitCode = 1;
});
