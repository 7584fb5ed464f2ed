/**
 * Git clients for bench/run.mjs: the real `git` binary over smart HTTP, one command at a time (`runGit`) or as a
 * closed loop of parallel clones (`cloneLoad`). Every git process is bounded by a timeout and killed with the
 * helpers it started; every clone folder is removed as soon as its clone has finished.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Bytes of a git process's stderr kept for the report: enough for git's `fatal:` line, bounded for 32 clients. */
const STDERR_LIMIT = 4096;
const STDOUT_LIMIT = 64 * 1024;

/**
 * The environment of every client git: no system or user configuration (an engineer's url rewrites, credential
 * helpers or proxies must not change what is measured, and a proxy must never see loopback traffic), never a
 * prompt (a 401 fails at once instead of waiting for a terminal), a fixed identity, and the C locale so error
 * text can be matched. A token rides in `http.extraHeader` through GIT_CONFIG_* so it is not on a command line.
 */
export function gitEnv(home, token) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('GIT_') || /^(https?|all|no)_proxy$/i.test(key)) continue;
    env[key] = value;
  }
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'Bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
    LC_ALL: 'C',
  });
  if (token) {
    env.GIT_CONFIG_COUNT = '1';
    env.GIT_CONFIG_KEY_0 = 'http.extraHeader';
    env.GIT_CONFIG_VALUE_0 = `Authorization: token ${token}`;
  }
  return env;
}

/**
 * Runs `git args…`; resolves (never rejects) with { code, signal, timedOut, ms, stderr, stdout }. code is null when
 * git was killed and -1 when it could not be started.
 */
export function runGit(args, { cwd, env, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    // Its own process group, so a timeout also kills the helpers git started (git-remote-http, index-pack…).
    const child = spawn('git', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (c) => {
      if (stdout.length < STDOUT_LIMIT) stdout += c;
    });
    child.stderr.on('data', (c) => {
      if (stderr.length < STDERR_LIMIT) stderr += c;
    });
    let timedOut = false;
    let settled = false;
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ timedOut, ms: performance.now() - started, stdout, stderr, ...result });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.once('error', (error) => finish({ code: -1, signal: null, stderr: `${stderr}${error.message}` }));
    child.once('close', (code, signal) => finish({ code, signal }));
  });
}

