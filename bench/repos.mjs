/**
 * Repository benchmarks (`npm run bench:repos`, also run at the end of `npm run bench`):
 *
 * 1. Clone of a repository like issue 28's (2,000 commits, a pack of about 21 MiB) over smart HTTP from a RepoHost
 *    server in this process, against `git clone --no-local` of the same bare repository from its path: median of
 *    CLONE_RUNS runs each (15; BENCH_CLONE_RUNS), after one warm-up of each, right after the push and again once
 *    the refs have settled (REFS_SETTLE_MS). Target: within
 *    10 % (the settled figure: every clone but those in the first 2 s after a change). Then `--depth 1` and
 *    `--filter=blob:none` clones against the same over file://, and the full clone again after `git gc` (one pack
 *    with a bitmap, as maintenance leaves it).
 * 2. Creating empty repositories: `host.repos.create` in a closed loop for CREATE_MS, and the storage step alone
 *    two ways: the backend's skeleton (no git process) and the former way (`git init --bare` plus three
 *    `git config` runs), each CREATE_STORAGE_COUNT times. Target: the whole create at ≥ 2× the former rate, measured
 *    by replacing the skeleton with the former steps in the same loop.
 *
 * Everything runs on loopback in a temporary folder that is removed at the end.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RepoHost, SYSTEM, loadSettings, userActor } from '@repohost/core';
import { startServer } from '@repohost/server';
import { gitEnv, mustGit, seedIssueHistory } from './git-client.mjs';

const COMMITS = 2000;
/** Clones each way per figure: the settled ratio moved by ±0.05 between runs of 5, about the target's margin. */
const CLONE_RUNS = Number(process.env.BENCH_CLONE_RUNS ?? 15);
const CREATE_MS = 5000;
/** Past core's RACY_MS (2 s): from then on the ref listing of an unchanged repository is kept, not read with git. */
const REFS_SETTLE_MS = 2100;

