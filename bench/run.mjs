/**
 * RepoHost benchmark (`npm run bench`, which builds first; this file imports the BUILT packages).
 *
 * 1. Throughput and p99 latency of GET /api/v1/version, GET /api/v1/repos/{owner}/{repo} (public repository,
 *    anonymous, SQLite on disk), and the authenticated path (GET /api/v1/user and the same repository read with
 *    an access token), next to a bare node:http hello-world server measured the same way.
 * 1a. The same repository reads (anonymous and with a token) with `[api.ratelimit]` on, limits high enough never
 *    to trip, against the same reads with limits off, each on a server of its own over the same host: target within
 *    5 %. Measured in turn, BENCH_RATELIMIT_ROUNDS times (1; each round makes 4 measurements), the best of each kept.
 *    `BENCH_ONLY=ratelimit` stops after this part (with BENCH_REPOS=… for a quicker setup).
 * 1b. Repository search: GET /api/v1/repos/search over the 1,000 repositories, 50 keyword queries in turn
 *    (`q=repo-000` … `q=repo-049`, `limit=10`: ten matches each), anonymous and with a token, next to a simple
 *    SQL-backed search answering the same body from the same database (bench/simple-search.mjs: `lower(name)
 *    LIKE`, a count query, each owner read by its own query, on a bare node:http server). Target: ≥ 5× its rate.
 * 2. Cold start: spawn a fresh `repohost web` (the built CLI binary) over a database holding 1,000 repositories
 *    and time until GET /api/v1/version first answers 200 (5 runs: median and max).
 * 3. Idle RSS (VmRSS) of that server process after start and a few requests.
 * 4. Git-service concurrency: clones per second of the small public repository bench/hello (a handful of files
 *    in a few commits, pushed during setup) by 32 parallel `git clone` clients in a closed loop, 1 s warm-up +
 *    10 s measured; p50/p99 clone time and failures (non-zero git exits, by reason, with the first error text;
 *    an HTTP 503 from a full git pool is a failure like any other).
 * 5. RSS under a 60 s mixed soak: API reads (anonymous and with a token), repository creates and deletes, git
 *    clones and git pushes at once, while the server's VmRSS is sampled every second; start, min, max, end, the
 *    least-squares slope after the first 10 s, and growth from the first-10 s to the last-10 s average, which must
 *    stay under 15 MiB; counts and failures per kind of operation. The same mix runs first as a warm-up until the
 *    server's first full GC shows as a fall in RSS (20-45 s).
 *
 * Parts 4 and 5 run against a fresh `repohost web` child process (the built CLI binary, as in 2) and the real
 * `git` binary; git's own config, prompts and proxies are kept out (bench/git-client.mjs). Settings such as the
 * git pool size reach that child through FORGEJO__SECTION__KEY environment variables, as in production.
 *
 * Load comes from bench/loadgen.mjs in its own process: N keep-alive connections in a closed loop, 1 s warm-up,
 * then a measured window. Everything runs on loopback and is bounded in time (and the clone loop in count).
 * Numbers are reported, not asserted: the exit code is 0 unless something crashed. Knobs (environment):
 * BENCH_CONNECTIONS, BENCH_WARMUP_MS, BENCH_DURATION_MS, BENCH_REPOS; BENCH_CLONE_CLIENTS, BENCH_CLONE_WARMUP_MS,
 * BENCH_CLONE_MS, BENCH_CLONE_MAX; BENCH_SOAK_WARMUP_MS (minimum), BENCH_SOAK_WARMUP_MAX_MS, BENCH_SOAK_MS;
 * BENCH_GIT_TIMEOUT_MS (per git command).
 */
