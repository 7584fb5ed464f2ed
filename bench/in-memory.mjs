/**
 * In-memory forge benchmark (`node bench/in-memory.mjs` after `npm run build`; the last part of `npm run bench`):
 *
 * 0. The first forge of a fresh process (what a test suite's first test pays), median of COLD_RUNS child processes
 *    after one warm-up: importing `@repohost/core` and `@repohost/server`, the first `RepoHost.inMemory()`,
 *    `startServer`, the first `GET /api/v1/version`; then creating a user and a repository and the first read of it.
 *    COLD_ROOTS=<checkout>,… compares other built checkouts in the same run ('' is this one); COLD_ONLY=1 stops there.
 * 1. Time from `RepoHost.inMemory()` to a created repository with `auto_init`, in RUNS fresh forges: opening
 *    (migrations on SQLite `:memory:`), creating the owner (its password hash is most of that), creating the
 *    repository (the isomorphic-git backend writes the first commit). Median and max after one warm-up forge.
 *    Then the time from `RepoHost.inMemory()` to a started server's first answer.
 * 2. Memory per forge holding 10 repositories of 100 commits each (commits written through the backend's
 *    `changeFiles`, each changing one file): heap, external and array buffers after a full GC, FORGES forges kept
 *    open at once, divided by FORGES. SQLite's own memory is outside the V8 heap and shows in RSS only.
 *
 * 3. Clone of a 1,000-commit repository (written with `git fast-import`, pushed over smart HTTP: the push's time is
 *    printed too) from an in-memory server against the same from a native one, both started with `startServer` in
 *    this process: `git clone --bare` over loopback, median of CLONE_RUNS runs after one warm-up each.
 *
 * REPOHOST_BUNDLE may name one module exporting both `@repohost/core` and `startServer` (a build of the sources).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pathToFileURL } from 'node:url';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gitEnv, mustGit, seedHistory } from './git-client.mjs';

const RUNS = Number(process.env.RUNS ?? 20);
const FORGES = Number(process.env.FORGES ?? 5);
const REPOS = 10;
const COMMITS = 100;
const COLD_RUNS = Number(process.env.COLD_RUNS ?? 9);

// 0. The first forge of a fresh process, what a test suite's first test pays. Each sample is a child process
// (`--cold-child <checkout>`) that imports the built packages of that checkout and reports its own timings.
if (process.argv[2] === '--cold-child') {
  await coldChild(process.argv[3]);
  process.exit(0);
}

async function coldChild(root) {
  const at = (from) => performance.now() - from;
  const dist = (pkg) => (root ? pathToFileURL(path.join(root, 'packages', pkg, 'dist', 'index.js')).href : `@repohost/${pkg}`);
  let start = performance.now();
  const core = await import(dist('core'));
  const server = await import(dist('server'));
  const importMs = at(start);
  start = performance.now();
  const host = await core.RepoHost.inMemory();
  const inMemoryMs = at(start);
  start = performance.now();
  const running = await server.startServer(host, { port: 0, hostname: '127.0.0.1' });
  const startServerMs = at(start);
  const get = async (urlPath) => {
    const res = await fetch(`${running.url}${urlPath}`);
    const body = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /${urlPath} answered ${res.status}: ${Buffer.from(body).toString()}`);
  };
  start = performance.now();
  await get('api/v1/version');
  const versionMs = at(start);
  start = performance.now();
  const owner = await host.users.create(core.SYSTEM, { username: 'alice', email: 'alice@example.com', password: 'correct-horse-battery' });
  await host.repos.create(core.userActor(owner), { name: 'demo', auto_init: true });
  const createMs = at(start);
  start = performance.now();
  await get('api/v1/repos/alice/demo');
  const repoReadMs = at(start);
  await running.close();
  await host.close();
  console.log(JSON.stringify({ importMs, inMemoryMs, startServerMs, versionMs, createMs, repoReadMs }));
}

async function coldStarts() {
  const { execFile } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const self = fileURLToPath(import.meta.url);
  // COLD_ROOTS: checkouts to compare in one run (built, with node_modules), samples interleaved; '' is this one.
  const roots = (process.env.COLD_ROOTS ?? '').split(',');
  const samples = new Map(roots.map((root) => [root, []]));
  for (let i = 0; i <= COLD_RUNS; i++) {
    for (const root of roots) {
      const out = await new Promise((resolve, reject) => {
        execFile(process.execPath, [self, '--cold-child', root], { timeout: 120_000 }, (error, stdout, stderr) => {
          if (error) reject(new Error(`cold child failed: ${error.message}\n${stderr}`));
          else resolve(stdout);
        });
      });
      if (i > 0) samples.get(root).push(JSON.parse(out.trim().split('\n').at(-1))); // the first: disk caches
    }
  }
  for (const [root, runs] of samples) {
    const med = (key) => median(runs.map((r) => r[key]));
    const answer = median(runs.map((r) => r.inMemoryMs + r.startServerMs + r.versionMs));
    console.log(`First forge of a fresh process${root ? ` (${root})` : ''}, median of ${runs.length} processes (ms):`);
    console.log(`  import @repohost/core + @repohost/server ${fmt(med('importMs'))}   (target < 200)`);
    console.log(`  RepoHost.inMemory()                      ${fmt(med('inMemoryMs'))}`);
    console.log(`  startServer                              ${fmt(med('startServerMs'))}`);
    console.log(`  first request, GET /api/v1/version       ${fmt(med('versionMs'))}`);
    console.log(`  first answer after the imports           ${fmt(answer)}   (target < 100)`);
    console.log(`  then creating a user and a repository    ${fmt(med('createMs'))}`);
    console.log(`  first GET /api/v1/repos/{owner}/{repo}   ${fmt(med('repoReadMs'))}`);
  }
}

const bundle = process.env.REPOHOST_BUNDLE ? await import(pathToFileURL(process.env.REPOHOST_BUNDLE).href) : undefined;
const { RepoHost, SYSTEM, loadSettings, userActor } = bundle ?? (await import('@repohost/core'));
const { startServer } = bundle ?? (await import('@repohost/server'));
const CLONE_COMMITS = 1000;
const CLONE_RUNS = Number(process.env.CLONE_RUNS ?? 3);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

const ms = (from) => performance.now() - from;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n) => n.toFixed(1).padStart(7);

async function createOwner(host) {
  return host.users.create(SYSTEM, { username: 'alice', email: 'alice@example.com', password: 'correct-horse-battery' });
}

async function timeOneForge() {
  const start = performance.now();
  const host = await RepoHost.inMemory();
  const open = ms(start);
  const userStart = performance.now();
  const alice = await createOwner(host);
  const user = ms(userStart);
  const repoStart = performance.now();
  await host.repos.create(userActor(alice), { name: 'demo', auto_init: true });
  const repo = ms(repoStart);
  const total = ms(start);
  await host.close();
  return { open, user, repo, total };
}

async function filledForge() {
  const host = await RepoHost.inMemory();
  const alice = await createOwner(host);
  for (let r = 0; r < REPOS; r++) {
    const { repo } = await host.repos.create(userActor(alice), { name: `repo-${r}`, auto_init: true });
    const key = { owner: 'alice', name: repo.lower_name };
    let head = (await host.git.readRefs(key, ['refs/heads/main'])).get('refs/heads/main');
    for (let c = 1; c < COMMITS; c++) {
      const when = new Date(Date.UTC(2024, 0, 1, 0, c));
      const signature = { name: 'Alice', email: 'alice@example.com', when };
      ({ commit: head } = await host.git.changeFiles(key, {
        branch: 'main',
        objectFormat: 'sha1',
        parent: head,
        expectedOldId: head,
        changes: [{ path: `src/file-${c % 10}.txt`, content: Buffer.from(`line ${c}\n`.repeat(20)) }],
        message: `Commit ${c}\n`,
        author: signature,
        committer: signature,
      }));
    }
  }
  return host;
}

function memory() {
  gc();
  gc();
  const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
  return { heapUsed, external, arrayBuffers, rss };
}

await coldStarts();
if (process.env.COLD_ONLY === '1') process.exit(0);

// 1. Open to first repository.
await timeOneForge();
const runs = [];
for (let i = 0; i < RUNS; i++) runs.push(await timeOneForge());
console.log(`RepoHost.inMemory() to a created repository with auto_init (${RUNS} forges, ms):`);
console.log('             median     max');
for (const part of ['open', 'user', 'repo', 'total']) {
  const values = runs.map((r) => r[part]);
  console.log(`  ${part.padEnd(8)} ${fmt(median(values))} ${fmt(Math.max(...values))}`);
}
const withoutUser = runs.map((r) => r.total - r.user);
console.log(`  total without the owner's creation: median ${median(withoutUser).toFixed(1)} ms (target < 50 ms)`);

// 1b. Open to a server answering its first request (GET /api/v1/version over loopback).
const firstAnswers = [];
for (let i = 0; i < RUNS; i++) {
  const start = performance.now();
  const host = await RepoHost.inMemory();
  const server = await startServer(host, { port: 0, hostname: '127.0.0.1' });
  const res = await fetch(`${server.url}api/v1/version`);
  if (res.status !== 200) throw new Error(`GET /api/v1/version answered ${res.status}`);
  await res.arrayBuffer();
  firstAnswers.push(ms(start));
  await server.close();
  await host.close();
}
console.log(`  RepoHost.inMemory() + startServer to a first answer: median ${median(firstAnswers).toFixed(1)} ms, max ${Math.max(...firstAnswers).toFixed(1)} ms (target < 100 ms)`);

// 2. Memory per forge with 10 repositories of 100 commits.
(await filledForge()).close();
const before = memory();
const forges = [];
const fillStart = performance.now();
for (let i = 0; i < FORGES; i++) forges.push(await filledForge());
const fillMs = ms(fillStart);
const after = memory();
const per = (field) => ((after[field] - before[field]) / FORGES / 1024 / 1024).toFixed(2);
console.log(`\nMemory per in-memory forge with ${REPOS} repositories of ${COMMITS} commits (${FORGES} forges kept open, MiB):`);
console.log(`  heap ${per('heapUsed')}  external ${per('external')}  array buffers ${per('arrayBuffers')}  rss ${per('rss')}`);
console.log(`  filling took ${(fillMs / FORGES / 1000).toFixed(1)} s per forge (${REPOS * COMMITS} commits)`);
for (const host of forges) await host.close();
forges.length = 0;
const closed = memory();
console.log(`  after closing them all: heap ${((closed.heapUsed - before.heapUsed) / 1024 / 1024).toFixed(2)} MiB above the start`);

// 3. Clone of a 1,000-commit repository: in-memory server against native server.
const work = await mkdtemp(path.join(tmpdir(), 'repohost-bench-memory-'));
try {
  const home = path.join(work, 'home');
  await mkdir(home);
  const env = gitEnv(home);
  const source = path.join(work, 'source');
  await seedHistory(source, env, CLONE_COMMITS);
  const overrides = { server: { DOMAIN: '127.0.0.1', HTTP_PORT: 0 } };
  const servers = {
    memory: await RepoHost.inMemory({ overrides }),
    native: await RepoHost.open({ settings: loadSettings({ workPath: work, overrides: { ...overrides, database: { PATH: ':memory:' } } }), noSecretKey: 'ephemeral' }),
  };
  const medians = {};
  for (const [name, host] of Object.entries(servers)) {
    const running = await startServer(host, { port: 0, hostname: '127.0.0.1' });
    try {
      const owner = await host.users.create(SYSTEM, { username: 'bench', email: 'bench@example.com', password: 'bench-password-123' });
      await host.repos.create(userActor(owner), { name: 'history' });
      const url = host.settings.server.ROOT_URL;
      const pushStart = performance.now();
      await mustGit(['-C', source, 'push', '-q', `${url.replace('http://', 'http://bench:bench-password-123@')}bench/history.git`, 'main'], { env, timeoutMs: 300_000 });
      const pushMs = ms(pushStart);
      const times = [];
      for (let run = 0; run <= CLONE_RUNS; run++) {
        const target = path.join(work, `${name}-${run}`);
        const started = performance.now();
        await mustGit(['clone', '-q', '--bare', `${url}bench/history.git`, target], { env, timeoutMs: 300_000 });
        if (run > 0) times.push(ms(started));
        await rm(target, { recursive: true, force: true });
      }
      medians[name] = median(times);
      console.log(`  ${name.padEnd(7)} push ${pushMs.toFixed(0)} ms, clone median ${medians[name].toFixed(0)} ms`);
    } finally {
      await running.close();
      await host.close();
    }
  }
  console.log(`Clone of a ${CLONE_COMMITS}-commit repository: in-memory ${(medians.memory / medians.native).toFixed(2)}× the native server's time`);
} finally {
  await rm(work, { recursive: true, force: true });
}
