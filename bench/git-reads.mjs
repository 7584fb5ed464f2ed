/**
 * Git-backed reads benchmark (issue 28; `npm run bench:git-reads`, also part of `npm run bench`): the reads whose
 * answers come from git history, each measured next to `GET /repos/{owner}/{repo}` in the same run, on a
 * repository like the issue's (2,000 commits, a pack of about 20 MiB):
 *
 *   phase 1, one branch:   repository read, GET …/branches, GET …/commits?limit=30 without statistics
 *                          (stat=false&verification=false&files=false) and with them (the defaults);
 *   phase 2, 50 branches:  repository read, GET …/branches (a page of 30, the API's default, and ?limit=50);
 *   phase 3, 20 pull requests and 20 issues: repository read, GET …/pulls?state=all, GET …/issues?state=all&type=issues;
 *   phase 4, 32 parallel `git clone`s of the whole history for BENCH_CLONE_MS (10 s).
 *
 * Peak RSS: this process's RSS after setup and a full GC, against its highest RSS while the four phases run
 * (sampled every 20 ms); issue 28 wants the peak at most 150 MiB above idle.
 *
 * Each is measured by bench/loadgen.mjs (a child process, closed loop, keep-alive) at 32 connections (as in the
 * issue) and at 8. Git processes per request are counted by the git backend itself: every git process the server
 * starts goes through `NativeGitBackend.spawnGit`, which counts them (`processesStarted`); the server runs in this
 * process, so the counter is read before and after PROBE_REQUESTS sequential requests (after one warm-up request,
 * which may start the repository's long-lived `git cat-file` reader) and the difference is divided by their number.
 * The ratio column is the case's req/s over the repository read's req/s at the same connection count and phase.
 *
 *   node bench/git-reads.mjs            (BENCH_DURATION_MS / BENCH_WARMUP_MS shorten or lengthen each measurement)
 *
 * Everything runs on loopback in a temporary folder that is removed at the end.
 */
import { fork } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RepoHost, SYSTEM, loadSettings, userActor } from '@repohost/core';
import { startServer } from '@repohost/server';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { cloneLoad, gitEnv, mustGit, seedIssueHistory } from './git-client.mjs';

const COMMITS = 2000;
const BRANCHES = 50;
const PULLS = 20;
const ISSUES = 20;
const CONNECTION_COUNTS = [32, 8];
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const PROBE_REQUESTS = 10;
const LOADGEN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'loadgen.mjs');
const CLONE_CLIENTS = 32;
const CLONE_MS = Number(process.env.BENCH_CLONE_MS ?? 10_000);
const MiB = 2 ** 20;

/** A full garbage collection (the flag can be set at run time; `gc` then exists in a new context). */
function collectGarbage() {
  setFlagsFromString('--expose-gc');
  runInNewContext('gc')();
}

function measure(url, connections, headers) {
  return new Promise((resolve, reject) => {
    const child = fork(LOADGEN, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (message) => (message.ok ? resolve(message.result) : reject(new Error(message.error))));
    child.once('error', reject);
    child.send({ url, connections, warmupMs: WARMUP_MS, durationMs: DURATION_MS, headers });
  });
}

async function packBytes(bare) {
  let total = 0;
  const dir = path.join(bare, 'objects', 'pack');
  for (const name of await readdir(dir).catch(() => [])) if (name.endsWith('.pack')) total += (await stat(path.join(dir, name))).size;
  return total;
}

