/**
 * What the history benchmarks (bench/commits.mjs, bench/contents.mjs) share: a server in this process over a
 * temporary folder, a `bench/history` repository filled by one `git fast-import` and pushed over HTTP, and load
 * from bench/loadgen.mjs in its own process.
 */
import { fork } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RepoHost, SYSTEM, loadSettings, userActor } from '@repohost/core';
import { startServer } from '@repohost/server';
import { fastImport, gitEnv, mustGit } from './git-client.mjs';

export const CONNECTIONS = 8;
const WARMUP_MS = 1000;
const DURATION_MS = 5000;
const LOADGEN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'loadgen.mjs');

/** req/s and latencies of GET `url` (or of `paths` in turn on its origin), measured by loadgen in a child process. */
export function measure(url, paths) {
  return new Promise((resolve, reject) => {
    const child = fork(LOADGEN, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (message) => (message.ok ? resolve(message.result) : reject(new Error(message.error))));
    child.once('error', reject);
    child.send({ url, connections: CONNECTIONS, warmupMs: WARMUP_MS, durationMs: DURATION_MS, paths });
  });
}

/**
 * For each `[label, url, expected]`: checks one GET answers 200 (with `expected` items when given), then measures
 * it; records req/s under the label in `results` and logs the numbers.
 */
export async function measureCases(cases, results, log) {
  for (const [label, url, expected] of cases) {
    const probe = await fetch(url);
    const body = await probe.json();
    if (probe.status !== 200 || (expected !== undefined && body.length !== expected)) throw new Error(`${label} answered ${probe.status} with ${JSON.stringify(body).slice(0, 200)}`);
    const result = await measure(url);
    results[label] = result.rps;
    log(`${label}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms (${CONNECTIONS} connections, ${result.errors ?? 0} errors)`);
  }
}

/**
 * Runs `work({ settings, env, source })` against a server whose `bench/history` repository holds the history the
 * fast-import stream `lines` describes (its branch `main`), then removes everything. `label` names the log line
 * that says how long seeding took.
 */
export async function withHistoryServer(label, lines, work, log = console.log) {
  const folder = await mkdtemp(path.join(tmpdir(), `repohost-bench-${label}-`));
  const home = path.join(folder, 'home');
  await mkdir(home);
  const settings = loadSettings({ workPath: folder, overrides: { server: { DOMAIN: '127.0.0.1', HTTP_PORT: 0 }, database: { PATH: path.join(folder, 'bench.db') } } });
  const host = await RepoHost.open({ settings, noSecretKey: 'ephemeral' });
  const running = await startServer(host, { port: 0, hostname: '127.0.0.1' });
  try {
    const user = await host.users.create(SYSTEM, { username: 'bench', email: 'bench@example.com', password: 'bench-password-123', admin: false });
    const { value: token } = await host.tokens.create(SYSTEM, user, { name: 'bench', scopes: ['write:repository'] });
    const env = gitEnv(home, token);
    await host.repos.create(userActor(user), { name: 'history' });
    const source = path.join(folder, 'source.git');
    const started = performance.now();
    await fastImport(source, env, lines);
    await mustGit(['--git-dir', source, 'push', '-q', `${settings.server.ROOT_URL}bench/history.git`, 'main'], { env, timeoutMs: 300_000 });
    log(`${label}: seeded ${lines.filter((l) => l.startsWith('commit refs/')).length} commits in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return await work({ settings, env, source });
  } finally {
    await running.close();
    await host.close?.();
    await rm(folder, { recursive: true, force: true });
  }
}
