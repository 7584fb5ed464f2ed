/**
 * Mixed soak for bench/run.mjs: drives a running server with API reads, repository creates and deletes, git
 * clones and git pushes at once, for a warm-up and then a measured window, while sampling the server process's
 * VmRSS once a second. Only operations that start inside the measured window are counted; the ones in flight when
 * it ends are still waited for (each is bounded by its timeout), so the function returns by itself.
 */
import http from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeFailure, firstErrorText, gitEnv, percentile, runGit } from './git-client.mjs';

const HTTP_TIMEOUT_MS = 10_000;
/** A fall of RSS this large below its peak marks a full GC (young-generation GCs move far less). */
const GC_DROP_MIB = 8;
const sleep = (n) => new Promise((resolve) => setTimeout(resolve, n));

/** VmRSS of a process, in MiB; throws when the process is gone (a crash must not look like a flat line). */
export async function rssMiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) / 1024;
}

/** One request; resolves (never rejects) with { status, body } where status 0 is a transport error. */
function send(agent, method, url, { headers = {}, json } = {}) {
  return new Promise((resolve) => {
    const body = json === undefined ? undefined : JSON.stringify(json);
    const allHeaders = { accept: 'application/json', ...headers };
    if (body !== undefined) Object.assign(allHeaders, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    const req = http.request(url, { method, agent, headers: allHeaders, timeout: HTTP_TIMEOUT_MS }, (res) => {
      // Keep only the start of the body: enough for an error message.
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        if (text.length < 1024) text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', (error) => resolve({ status: 0, body: error.message }));
    });
    req.on('timeout', () => req.destroy(new Error(`timeout after ${HTTP_TIMEOUT_MS} ms`)));
    req.on('error', (error) => resolve({ status: 0, body: error.message }));
    req.end(body);
  });
}

/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? Number.NaN : num / den;
}

const average = (values) => (values.length ? values.reduce((s, v) => s + v, 0) / values.length : Number.NaN);

/**
 * Runs the soak against `base` (e.g. `http://127.0.0.1:1234/`), served by process `pid`.
 * `mix` says how many closed-loop workers of each sort run: { readers, writers, cloners, pushers }.
 * `pushRepo` is created for the pushes (branch `soak-<pusher>`) and deleted afterwards; it must not exist yet.
 */