/** Runs git and throws with its stderr unless it exits 0; returns its stdout. */
export async function mustGit(args, options) {
  const result = await runGit(args, options);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${describeFailure(result)}): ${result.stderr.trim()}`);
  return result.stdout;
}

/**
 * A short, countable reason for a failed git run: the HTTP status git reports (so 503s from a full git pool are
 * named as such), a timeout, a signal, or git's first `fatal:`/`error:` line.
 */
export function describeFailure(result) {
  if (result.timedOut) return 'timeout';
  const http = /returned error: (\d{3})/.exec(result.stderr);
  if (http) return `HTTP ${http[1]}`;
  if (result.signal) return `signal ${result.signal}`;
  const line = result.stderr.split('\n').find((l) => /^(fatal|error):/.test(l.trim())) ?? result.stderr.split('\n').find((l) => l.trim());
  return line ? line.trim().slice(0, 120) : `exit ${result.code}`;
}

/** First line of a failure's stderr worth quoting in the report. */
export function firstErrorText(result) {
  if (result.timedOut) return `killed after ${result.ms.toFixed(0)} ms${result.stderr.trim() ? `; stderr: ${result.stderr.trim().slice(0, 200)}` : ''}`;
  const text = result.stderr.trim();
  return (text.split('\n').find((l) => /^(fatal|error):/.test(l.trim())) ?? text.split('\n')[0] ?? '').trim().slice(0, 300) || `exit ${result.code}`;
}

/** Bytes of the pack files in a clone (what a clone of the repository transfers, give or take the protocol). */
export async function packBytes(cloneDir) {
  const packDir = path.join(cloneDir, '.git', 'objects', 'pack');
  let total = 0;
  for (const name of await readdir(packDir)) if (name.endsWith('.pack')) total += (await stat(path.join(packDir, name))).size;
  return total;
}

/** Nearest-rank percentile of a sorted array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * `clients` workers, each cloning `url` into a fresh folder, removing it and starting the next clone, until the
 * warm-up and the measured window are over or `maxClones` have started. A clone counts for the window when it
 * finishes inside it (so clones/s is completions per second, not biased down by clones straddling the edges);
 * clones finishing during warm-up or after the window are still waited for, cleaned up, and their failures
 * reported separately.
 */
export async function cloneLoad({ url, clients, warmupMs, durationMs, maxClones, timeoutMs, home }) {
  const root = await mkdtemp(path.join(tmpdir(), 'repohost-bench-clones-'));
  const env = gitEnv(home);
  const begin = performance.now();
  const warmEnd = begin + warmupMs;
  const end = warmEnd + durationMs;
  let started = 0;
  const latencies = [];
  const failures = new Map(); // reason -> { count, first }
  let failedInWindow = 0;
  let failedOutside = 0;
  let okOutside = 0;

  const worker = async (id) => {
    for (let n = 0; ; n++) {
      if (performance.now() >= end || started >= maxClones) return;
      started += 1;
      const dir = path.join(root, `c${id}-${n}`);
      const result = await runGit(['clone', '--quiet', url, dir], { env, timeoutMs });
      const finished = performance.now();
      // Before the next clone: at most `clients` clones are ever on disk.
      await rm(dir, { recursive: true, force: true });
      const inWindow = finished >= warmEnd && finished <= end;
      if (result.code === 0) {
        if (inWindow) latencies.push(result.ms);
        else okOutside += 1;
        continue;
      }
      if (inWindow) failedInWindow += 1;
      else failedOutside += 1;
      const reason = describeFailure(result);
      const entry = failures.get(reason) ?? { count: 0, first: firstErrorText(result) };
      entry.count += 1;
      failures.set(reason, entry);
    }
  };

  try {
    await Promise.all(Array.from({ length: clients }, (_, i) => worker(i)));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  latencies.sort((a, b) => a - b);
  return {
    url,
    clients,
    seconds: durationMs / 1000,
    started,
    ok: latencies.length,
    okOutside,
    failedInWindow,
    failedOutside,
    failures: [...failures].map(([reason, v]) => ({ reason, ...v })).sort((a, b) => b.count - a.count),
    clonesPerSecond: latencies.length / (durationMs / 1000),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.length ? latencies[latencies.length - 1] : Number.NaN,
    wallMs: performance.now() - begin,
  };
}

/**
 * A repository at `dir` (branch `main`, not checked out) holding `commits` commits, each changing three of 400
 * files in 20 folders, written with one `git fast-import`.
 */
export async function seedHistory(dir, env, commits) {
  await mustGit(['init', '-q', '-b', 'main', dir], { env });
  const lines = [];
  for (let i = 1; i <= commits; i++) {
    lines.push('commit refs/heads/main', `mark :${i}`, `committer Bench <bench@example.com> ${1700000000 + i} +0000`);
    const message = `commit ${i}\n`;
    lines.push(`data ${Buffer.byteLength(message)}`, message.trimEnd());
    if (i > 1) lines.push(`from :${i - 1}`);
    for (let f = 0; f < 3; f++) {
      const body = `file ${(i * 7 + f) % 400} changed in commit ${i}\n${'x'.repeat(200 + ((i * 13 + f) % 800))}\n`;
      lines.push(`M 100644 inline src/dir${(i + f) % 20}/file${(i * 7 + f) % 400}.txt`, `data ${Buffer.byteLength(body)}`, body.trimEnd());
    }
    lines.push('');
  }
  await new Promise((resolve, reject) => {
    const child = spawn('git', ['fast-import', '--quiet'], { cwd: dir, env, stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import exited ${code}`))));
    child.stdin.end(`${lines.join('\n')}\n`);
  });
}

/** Random bytes per commit of `seedIssueHistory` (base64 in the file): about 10 KiB of the pack each. */
const RANDOM_BYTES_PER_COMMIT = 10_500;

/**
 * A bare repository like issue 28's at `dir`: `commits` commits on main, each rewriting one of 100 files with fresh
 * random text (2,000 commits: a pack of about 21 MiB), packed into one pack.
 */
export async function seedIssueHistory(dir, env, commits) {
  const parts = [];
  for (let i = 1; i <= commits; i++) {
    const when = 1700000000 + i * 60;
    const message = `change ${i}\n\nA body line for commit ${i}.\n`;
    const body = `${randomBytes(RANDOM_BYTES_PER_COMMIT).toString('base64')}\n`;
    parts.push(
      'commit refs/heads/main',
      `mark :${i}`,
      `author Bench <bench@example.com> ${when} +0000`,
      `committer Bench <bench@example.com> ${when} +0000`,
      `data ${Buffer.byteLength(message)}`,
      message,
    );
    if (i > 1) parts.push(`from :${i - 1}`);
    parts.push(`M 100644 inline data/part${i % 10}/file${i % 100}.txt`, `data ${Buffer.byteLength(body)}`, body, '');
  }
  await fastImport(dir, env, parts);
  await mustGit(['--git-dir', dir, 'repack', '-adq'], { env, timeoutMs: 300_000 });
}

/** A new bare repository at `dir` holding what the fast-import stream `lines` describes. */
export async function fastImport(dir, env, lines) {
  await mustGit(['init', '-q', '--bare', dir], { env });
  await new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', dir, 'fast-import', '--quiet'], { env, stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import exited ${code}`))));
    child.stdin.end(`${lines.join('\n')}\n`);
  });
}