import { fork, spawn } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RateLimitService, RepoHost, SYSTEM, loadSettings, userActor } from '@repohost/core';
import { startServer } from '@repohost/server';
import { cloneLoad, gitEnv, mustGit, packBytes } from './git-client.mjs';
import { rssMiB, runSoak } from './soak.mjs';
import { startSimpleSqlSearch } from './simple-search.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const LOADGEN = path.join(here, 'loadgen.mjs');
const REPOHOST_BIN = path.join(here, '..', 'packages', 'cli', 'dist', 'main.js');
const COLD_START_HELLO = path.join(here, 'cold-start-hello.mjs');

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const REPO_COUNT = Number(process.env.BENCH_REPOS ?? 1000);
const COLD_RUNS = 5;
const RATELIMIT_ROUNDS = Number(process.env.BENCH_RATELIMIT_ROUNDS ?? 1);
const ONLY_RATELIMIT = process.env.BENCH_ONLY === 'ratelimit';
/** The repository read with limits on may be at most this much slower than with them off. */
const TARGET_RATELIMIT_COST = 5; // percent
const CREATE_CONCURRENCY = 8;
const CLONE_CLIENTS = Number(process.env.BENCH_CLONE_CLIENTS ?? 32);
const CLONE_WARMUP_MS = Number(process.env.BENCH_CLONE_WARMUP_MS ?? 1000);
const CLONE_MS = Number(process.env.BENCH_CLONE_MS ?? 10_000);
const CLONE_MAX = Number(process.env.BENCH_CLONE_MAX ?? 20_000);
// The soak's warm-up runs until the server's first full GC (at least MIN, at most MAX; see runSoak): in a 240 s run
// of this mix its RSS rose from ~89 to ~128 MiB over the first ~35 s of load, then fell and stayed at 111-115 MiB.
// Any fixed warm-up either ends on that one-off ramp on a busy machine or wastes time on a quiet one, and a window
// that starts on the ramp measures V8's heap sizing, not a leak.
const SOAK_WARMUP_MIN_MS = Number(process.env.BENCH_SOAK_WARMUP_MS ?? 20_000);
const SOAK_WARMUP_MAX_MS = Number(process.env.BENCH_SOAK_WARMUP_MAX_MS ?? 45_000);
const SOAK_MS = Number(process.env.BENCH_SOAK_MS ?? 60_000);
const GIT_TIMEOUT_MS = Number(process.env.BENCH_GIT_TIMEOUT_MS ?? 30_000);
// Closed-loop workers of the soak: enough API traffic to show a per-request leak within a minute, one writer, and
// git clones and pushes next to them, without the 2-core machine spending the whole minute on git.
const SOAK_MIX = { readers: 2, writers: 1, cloners: 2, pushers: 1 };
const SOAK_PUSH_REPO = 'soak-push';

const TARGET_REPO_VS_HELLO = 40; // percent
const TARGET_COLD_START_MS = 500;
const TARGET_RSS_MB = 100;
const TARGET_SOAK_GROWTH_MIB = 15;
const TARGET_SEARCH_VS_SIMPLE = 5; // times
/** The keyword queries the search measurement requests in turn: ten of the bench repositories match each. */
const SEARCH_QUERIES = Array.from({ length: 50 }, (_, i) => `q=repo-0${String(i).padStart(2, '0')}&limit=10`);

const OWNER = 'bench';
const REPO = 'hello';

/**
 * What setup pushes to bench/hello on top of its README, one commit per entry: sources, docs, tests and a small
 * binary, about 25 KiB in all, so a clone transfers a real (if small) pack with trees, blobs and some history.
 */
const lines = (n, line) => Array.from({ length: n }, (_, i) => line(i)).join('\n') + '\n';
const xorshiftBytes = (n, seed) => {
  let x = seed | 0;
  return Uint8Array.from({ length: n }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x & 0xff;
  });
};
const SEED_COMMITS = [
  {
    message: 'Add the greeting library',
    files: {
      'package.json': `${JSON.stringify({ name: 'hello', version: '1.0.0', type: 'module', main: 'src/index.js' }, null, 2)}\n`,
      'src/index.js': lines(60, (i) => `export const greeting${i} = (name) => 'Hello ' + name + ', this is greeting number ${i}.';`),
      'src/format.js': lines(40, (i) => `export function pad${i}(text) { return String(text).padStart(${i + 1}, ' '); }`),
    },
  },
  {
    message: 'Document it',
    files: {
      'docs/usage.md': lines(120, (i) => (i % 10 === 0 ? `## Section ${i / 10}` : `Line ${i} explains how greeting ${i} is used and why.`)),
      'docs/faq.md': lines(40, (i) => `${i}. Question ${i}? Answer ${i}, with a little more text to make the line longer.`),
      '.gitignore': 'node_modules/\ndist/\n',
    },
  },
  {
    message: 'Add tests and a logo',
    files: {
      'test/index.test.js': lines(60, (i) => `test('greeting ${i}', () => expect(greeting${i}('x')).toContain('${i}'));`),
      // Bytes from a fixed xorshift: incompressible binary data in the pack, the same every run.
      'assets/logo.bin': xorshiftBytes(4096, 2463534242),
    },
  },
];

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
const whole = (n) => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');
const sign = (n) => (Number.isFinite(n) ? `${n >= 0 ? '+' : ''}${n.toFixed(1)}` : 'n/a');