export async function runSoak({ base, pid, owner, repo, pushRepo, readToken, writeToken, home, warmupMs, warmupMaxMs, durationMs, gitTimeoutMs, mix, alive }) {
  // The window opens when the sampler ends the warm-up; until then nothing is counted and nothing stops.
  let soakStart = Number.POSITIVE_INFINITY;
  let soakEnd = Number.POSITIVE_INFINITY;
  // Set when the sampler fails (the server died): the workers then stop at once instead of at the window's end.
  let stopped = false;
  const over = () => stopped || performance.now() >= soakEnd;
  const root = await mkdtemp(path.join(tmpdir(), 'repohost-bench-soak-'));
  const agent = new http.Agent({ keepAlive: true, maxSockets: mix.readers + mix.writers + 2 });
  const readAuth = { authorization: `token ${readToken}` };
  const writeAuth = { authorization: `token ${writeToken}` };
  const anonGit = gitEnv(home);
  const pushGit = gitEnv(home, writeToken);

  const kinds = new Map();
  const kind = (label) => {
    if (!kinds.has(label)) kinds.set(label, { label, count: 0, failed: 0, statuses: {}, first: '', latencies: [] });
    return kinds.get(label);
  };
  /** Counts one operation if it started inside the measured window. */
  const record = (label, startedAt, { ok, status, ms, error }) => {
    const k = kind(label);
    if (startedAt < soakStart || startedAt >= soakEnd) return;
    k.count += 1;
    k.statuses[status] = (k.statuses[status] ?? 0) + 1;
    if (ok) k.latencies.push(ms);
    else {
      k.failed += 1;
      if (!k.first) k.first = `${status}: ${String(error).trim().slice(0, 300)}`;
    }
  };
  /** One timed API call, recorded under `label`; resolves with the status. */
  const call = async (label, method, url, options, expected) => {
    const startedAt = performance.now();
    const res = await send(agent, method, url, options);
    record(label, startedAt, { ok: res.status === expected, status: res.status, ms: performance.now() - startedAt, error: res.body });
    return res.status;
  };
  /** One timed git command, recorded under `label`; resolves with true on success. */
  const git = async (label, args, env) => {
    const startedAt = performance.now();
    const result = await runGit(args, { env, timeoutMs: gitTimeoutMs });
    const ok = result.code === 0;
    record(label, startedAt, { ok, status: ok ? 'ok' : describeFailure(result), ms: result.ms, error: ok ? '' : firstErrorText(result) });
    return ok;
  };

  const reads = [
    ['GET /api/v1/version', `${base}api/v1/version`, {}],
    [`GET /api/v1/repos/${owner}/${repo} (anonymous)`, `${base}api/v1/repos/${owner}/${repo}`, {}],
    [`GET /api/v1/repos/${owner}/${repo} (token)`, `${base}api/v1/repos/${owner}/${repo}`, { headers: readAuth }],
    [`GET /api/v1/users/${owner}/repos?limit=50`, `${base}api/v1/users/${owner}/repos?limit=50`, {}],
  ];
  for (const [label] of reads) kind(label);
  kind('POST /api/v1/user/repos (token)');
  kind(`DELETE /api/v1/repos/${owner}/NAME (token)`);
  kind(`git clone ${owner}/${repo} (anonymous)`);
  kind(`git push ${owner}/${pushRepo} (token)`);

  const reader = async (id) => {
    for (let i = id; !over(); i++) {
      const [label, url, options] = reads[i % reads.length];
      await call(label, 'GET', url, options, 200);
    }
  };

  // Creates a repository and deletes it again, alternating empty and initialised ones (the latter writes a commit).
  const writer = async (id) => {
    for (let n = 0; !over(); n++) {
      const name = `soak-${id}-${n}`;
      const created = await call('POST /api/v1/user/repos (token)', 'POST', `${base}api/v1/user/repos`, { headers: writeAuth, json: { name, auto_init: n % 2 === 1 } }, 201);
      // Deleted even when the window has just closed, so no soak repository is left behind.
      if (created === 201) await call(`DELETE /api/v1/repos/${owner}/NAME (token)`, 'DELETE', `${base}api/v1/repos/${owner}/${name}`, { headers: writeAuth }, 204);
    }
  };

  const cloner = async (id) => {
    for (let n = 0; !over(); n++) {
      const dir = path.join(root, `clone-${id}-${n}`);
      await git(`git clone ${owner}/${repo} (anonymous)`, ['clone', '--quiet', `${base}${owner}/${repo}.git`, dir], anonGit);
      await rm(dir, { recursive: true, force: true });
    }
  };

  // Clones once, then commits one changed file and pushes it, again and again; only the push is timed.
  const pusher = async (id) => {
    const dir = path.join(root, `push-${id}`);
    const label = `git push ${owner}/${pushRepo} (token)`;
    while (!over()) {
      const cloned = await runGit(['clone', '--quiet', `${base}${owner}/${pushRepo}.git`, dir], { env: pushGit, timeoutMs: gitTimeoutMs });
      if (cloned.code === 0) break;
      record(label, performance.now(), { ok: false, status: `clone: ${describeFailure(cloned)}`, ms: 0, error: firstErrorText(cloned) });
      await rm(dir, { recursive: true, force: true });
      await sleep(500);
    }
    for (let n = 0; !over(); n++) {
      await writeFile(path.join(dir, `pusher-${id}.txt`), `push ${n} at ${new Date().toISOString()}\n`);
      let local = await runGit(['-C', dir, 'add', `pusher-${id}.txt`], { env: pushGit, timeoutMs: gitTimeoutMs });
      if (local.code === 0) local = await runGit(['-C', dir, 'commit', '--quiet', '-m', `soak push ${n}`], { env: pushGit, timeoutMs: gitTimeoutMs });
      if (local.code !== 0) {
        record(label, performance.now(), { ok: false, status: `commit: ${describeFailure(local)}`, ms: 0, error: firstErrorText(local) });
        await sleep(500);
        continue;
      }
      await git(label, ['-C', dir, 'push', '--quiet', 'origin', `HEAD:refs/heads/soak-${id}`], pushGit);
    }
  };

  /**
   * Decides when the warm-up ends and samples the window. The warm-up lasts at least `warmupMs`, and until the
   * server's RSS has fallen GC_DROP_MIB below its peak (V8's first full GC; until then its RSS climbs by some
   * 20 MiB however little is leaking, and how long that takes depends on how much work the machine gets done),
   * or `warmupMaxMs` at most. Window samples are taken at fixed offsets from its start (0 s, 1 s, …), each with
   * the time it was actually taken.
   */
  const samples = [];
  const warmup = { seconds: 0, endedBy: 'cap', peak: 0, drop: null };
  const rss = async () => {
    if (!alive()) throw new Error('the server process exited during the soak');
    return rssMiB(pid);
  };
  const sampler = async () => {
    try {
      const begin = performance.now();
      for (let i = 1; ; i++) {
        await sleep(Math.max(0, begin + i * 1000 - performance.now()));
        const mib = await rss();
        warmup.peak = Math.max(warmup.peak, mib);
        const elapsed = performance.now() - begin;
        if (!warmup.drop && warmup.peak - mib >= GC_DROP_MIB) warmup.drop = { from: warmup.peak, to: mib, atSeconds: elapsed / 1000 };
        if (elapsed >= warmupMs && (warmup.drop || elapsed >= warmupMaxMs)) break;
      }
      warmup.endedBy = warmup.drop ? 'gc' : 'cap';
      soakStart = performance.now();
      soakEnd = soakStart + durationMs;
      warmup.seconds = (soakStart - begin) / 1000;
      for (let i = 0; ; i++) {
        const due = soakStart + i * 1000;
        if (due > soakEnd) return;
        await sleep(Math.max(0, due - performance.now()));
        samples.push({ t: (performance.now() - soakStart) / 1000, mib: await rss() });
      }
    } catch (error) {
      stopped = true;
      throw error;
    }
  };

  try {
    // The pushes go to a repository of their own, so bench/hello stays the same small clone subject all along.
    const pushTarget = `${base}api/v1/repos/${owner}/${pushRepo}`;
    const created = await send(agent, 'POST', `${base}api/v1/user/repos`, { headers: writeAuth, json: { name: pushRepo, auto_init: true } });
    if (created.status !== 201) throw new Error(`creating ${owner}/${pushRepo} for the soak's pushes: ${created.status} ${created.body}`);
    // allSettled: clean up only after every worker has stopped, then report the first failure.
    const settled = await Promise.allSettled([
      sampler(),
      ...Array.from({ length: mix.readers }, (_, i) => reader(i)),
      ...Array.from({ length: mix.writers }, (_, i) => writer(i)),
      ...Array.from({ length: mix.cloners }, (_, i) => cloner(i)),
      ...Array.from({ length: mix.pushers }, (_, i) => pusher(i)),
    ]);
    const failure = settled.find((r) => r.status === 'rejected');
    if (failure) throw failure.reason;
    const deleted = await send(agent, 'DELETE', pushTarget, { headers: writeAuth });
    if (deleted.status !== 204) throw new Error(`deleting ${owner}/${pushRepo} after the soak: ${deleted.status} ${deleted.body}`);
  } finally {
    agent.destroy();
    await rm(root, { recursive: true, force: true });
  }

  const seconds = durationMs / 1000;
  // The first and last 10 s (a third of the window when it is shorter than 30 s) are compared for growth.
  const edge = Math.min(10, seconds / 3);
  const mibs = samples.map((s) => s.mib);
  const firstAvg = average(samples.filter((s) => s.t < edge).map((s) => s.mib));
  const lastAvg = average(samples.filter((s) => s.t >= seconds - edge).map((s) => s.mib));
  const trend = samples.filter((s) => s.t >= edge).map((s) => ({ x: s.t, y: s.mib }));
  return {
    seconds,
    warmup,
    mix,
    kinds: [...kinds.values()].map((k) => {
      const sorted = k.latencies.sort((a, b) => a - b);
      return { ...k, latencies: undefined, perSecond: k.count / seconds, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
    }),
    samples,
    rss: {
      start: mibs[0],
      min: Math.min(...mibs),
      max: Math.max(...mibs),
      end: mibs[mibs.length - 1],
      edgeSeconds: edge,
      firstAvg,
      lastAvg,
      growth: lastAvg - firstAvg,
      slopePerMinute: slope(trend) * 60,
      trendSamples: trend.length,
    },
  };
}