export async function runGitReadsBench(log = console.log) {
  const folder = await mkdtemp(path.join(tmpdir(), 'repohost-bench-git-reads-'));
  const home = path.join(folder, 'home');
  await mkdir(home);
  const settings = loadSettings({ workPath: folder, overrides: { server: { DOMAIN: '127.0.0.1', HTTP_PORT: 0 }, database: { PATH: path.join(folder, 'bench.db') } } });
  const host = await RepoHost.open({ settings, noSecretKey: 'ephemeral' });
  const running = await startServer(host, { port: 0, hostname: '127.0.0.1' });
  const rows = [];
  try {
    if (typeof host.git.processesStarted !== 'number') throw new Error('the bench needs the native git backend (it counts git processes)');
    const user = await host.users.create(SYSTEM, { username: 'bench', email: 'bench@example.com', password: 'bench-password-123', admin: false });
    const { value: token } = await host.tokens.create(SYSTEM, user, { name: 'bench', scopes: ['write:repository', 'write:issue'] });
    const auth = { authorization: `token ${token}` };
    const env = gitEnv(home, token);
    await host.repos.create(userActor(user), { name: 'history' });
    const api = `${settings.server.ROOT_URL}api/v1`;
    const repoUrl = `${api}/repos/bench/history`;
    const pushUrl = `${settings.server.ROOT_URL}bench/history.git`;

    const source = path.join(folder, 'source.git');
    let started = performance.now();
    await seedIssueHistory(source, env, COMMITS);
    await mustGit(['--git-dir', source, 'push', '-q', pushUrl, 'main'], { env, timeoutMs: 300_000 });
    const served = path.join(settings.repository.ROOT, 'bench', 'history.git');
    log(`git-reads: seeded ${COMMITS} commits, pack ${((await packBytes(served)) / 2 ** 20).toFixed(1)} MiB on the server, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    log(`git-reads: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the start (the numbers are only comparable on a quiet machine)`);

    // Memory: this process (the server, and the bench's small share) before the load, after a full collection,
    // and its highest RSS while the load runs, sampled every 20 ms.
    await new Promise((resolve) => setTimeout(resolve, 500));
    collectGarbage();
    const rssBefore = process.memoryUsage.rss();
    let rssPeak = rssBefore;
    // The highest RSS since the current phase began, reported with it: which load makes the peak.
    let phasePeak = rssBefore;
    const sampler = setInterval(() => {
      const rss = process.memoryUsage.rss();
      rssPeak = Math.max(rssPeak, rss);
      phasePeak = Math.max(phasePeak, rss);
    }, 20);
    sampler.unref();

    /** Waits until no git process has started for a while (what a push set going in the background has ended). */
    const quiet = async () => {
      for (let last = -1; last !== host.git.processesStarted; ) {
        last = host.git.processesStarted;
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
    };

    /** Git processes started per request, over PROBE_REQUESTS sequential requests after one warm-up request. */
    const processesPer = async (url) => {
      await fetch(url, { headers: auth }).then((r) => r.arrayBuffer());
      const before = host.git.processesStarted;
      for (let i = 0; i < PROBE_REQUESTS; i++) await fetch(url, { headers: auth }).then((r) => r.arrayBuffer());
      return (host.git.processesStarted - before) / PROBE_REQUESTS;
    };

    /** Checks each case answers 200 with the expected count, then measures it and the repository read. */
    const phase = async (name, cases) => {
      await quiet();
      phasePeak = 0;
      // Refs changed less than 2 s ago are read again by the native backend (file time stamps are coarse): the
      // probes and measurements below are of a settled repository, as almost every read is.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const all = [['repository read', repoUrl], ...cases];
      for (const [label, url, expected] of all) {
        const probe = await fetch(url, { headers: auth });
        const body = await probe.json();
        if (probe.status !== 200 || (expected !== undefined && body.length !== expected)) {
          throw new Error(`${label} answered ${probe.status} with ${JSON.stringify(body).slice(0, 300)}`);
        }
      }
      const spawns = new Map();
      for (const [label, url] of all) spawns.set(label, await processesPer(url));
      for (const connections of CONNECTION_COUNTS) {
        let base;
        for (const [label, url] of all) {
          const result = await measure(url, connections, auth);
          base ??= result.rps;
          const row = { phase: name, label, connections, rps: result.rps, p50: result.p50Ms, p99: result.p99Ms, errors: result.errors, ratio: result.rps / base, spawns: spawns.get(label) };
          rows.push(row);
          log(
            `  [${name}] ${label.padEnd(44)} c=${String(connections).padStart(2)}  ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms.toFixed(1).padStart(7)} ms  p99 ${result.p99Ms.toFixed(1).padStart(7)} ms  ${row.ratio.toFixed(2)}× repo read  ${row.spawns.toFixed(1)} git proc/req${result.errors ? `  ${result.errors} errors` : ''}`,
          );
        }
      }
      log(`  [${name}] peak RSS while measured: +${((phasePeak - rssBefore) / MiB).toFixed(1)} MiB over the RSS before the load`);
    };

    // ---- phase 1: one branch ----------------------------------------------------------------------------
    await phase('1 branch', [
      ['GET /branches (1 branch)', `${repoUrl}/branches`, 1],
      ['GET /commits?limit=30 without stat/verif/files', `${repoUrl}/commits?limit=30&stat=false&verification=false&files=false`, 30],
      ['GET /commits?limit=30 (stats, files, verif.)', `${repoUrl}/commits?limit=30`, 30],
    ]);

    // What a page costs when it was never read (a tip just pushed, a page nobody asked for): pages 41 to 50,
    // one request at a time, each read once.
    for (const [label, query] of [
      ['first read of a commit page without stat/verif/files', 'stat=false&verification=false&files=false'],
      ['first read of a commit page with stats and files', 'stat=true'],
    ]) {
      const before = host.git.processesStarted;
      const times = [];
      for (let page = 41; page <= 50; page++) {
        const begin = performance.now();
        const res = await fetch(`${repoUrl}/commits?limit=30&page=${page}&${query}`, { headers: auth });
        if (res.status !== 200 || (await res.json()).length !== 30) throw new Error(`${label}: page ${page} answered ${res.status}`);
        times.push(performance.now() - begin);
      }
      times.sort((a, b) => a - b);
      const spawns = (host.git.processesStarted - before) / times.length;
      rows.push({ phase: '1 branch', label, connections: 1, rps: 1000 / times[5], p50: times[5], p99: times[9], errors: 0, ratio: Number.NaN, spawns });
      log(`  [1 branch] ${label.padEnd(52)} c= 1  p50 ${times[5].toFixed(1).padStart(7)} ms  max ${times[9].toFixed(1).padStart(7)} ms  ${spawns.toFixed(1)} git proc/req`);
    }

    // ---- phase 2: 50 branches ---------------------------------------------------------------------------
    started = performance.now();
    const refspecs = [];
    for (let i = 1; i < BRANCHES; i++) refspecs.push(`main~${i * 7}:refs/heads/topic-${String(i).padStart(2, '0')}`);
    await mustGit(['--git-dir', source, 'push', '-q', pushUrl, ...refspecs], { env, timeoutMs: 300_000 });
    log(`git-reads: pushed ${BRANCHES - 1} more branches in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await phase(`${BRANCHES} branches`, [
      ['GET /branches (50 branches, page of 30)', `${repoUrl}/branches`, 30],
      ['GET /branches?limit=50 (50 branches)', `${repoUrl}/branches?limit=50`, 50],
    ]);

    // ---- phase 3: 20 pull requests, 20 issues -----------------------------------------------------------
    started = performance.now();
    for (let i = 1; i <= PULLS; i++) {
      const res = await fetch(`${repoUrl}/pulls`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ base: 'main', head: `topic-${String(i).padStart(2, '0')}`, title: `pull ${i}` }),
      });
      if (res.status !== 201) throw new Error(`creating pull ${i} answered ${res.status}: ${await res.text()}`);
    }
    for (let i = 1; i <= ISSUES; i++) {
      const res = await fetch(`${repoUrl}/issues`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ title: `issue ${i}`, body: `body ${i}` }) });
      if (res.status !== 201) throw new Error(`creating issue ${i} answered ${res.status}: ${await res.text()}`);
    }
    log(`git-reads: opened ${PULLS} pull requests and ${ISSUES} issues in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await phase(`${PULLS} pulls`, [
      ['GET /pulls?state=all (20 pull requests)', `${repoUrl}/pulls?state=all&limit=20`, PULLS],
      ['GET /issues?state=all&type=issues (20)', `${repoUrl}/issues?state=all&type=issues&limit=20`, ISSUES],
    ]);

    // ---- phase 4: 32 parallel clones of the whole history ----------------------------------------------
    phasePeak = 0;
    const clones = await cloneLoad({ url: pushUrl, clients: CLONE_CLIENTS, warmupMs: 1000, durationMs: CLONE_MS, maxClones: 10_000, timeoutMs: 120_000, home });
    log(`  [clones] ${CLONE_CLIENTS} parallel git clones of the ${COMMITS}-commit repository: ${clones.clonesPerSecond.toFixed(1)}/s, p50 ${clones.p50Ms.toFixed(0)} ms, p99 ${clones.p99Ms.toFixed(0)} ms, ${clones.failedInWindow + clones.failedOutside} failed`);
    for (const f of clones.failures ?? []) log(`    clone failures: ${f.count}× ${f.reason}: ${f.first}`);
    log(`  [clones] peak RSS while measured: +${((phasePeak - rssBefore) / MiB).toFixed(1)} MiB over the RSS before the load`);
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    rows.memory = { beforeMiB: rssBefore / MiB, peakMiB: rssPeak / MiB };
    log(`git-reads: RSS ${(rssBefore / MiB).toFixed(1)} MiB before the load (after a full GC), peak ${(rssPeak / MiB).toFixed(1)} MiB under it (+${((rssPeak - rssBefore) / MiB).toFixed(1)} MiB), sampled every 20 ms`);
  } finally {
    await running.close();
    await host.close?.();
    await rm(folder, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await runGitReadsBench().catch((error) => {
    console.error(error);
    process.exit(1);
  });
  const find = (label, connections) => rows.find((r) => r.label === label && r.connections === connections);
  const verdict = (ok) => (ok ? 'PASS' : 'MISS');
  console.log('\nissue 28 targets (req/s ratios against the repository read of the same phase and connection count):');
  for (const connections of CONNECTION_COUNTS) {
    const b1 = find('GET /branches (1 branch)', connections);
    const b50 = find('GET /branches?limit=50 (50 branches)', connections);
    const lean = find('GET /commits?limit=30 without stat/verif/files', connections);
    const full = find('GET /commits?limit=30 (stats, files, verif.)', connections);
    const pulls = find('GET /pulls?state=all (20 pull requests)', connections);
    const issues = find('GET /issues?state=all&type=issues (20)', connections);
    console.log(`  c=${connections}`);
    console.log(`  ${verdict(b1.ratio >= 0.5)}  branch list, 1 branch ≥ 0.5× repository read: ${b1.ratio.toFixed(2)}×`);
    console.log(`  ${verdict(b50.ratio >= 0.5)}  branch list, 50 branches ≥ 0.5× repository read: ${b50.ratio.toFixed(2)}×`);
    console.log(`  ${verdict(lean.ratio >= 0.25)}  commit page of 30 without statistics ≥ 0.25× repository read: ${lean.ratio.toFixed(2)}×`);
    console.log(`  ${verdict(lean.rps / full.rps <= 3)}  with statistics and files costs ≤ 3× without: ${(lean.rps / full.rps).toFixed(2)}×`);
    console.log(`  ${verdict(pulls.rps >= issues.rps)}  pull list ≥ issue list (20 items each): ${(pulls.rps / issues.rps).toFixed(2)}×`);
  }
  if (rows.memory) console.log(`  ${verdict(rows.memory.peakMiB - rows.memory.beforeMiB <= 150)}  peak RSS under the load ≤ RSS before it + 150 MiB: +${(rows.memory.peakMiB - rows.memory.beforeMiB).toFixed(1)} MiB`);
  const spawnLine = rows.filter((r) => r.connections !== CONNECTION_COUNTS[1]).map((r) => `[${r.phase}] ${r.label.split(' (')[0]}${r.label.includes('(') ? ` (${r.label.split(' (')[1]}` : ''}: ${r.spawns.toFixed(1)}`);
  console.log(`\ngit processes per request (sequential, after a warm-up request):\n  ${spawnLine.join('\n  ')}`);
}