/** Runs a command to its end; resolves with elapsed milliseconds, rejects on a non-zero exit. */
function timed(command, args, options) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${command} ${args.join(' ')}: ${stderr}`))));
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function runRepoBench(log = console.log) {
  const work = await mkdtemp(path.join(tmpdir(), 'repohost-bench-repos-'));
  const home = path.join(work, 'home');
  await mkdir(home);
  const settings = loadSettings({ workPath: work, overrides: { server: { DOMAIN: '127.0.0.1', HTTP_PORT: 0 }, database: { PATH: path.join(work, 'bench.db') } } });
  const host = await RepoHost.open({ settings, noSecretKey: 'ephemeral' });
  const running = await startServer(host, { port: 0, hostname: '127.0.0.1' });
  const results = {};
  try {
    const user = await host.users.create(SYSTEM, { username: 'bench', email: 'bench@example.com', password: 'bench-password-123', admin: false });
    const actor = userActor(user);
    const { value: token } = await host.tokens.create(SYSTEM, user, { name: 'bench', scopes: ['write:repository'] });
    const env = gitEnv(home, token);

    // ---- 1. clone of a 2,000-commit repository ------------------------------------------------------
    await host.repos.create(actor, { name: 'history' });
    const source = path.join(work, 'source.git');
    await seedIssueHistory(source, env, COMMITS);
    await mustGit(['--git-dir', source, 'push', '-q', `${settings.server.ROOT_URL}bench/history.git`, 'main'], { env, timeoutMs: 300_000 });
    const bare = path.join(settings.repository.ROOT, 'bench', 'history.git');
    const url = `${settings.server.ROOT_URL}bench/history.git`;
    /**
     * Median ms of `git clone --bare <extra>` over HTTP and from the path (`local`: the same with file:// or
     * --no-local), alternating; and the spread of the pairs' own ratios (each HTTP clone over the local one after it).
     */
    const clonePair = async (extra, local) => {
      const viaHttp = [];
      const viaPath = [];
      for (let run = 0; run <= CLONE_RUNS; run++) {
        const a = path.join(work, `http-${run}`);
        const b = path.join(work, `local-${run}`);
        const http = await timed('git', ['clone', '-q', '--bare', ...extra, url, a], { env });
        const direct = await timed('git', ['clone', '-q', '--bare', ...extra, ...local, b], { env });
        await rm(a, { recursive: true, force: true });
        await rm(b, { recursive: true, force: true });
        // Run 0 warms caches for both.
        if (run > 0) {
          viaHttp.push(http);
          viaPath.push(direct);
        }
      }
      const pairs = viaHttp.map((ms, i) => ms / viaPath[i]).sort((x, y) => x - y);
      return { http: median(viaHttp), local: median(viaPath), ratio: median(viaHttp) / median(viaPath), pairs: `pairs ${pairs[0].toFixed(2)}–${pairs.at(-1).toFixed(2)}×, median ${median(pairs).toFixed(2)}×` };
    };
    // Right after the push, as a CI job triggered by it clones: for REFS_SETTLE_MS after refs change, the ref listing
    // that answers ls-refs is read with git each time, not kept (a file system's coarse clock could hide a change).
    const afterPush = await clonePair([], ['--no-local', bare]);
    results.cloneAfterPushRatio = afterPush.ratio;
    log(`clone of a ${COMMITS}-commit repository (median of ${CLONE_RUNS}), within 2 s of the push: over HTTP ${afterPush.http.toFixed(0)} ms, git clone --no-local from the path ${afterPush.local.toFixed(0)} ms (${afterPush.ratio.toFixed(2)}×; ${afterPush.pairs})`);
    // Once the refs have settled: what every later clone of an unchanged repository costs.
    await new Promise((resolve) => setTimeout(resolve, REFS_SETTLE_MS));
    const full = await clonePair([], ['--no-local', bare]);
    results.cloneHttpMs = full.http;
    results.cloneLocalMs = full.local;
    results.cloneRatio = full.ratio;
    log(`  refs settled: over HTTP ${results.cloneHttpMs.toFixed(0)} ms, --no-local ${results.cloneLocalMs.toFixed(0)} ms (${results.cloneRatio.toFixed(2)}×; ${full.pairs})`);
    // Shallow and partial clones need a transport: file:// (upload-pack over a pipe, as --no-local) is the local one.
    for (const [label, extra] of [['--depth 1', ['--depth', '1']], ['--filter=blob:none', ['--filter=blob:none']]]) {
      const r = await clonePair(extra, [`file://${bare}`]);
      results[`clone ${label}`] = r;
      log(`  ${label}: over HTTP ${r.http.toFixed(0)} ms, over file:// ${r.local.toFixed(0)} ms (${r.ratio.toFixed(2)}×; ${r.pairs})`);
    }
    // What maintenance leaves: `git gc` (cron git_gc_repos) repacks into one pack with a bitmap (bare repositories
    // write bitmaps by default), which both sides then use.
    await mustGit(['--git-dir', bare, 'gc', '--quiet'], { env, timeoutMs: 120_000 });
    await new Promise((resolve) => setTimeout(resolve, REFS_SETTLE_MS));
    const packed = await clonePair([], ['--no-local', bare]);
    results.clonePackedRatio = packed.ratio;
    log(`  after git gc (one pack, bitmap): over HTTP ${packed.http.toFixed(0)} ms, --no-local ${packed.local.toFixed(0)} ms (${packed.ratio.toFixed(2)}×; ${packed.pairs})`);

    // ---- 2. creating empty repositories ---------------------------------------------------------------
    const createLoop = async (label) => {
      let count = 0;
      const started = performance.now();
      while (performance.now() - started < CREATE_MS) await host.repos.create(actor, { name: `${label}-${count++}` });
      return (count / (performance.now() - started)) * 1000;
    };
    results.createPerSecond = await createLoop('skeleton');
    // The former storage step, in the same loop: git init --bare and three git config runs per repository.
    const git = host.git;
    const skeletonCreate = git.create.bind(git);
    git.create = async (key, options) => {
      const dir = git.pathOf(key);
      await mkdir(path.dirname(dir), { recursive: true });
      await timed('git', ['init', '--bare', '--quiet', '--shared=0600', `--object-format=${options.objectFormat}`, `--initial-branch=${options.defaultBranch}`, dir], { env });
      for (const [name, value] of [['uploadpack.allowFilter', 'true'], ['uploadpack.allowAnySHA1InWant', 'true'], ['receive.advertisePushOptions', 'true']]) {
        await timed('git', ['--git-dir', dir, 'config', name, value], { env });
      }
    };
    const formerPerSecond = await createLoop('former');
    git.create = skeletonCreate;
    results.formerCreatePerSecond = formerPerSecond;
    results.createRatio = results.createPerSecond / formerPerSecond;
    log(`empty repository creation (host.repos.create, closed loop, ${CREATE_MS / 1000} s each): ${results.createPerSecond.toFixed(0)}/s with the skeleton, ${formerPerSecond.toFixed(0)}/s with git init + 3 git config (${results.createRatio.toFixed(2)}×)`);
  } finally {
    await running.close();
    await host.close();
    await rm(work, { recursive: true, force: true });
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await runRepoBench();
  const verdict = (ok) => (ok ? 'PASS' : 'MISS');
  console.log(`${verdict(results.cloneRatio <= 1.1)}  clone within 10% of git clone --no-local: ${results.cloneRatio.toFixed(2)}× (within 2 s of the push: ${results.cloneAfterPushRatio.toFixed(2)}×)`);
  console.log(`${verdict(results.createRatio >= 2)}  empty repository creation ≥ 2× the former rate: ${results.createRatio.toFixed(2)}×`);
}