/** Runs one load job in a fresh loadgen child process and returns its figures. */
function measure(url, headers = {}, paths = undefined) {
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
    child.send({ url, connections: CONNECTIONS, warmupMs: WARMUP_MS, durationMs: DURATION_MS, headers, paths });
  });
}

/**
 * The repository read, anonymous and with a token, on two more servers over the same host: one with
 * `[api.ratelimit]` off, one with it on (limits no load reaches, the automatic claim size), measured in turn
 * (RATELIMIT_ROUNDS rounds, the order alternating); the best of each is kept. Both are fresh servers started the
 * same way, so neither has the first server's advantage or handicap. The host's settings are put back after.
 */
async function measureRateLimits(host, repoPath, withToken) {
  const server = host.settings.server;
  const saved = { limits: host.settings['api.ratelimit'], port: server.HTTP_PORT, rootUrl: server.ROOT_URL };
  const huge = 1_000_000_000;
  const servers = [];
  const best = (a, b) => (a === undefined || b.rps > a.rps ? b : a);
  const off = { anonymous: undefined, token: undefined };
  const on = { anonymous: undefined, token: undefined };
  const rounds = [];
  let calls = 0;
  try {
    host.settings['api.ratelimit'] = { ...saved.limits, ENABLED: false };
    const unlimited = await startServer(host, { hostname: '127.0.0.1', port: 0 });
    servers.push(unlimited);
    host.settings['api.ratelimit'] = { ...saved.limits, ENABLED: true, CORE_LIMIT: huge, CORE_ANONYMOUS_LIMIT: huge };
    const limited = await startServer(host, { hostname: '127.0.0.1', port: 0 });
    servers.push(limited);
    const service = host.service(RateLimitService);
    const probe = await getWithHeaders(`${limited.url}${repoPath}`);
    const unprobed = await getWithHeaders(`${unlimited.url}${repoPath}`);
    if (probe.status !== 200 || probe.headers['x-ratelimit-limit'] !== String(huge) || unprobed.status !== 200 || unprobed.headers['x-ratelimit-limit'] !== undefined) {
      throw new Error(`the servers with and without rate limits do not answer as such: ${probe.status} ${JSON.stringify(probe.headers)} / ${unprobed.status}`);
    }
    const claimsBefore = service.claimCount;
    for (let round = 0; round < Math.max(1, RATELIMIT_ROUNDS); round++) {
      progress(`rate limits round ${round + 1}: measuring GET /${repoPath} off and on …`);
      const result = {};
      const order = round % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
      for (const kind of ['anonymous', 'token']) {
        for (const which of order) {
          const url = `${(which === 'on' ? limited : unlimited).url}${repoPath}`;
          result[`${which} ${kind}`] = await measure(url, kind === 'token' ? withToken : {});
        }
      }
      off.anonymous = best(off.anonymous, result['off anonymous']);
      on.anonymous = best(on.anonymous, result['on anonymous']);
      off.token = best(off.token, result['off token']);
      on.token = best(on.token, result['on token']);
      calls += result['on anonymous'].requests + result['on token'].requests;
      rounds.push({ offAnonymous: result['off anonymous'].rps, onAnonymous: result['on anonymous'].rps, offToken: result['off token'].rps, onToken: result['on token'].rps });
    }
    const claims = service.claimCount - claimsBefore;
    return { off, on, rounds, claims, calls };
  } finally {
    for (const running of servers) await running.close();
    host.settings['api.ratelimit'] = saved.limits;
    server.HTTP_PORT = saved.port;
    server.ROOT_URL = saved.rootUrl;
  }
}

/** One GET; resolves with { status, headers } (lower-case names). */
function getWithHeaders(url) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, timeout: 2000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
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
 * returns the setup time and two access tokens of the bench user: a read-only one (the throughput part) and one
 * that may create, push to and delete repositories (setup's push and the soak's writes).
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
  const { value: writeToken } = await host.tokens.create(SYSTEM, user, { name: 'bench-write', scopes: ['write:repository', 'write:user'] });
  return { setupMs: performance.now() - started, token, writeToken };
}

