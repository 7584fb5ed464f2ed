/**
 * Commits benchmark (run by `npm run bench`): `GET /repos/{owner}/{repo}/commits?limit=50` req/s on a
 * 10,000-commit repository, without statistics (`stat=false`: one `git log`, one `rev-list --count`, one users
 * query, the page's raw commits read for verification) and with them (`stat=true`: the same `git log` diffs every
 * commit). Load comes from bench/loadgen.mjs in its own process; the server runs in this one, on loopback, in a
 * temporary folder removed at the end.
 *
 *   node bench/commits.mjs
 */
import { fork, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RepoHost, SYSTEM, loadSettings, userActor } from '@repohost/core';
import { startServer } from '@repohost/server';
import { gitEnv, mustGit } from './git-client.mjs';

const COMMITS = 10_000;
const CONNECTIONS = 8;
const WARMUP_MS = 1000;
const DURATION_MS = 5000;
const LOADGEN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'loadgen.mjs');

/** COMMITS commits by the bench account's address, each changing one of 200 files, from one `git fast-import`. */
async function seed(dir, env) {
  await mustGit(['init', '-q', '--bare', dir], { env });
  const lines = [];
  for (let i = 1; i <= COMMITS; i++) {
    const when = 1700000000 + i * 60;
    lines.push('commit refs/heads/main', `mark :${i}`, `author Bench <bench@example.com> ${when} +0000`, `committer Bench <bench@example.com> ${when} +0000`);
    const message = `change ${i}\n\nA body line for commit ${i}.\n`;
    lines.push(`data ${Buffer.byteLength(message)}`, message);
    if (i > 1) lines.push(`from :${i - 1}`);
    const body = `line one of ${i}\nline two\n${'y'.repeat(i % 300)}\n`;
    lines.push(`M 100644 inline lib/part${i % 10}/file${i % 200}.txt`, `data ${Buffer.byteLength(body)}`, body, '');
  }
  await new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', dir, 'fast-import', '--quiet'], { env, stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import exited ${code}`))));
    child.stdin.end(`${lines.join('\n')}\n`);
  });
}

function measure(url) {
  return new Promise((resolve, reject) => {
    const child = fork(LOADGEN, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (message) => (message.ok ? resolve(message.result) : reject(new Error(message.error))));
    child.once('error', reject);
    child.send({ url, connections: CONNECTIONS, warmupMs: WARMUP_MS, durationMs: DURATION_MS });
  });
}

export async function runCommitsBench(log = console.log) {
  const work = await mkdtemp(path.join(tmpdir(), 'repohost-bench-commits-'));
  const home = path.join(work, 'home');
  await mkdir(home);
  const settings = loadSettings({ workPath: work, overrides: { server: { DOMAIN: '127.0.0.1', HTTP_PORT: 0 }, database: { PATH: path.join(work, 'bench.db') } } });
  const host = await RepoHost.open({ settings });
  const running = await startServer(host, { port: 0, hostname: '127.0.0.1' });
  const results = {};
  try {
    const user = await host.users.create(SYSTEM, { username: 'bench', email: 'bench@example.com', password: 'bench-password-123', admin: false });
    const { value: token } = await host.tokens.create(SYSTEM, user, { name: 'bench', scopes: ['write:repository'] });
    const env = gitEnv(home, token);
    await host.repos.create(userActor(user), { name: 'history' });
    const source = path.join(work, 'source.git');
    const started = performance.now();
    await seed(source, env);
    await mustGit(['--git-dir', source, 'push', '-q', `${settings.server.ROOT_URL}bench/history.git`, 'main'], { env, timeoutMs: 300_000 });
    log(`commits: seeded ${COMMITS} commits in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const base = `${settings.server.ROOT_URL}api/v1/repos/bench/history/commits?limit=50`;
    for (const stat of [false, true]) {
      const url = `${base}&stat=${stat}`;
      const probe = await fetch(url);
      const body = await probe.json();
      if (probe.status !== 200 || body.length !== 50) throw new Error(`GET /commits answered ${probe.status} with ${body.length} commits`);
      const result = await measure(url);
      results[stat ? 'statRps' : 'leanRps'] = result.rps;
      log(
        `GET /commits?limit=50&stat=${stat} on a ${COMMITS}-commit repository: ${result.rps.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms (${CONNECTIONS} connections, ${result.errors ?? 0} errors)`,
      );
    }
  } finally {
    await running.close();
    await host.close?.();
    await rm(work, { recursive: true, force: true });
  }
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runCommitsBench().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