/**
 * Pushes SEED_COMMITS to bench/hello through the server at `base` with git and the write token, then clones it
 * anonymously (the way the clone load will) to check it and measure it: { commits, files, packBytes }.
 */
async function seedHello(base, writeToken, home) {
  const dir = await mkdtemp(path.join(tmpdir(), 'repohost-bench-seed-'));
  try {
    const work = path.join(dir, 'work');
    const env = gitEnv(home, writeToken);
    await mustGit(['clone', '--quiet', `${base}${OWNER}/${REPO}.git`, work], { env, timeoutMs: GIT_TIMEOUT_MS });
    for (const { message, files } of SEED_COMMITS) {
      for (const [name, content] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(work, name)), { recursive: true });
        await writeFile(path.join(work, name), content);
      }
      await mustGit(['-C', work, 'add', '--all'], { env });
      await mustGit(['-C', work, 'commit', '--quiet', '-m', message], { env });
    }
    await mustGit(['-C', work, 'push', '--quiet', 'origin', 'HEAD'], { env, timeoutMs: GIT_TIMEOUT_MS });

    const check = path.join(dir, 'check');
    const anonymous = gitEnv(home);
    await mustGit(['clone', '--quiet', `${base}${OWNER}/${REPO}.git`, check], { env: anonymous, timeoutMs: GIT_TIMEOUT_MS });
    const commits = Number((await mustGit(['-C', check, 'rev-list', '--count', 'HEAD'], { env: anonymous })).trim());
    const files = (await mustGit(['-C', check, 'ls-files'], { env: anonymous })).split('\n').filter(Boolean).length;
    return { commits, files, packBytes: await packBytes(check) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Spawns a server process (`script` with `args(port)`) on a free loopback port and waits for GET /api/v1/version to
 * answer 200. Resolves with { child, base, readyMs (spawn to first 200), alive(), stop() }; stop() ends it with
 * SIGTERM (SIGKILL after 3 s). On failure the process is stopped before the error is thrown.
 */
async function spawnServer(script, args, label) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/`;
  // Bounded: a server that logs an error per request during the soak must not grow the bench's memory.
  let stderr = '';
  const started = process.hrtime.bigint();
  const env = { ...process.env, FORGEJO__SERVER__HTTP_ADDR: '127.0.0.1' };
  const child = spawn(process.execPath, [script, ...args(port)], { stdio: ['ignore', 'ignore', 'pipe'], env });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (c) => {
    if (stderr.length < 64 * 1024) stderr += c;
  });
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
    for (;;) {
      if (exited) throw new Error(`${label} server exited early (${JSON.stringify(exited)}): ${stderr}`);
      if (Number(process.hrtime.bigint() - started) / 1e6 > 15_000) throw new Error(`${label} server did not answer within 15 s`);
      try {
        const res = await get(`${base}api/v1/version`, 1000);
        if (res.status === 200) break;
      } catch {
        // not listening yet
      }
      await sleep(2);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    child,
    base,
    readyMs: Number(process.hrtime.bigint() - started) / 1e6,
    alive: () => exited === null,
    exitText: () => `${JSON.stringify(exited)} ${stderr}`.trim(),
    stop,
  };
}

/** The built `repohost web` over the bench's work path, as a child process. */
const spawnRepoHost = (workPath, label) =>
  spawnServer(REPOHOST_BIN, (port) => ['web', '--quiet', '--work-path', workPath, '--port', String(port)], label);

/**
 * Spawns a fresh server process (`script` with `args(port)`); resolves with the time from spawn to the first 200
 * from /api/v1/version and, when asked, its VmRSS after a few requests and a second of rest.
 */
async function coldStart(script, args, { repoHost }) {
  const server = await spawnServer(script, args, 'cold-start');
  const base = server.base;
  try {
    // A few ordinary requests, then let it settle before reading its resident set.
    for (let i = 0; i < 10; i++) {
      if (!repoHost) {
        await get(`${base}api/v1/version`);
        continue;
      }
      const version = await get(`${base}api/v1/version`);
      const repo = await get(`${base}api/v1/repos/${OWNER}/${REPO}`);
      const list = await get(`${base}api/v1/users/${OWNER}/repos?limit=50`);
      if (version.status !== 200 || repo.status !== 200 || list.status !== 200) {
        throw new Error(`unexpected statuses from the cold-start server: ${version.status} ${repo.status} ${list.status}`);
      }
    }
    await sleep(repoHost ? 1000 : 200);
    const rss = await rssMiB(server.child.pid);
    return { elapsedMs: server.readyMs, rss };
  } finally {
    await server.stop();
  }
}

function row(cells, widths) {
  return cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
}

async function main() {
  const workPath = await mkdtemp(path.join(tmpdir(), 'repohost-bench-'));
  // HOME of every client git: empty, so no user configuration applies (see gitEnv).
  const gitHome = await mkdtemp(path.join(tmpdir(), 'repohost-bench-git-home-'));
  try {
    log(`RepoHost benchmark — node ${process.version}, ${process.platform}/${process.arch}, ${cpus().length} CPU(s) (${cpus()[0]?.model?.trim() ?? 'unknown'})`);
    log(`load: ${CONNECTIONS} keep-alive connections, closed loop, ${WARMUP_MS / 1000} s warm-up + ${DURATION_MS / 1000} s measured, generator in its own process`);
    log(`data: ${workPath} (SQLite on disk, WAL)`);
    log();

    // ---- setup: a database with REPO_COUNT repositories --------------------------------------------------
    progress(`setting up ${REPO_COUNT} repositories through host.repos.create …`);
    const settings = loadSettings({ workPath, overrides: { server: { HTTP_ADDR: '127.0.0.1', HTTP_PORT: 0 } } });
    // A new installation's key file, as `repohost web` makes it: the servers this bench starts on it read it.
    const host = await RepoHost.open({ settings, noSecretKey: 'generate' });
    const { setupMs, token, writeToken } = await populate(host, REPO_COUNT);
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
    progress(`pushing ${SEED_COMMITS.length} commits to ${OWNER}/${REPO} with git …`);
    const seeded = await seedHello(running.url, writeToken, gitHome);
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

    // ---- 1a. the repository read with [api.ratelimit] on --------------------------------------------------
    const limits = await measureRateLimits(host, repoPath, withToken);
    const limitsWidths = [48, 10, 9, 9, 9, 9];
    const reportLimits = () => {
      log(row(['repository read, [api.ratelimit] off / on', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'non-200'], limitsWidths));
      log(row(limitsWidths.map((w) => '-'.repeat(w)), limitsWidths));
      for (const [label, r] of [
        ['anonymous, limits off (best)', limits.off.anonymous],
        ['anonymous, limits on (best)', limits.on.anonymous],
        ['token, limits off (best)', limits.off.token],
        ['token, limits on (best)', limits.on.token],
      ]) log(row([label, r.rps.toFixed(0), ms(r.p50Ms), ms(r.p90Ms), ms(r.p99Ms), r.errors], limitsWidths));
      log(`  every round (req/s, off → on): anonymous ${limits.rounds.map((x) => `${x.offAnonymous.toFixed(0)} → ${x.onAnonymous.toFixed(0)}`).join(', ')}; token ${limits.rounds.map((x) => `${x.offToken.toFixed(0)} → ${x.onToken.toFixed(0)}`).join(', ')}`);
      log(`  database claims (row writes) with limits on: ${limits.claims} for ${limits.calls} counted calls (automatic slices: a fiftieth of the limit, at most 1000)`);
      // The verdict takes the median of the rounds' own ratios (off and on measured back to back): one round's
      // outlier moves a best-of-all comparison, and the machine is shared.
      const signed = (cost) => `${cost >= 0 ? '-' : '+'}${Math.abs(cost).toFixed(1)} %`;
      for (const kind of ['anonymous', 'token']) {
        const Kind = kind === 'anonymous' ? 'Anonymous' : 'Token';
        const costs = limits.rounds.map((x) => (1 - x[`on${Kind}`] / x[`off${Kind}`]) * 100);
        const cost = median(costs);
        const bestCost = (1 - limits.on[kind].rps / limits.off[kind].rps) * 100;
        log(`${verdict(cost <= TARGET_RATELIMIT_COST)}  repo read (${kind}) with rate limits on within ${TARGET_RATELIMIT_COST} % of off: ${signed(cost)} (median of ${costs.length} rounds: ${costs.map(signed).join(', ')}; best of each ${limits.on[kind].rps.toFixed(0)} vs ${limits.off[kind].rps.toFixed(0)} req/s, ${signed(bestCost)})`);
      }
      log();
    };
    if (ONLY_RATELIMIT) {
      reportLimits();
      await running.close();
      await host.close();
      return;
    }

    // ---- 1b. repository search next to a simple SQL-backed one ------------------------------------------
    const simpleSearch = await startSimpleSqlSearch(settings.database.PATH, settings);
    let searchResult;
    let searchTokenResult;
    let simpleSearchResult;
    try {
      // Both must answer the same bytes before their rates mean anything.
      for (const query of [SEARCH_QUERIES[0], SEARCH_QUERIES[SEARCH_QUERIES.length - 1]]) {
        const ours = await get(`${running.url}api/v1/repos/search?${query}`);
        const simple = await get(`${simpleSearch.url}?${query}`);
        if (ours.status !== 200 || ours.body !== simple.body || JSON.parse(ours.body).data.length !== 10) {
          throw new Error(`GET /repos/search?${query} does not answer what the simple search answers: ${ours.status} ${ours.body.slice(0, 200)} / ${simple.body.slice(0, 200)}`);
        }
      }
      progress(`measuring GET /api/v1/repos/search, ${SEARCH_QUERIES.length} queries in turn …`);
      searchResult = await measure(running.url, {}, SEARCH_QUERIES.map((q) => `/api/v1/repos/search?${q}`));
      progress('measuring GET /api/v1/repos/search with a token …');
      searchTokenResult = await measure(running.url, withToken, SEARCH_QUERIES.map((q) => `/api/v1/repos/search?${q}`));
      progress('measuring the simple SQL-backed search …');
      simpleSearchResult = await measure(simpleSearch.url, {}, SEARCH_QUERIES.map((q) => `/?${q}`));
    } finally {
      await simpleSearch.close();
    }
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

    // ---- 4. git clones by CLONE_CLIENTS parallel clients ------------------------------------------------
    // The server is a `repohost web` child, not the in-process server of part 1: the clients are 32 spawn/wait
    // loops in this process, which must not share the server's event loop; and a child is the server as it runs
    // in production (the built binary, settings from the work path and environment, git processes its own).
    progress(`cloning ${OWNER}/${REPO} with ${CLONE_CLIENTS} parallel git clients for ${CLONE_WARMUP_MS / 1000} + ${CLONE_MS / 1000} s …`);
    const cloneServer = await spawnRepoHost(workPath, 'clone-load');
    let clones;
    let cloneRss;
    try {
      clones = await cloneLoad({
        url: `${cloneServer.base}${OWNER}/${REPO}.git`,
        clients: CLONE_CLIENTS,
        warmupMs: CLONE_WARMUP_MS,
        durationMs: CLONE_MS,
        maxClones: CLONE_MAX,
        timeoutMs: GIT_TIMEOUT_MS,
        home: gitHome,
      });
      if (!cloneServer.alive()) throw new Error(`the server exited during the clone load: ${cloneServer.exitText()}`);
      cloneRss = await rssMiB(cloneServer.child.pid);
    } finally {
      await cloneServer.stop();
    }

    // ---- 5. RSS under a mixed soak ----------------------------------------------------------------------
    // A fresh child, so its RSS trace starts from a server that has seen only the soak.
    progress(`soak: ${SOAK_WARMUP_MIN_MS / 1000}-${SOAK_WARMUP_MAX_MS / 1000} s warm-up + ${SOAK_MS / 1000} s of mixed API, create/delete, clone and push load …`);
    const soakServer = await spawnRepoHost(workPath, 'soak');
    let soak;
    let soakIdleRss;
    try {
      // Before any load, so the warm-up's growth is in the report too.
      soakIdleRss = await rssMiB(soakServer.child.pid);
      soak = await runSoak({
        base: soakServer.base,
        pid: soakServer.child.pid,
        owner: OWNER,
        repo: REPO,
        pushRepo: SOAK_PUSH_REPO,
        readToken: token,
        writeToken,
        home: gitHome,
        warmupMs: SOAK_WARMUP_MIN_MS,
        warmupMaxMs: SOAK_WARMUP_MAX_MS,
        durationMs: SOAK_MS,
        gitTimeoutMs: GIT_TIMEOUT_MS,
        mix: SOAK_MIX,
        alive: soakServer.alive,
      });
    } catch (error) {
      if (!soakServer.alive()) throw new Error(`the server exited during the soak: ${soakServer.exitText()}`, { cause: error });
      throw error;
    } finally {
      await soakServer.stop();
    }

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
      ['RepoHost GET /api/v1/repos/search (50 queries)', searchResult],
      ['RepoHost GET /api/v1/repos/search (token)', searchTokenResult],
      ['simple SQL-backed search (same queries)', simpleSearchResult],
    ]) {
      log(row([label, r.rps.toFixed(0), ms(r.p50Ms), ms(r.p90Ms), ms(r.p99Ms), r.errors], widths));
    }
    log();
    reportLimits();
    const versionPct = (versionResult.rps / helloResult.rps) * 100;
    const repoPct = (repoResult.rps / helloResult.rps) * 100;
    log();
    log(`version rate   = ${versionPct.toFixed(1)} % of hello world`);
    log(`repo-read rate = ${repoPct.toFixed(1)} % of hello world`);
    log(`token reads    = ${((meResult.rps / helloResult.rps) * 100).toFixed(1)} % (GET /user), ${((repoAuthResult.rps / helloResult.rps) * 100).toFixed(1)} % (repo read) of hello world; the token repo read runs at ${((repoAuthResult.rps / repoResult.rps) * 100).toFixed(1)} % of the anonymous one`);
    const searchTimes = searchResult.rps / simpleSearchResult.rps;
    log(`search rate    = ${searchResult.rps.toFixed(0)} req/s anonymous, ${searchTokenResult.rps.toFixed(0)} with a token; the simple SQL-backed search: ${simpleSearchResult.rps.toFixed(0)} req/s (${searchTimes.toFixed(1)}×, with a token ${(searchTokenResult.rps / simpleSearchResult.rps).toFixed(1)}×)`);
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

    const cloneFailed = clones.failedInWindow + clones.failedOutside;
    log(`git clone of ${OWNER}/${REPO} (${seeded.commits} commits, ${seeded.files} files, ${(seeded.packBytes / 1024).toFixed(1)} KiB pack) by ${CLONE_CLIENTS} parallel clients, closed loop, ${CLONE_WARMUP_MS / 1000} s warm-up + ${CLONE_MS / 1000} s measured, against a \`repohost web\` child:`);
    log(`  ${clones.clonesPerSecond.toFixed(1)} clones/s, p50 ${whole(clones.p50Ms)} ms, p99 ${whole(clones.p99Ms)} ms, max ${whole(clones.maxMs)} ms (${clones.ok} clones finished in the window, ${clones.started} started in all, ${(clones.wallMs / 1000).toFixed(1)} s wall)`);
    log(`  failures (non-zero git exits): ${clones.failedInWindow} in the window, ${clones.failedOutside} during warm-up and drain`);
    for (const f of clones.failures) log(`    ${f.reason} ×${f.count}; first: ${f.first}`);
    log(`  server VmRSS after the clone load: ${cloneRss.toFixed(1)} MiB`);
    log();

    const mix = soak.mix;
    const w = soak.warmup;
    const warmupEnd = w.drop
      ? `ended ${w.seconds.toFixed(0)} s in, after RSS fell from ${w.drop.from.toFixed(1)} to ${w.drop.to.toFixed(1)} MiB at ${w.drop.atSeconds.toFixed(0)} s (the first full GC)`
      : `ended at its ${w.seconds.toFixed(0)} s cap with no full GC seen (RSS peak ${w.peak.toFixed(1)} MiB): the window may start on the heap's initial climb`;
    log(`mixed soak against a fresh \`repohost web\` child, ${soak.seconds} s measured after a warm-up of the same mix that ${warmupEnd}; closed-loop workers: ${mix.readers} API readers (the four reads in turn), ${mix.writers} create+delete writer, ${mix.cloners} cloners, ${mix.pushers} pusher (commit + push to its own branch of ${OWNER}/${SOAK_PUSH_REPO}):`);
    const soakWidths = [52, 8, 8, 8, 9, 9];
    log(row(['operation', 'count', 'per s', 'failed', 'p50 ms', 'p99 ms'], soakWidths));
    log(row(soakWidths.map((w) => '-'.repeat(w)), soakWidths));
    for (const k of soak.kinds) log(row([k.label, k.count, k.perSecond.toFixed(1), k.failed, ms(k.p50Ms), ms(k.p99Ms)], soakWidths));
    for (const k of soak.kinds.filter((k) => k.failed)) log(`  ${k.label} failures ${JSON.stringify(k.statuses)}; first: ${k.first}`);
    const r = soak.rss;
    const every5 = soak.samples.filter((_, i) => i % 5 === 0).map((s) => s.mib.toFixed(1));
    log(`  VmRSS every 5 s (MiB): ${every5.join(' ')}`);
    log(`  VmRSS: ${soakIdleRss.toFixed(1)} MiB when started, then after the warm-up: start ${r.start.toFixed(1)}, min ${r.min.toFixed(1)}, max ${r.max.toFixed(1)}, end ${r.end.toFixed(1)} MiB (${soak.samples.length} samples, 1 per s)`);
    log(`  first-${r.edgeSeconds} s average ${r.firstAvg.toFixed(1)} MiB, last-${r.edgeSeconds} s average ${r.lastAvg.toFixed(1)} MiB: growth ${sign(r.growth)} MiB; slope ${sign(r.slopePerMinute)} MiB/min (least squares over the ${r.trendSamples} samples from ${r.edgeSeconds} s on)`);
    log();

    const coldMedian = median(coldTimes);
    const rssMax = Math.max(...rss);
    log(`${verdict(repoPct >= TARGET_REPO_VS_HELLO)}  repo read ≥ ${TARGET_REPO_VS_HELLO} % of hello world: ${repoPct.toFixed(1)} % (${repoResult.rps.toFixed(0)} vs ${helloResult.rps.toFixed(0)} req/s)`);
    log(`${verdict(searchTimes >= TARGET_SEARCH_VS_SIMPLE)}  /repos/search ≥ ${TARGET_SEARCH_VS_SIMPLE}× a simple SQL-backed search over ${REPO_COUNT} repositories: ${searchTimes.toFixed(1)}× (${searchResult.rps.toFixed(0)} vs ${simpleSearchResult.rps.toFixed(0)} req/s, ${SEARCH_QUERIES.length} queries in turn, anonymous)`);
    log(`${verdict(coldMedian < TARGET_COLD_START_MS)}  cold start median < ${TARGET_COLD_START_MS} ms: ${coldMedian.toFixed(0)} ms (max ${Math.max(...coldTimes).toFixed(0)} ms)`);
    log(`${verdict(rssMax < TARGET_RSS_MB)}  idle RSS < ${TARGET_RSS_MB} MB: ${rssMax.toFixed(1)} MiB (worst of ${rss.length})`);
    const failed = [helloResult, versionResult, repoResult, meResult, repoAuthResult, searchResult, searchTokenResult, simpleSearchResult].filter((r) => r.errors > 0);
    log(`${verdict(cloneFailed === 0)}  ${CLONE_CLIENTS} parallel git clones without failures: ${cloneFailed} failed of ${clones.started} (${clones.clonesPerSecond.toFixed(1)} clones/s, p99 ${whole(clones.p99Ms)} ms)`);
    log(`${verdict(r.growth < TARGET_SOAK_GROWTH_MIB)}  RSS flat under the ${soak.seconds} s mixed soak, last-${r.edgeSeconds} s minus first-${r.edgeSeconds} s average < ${TARGET_SOAK_GROWTH_MIB} MiB: ${sign(r.growth)} MiB (slope ${sign(r.slopePerMinute)} MiB/min, ${r.start.toFixed(1)} → ${r.end.toFixed(1)} MiB)`);
    if (failed.length) log(`NOTE  non-200 answers during load: ${failed.map((r) => `${r.url} ${JSON.stringify(r.statuses)}`).join('; ')}`);
    const soakFailed = soak.kinds.filter((k) => k.failed);
    if (soakFailed.length) log(`NOTE  failures during the soak: ${soakFailed.map((k) => `${k.label} ${k.failed} of ${k.count}`).join('; ')}`);
    log();
    log(`total bench time ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await rm(workPath, { recursive: true, force: true });
    await rm(gitHome, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error('bench crashed:', error);
  process.exitCode = 1;
});
