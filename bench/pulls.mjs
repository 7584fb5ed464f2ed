/**
 * Pull requests benchmark (run by `npm run bench`): req/s of `GET /repos/{owner}/{repo}/pulls?state=all&limit=100`
 * on a repository holding 1,000 pull requests (each from its own branch). A page must cost a fixed number of
 * queries and git reads, never a diff per pull request. Anonymous, public repository, SQLite on disk; the server
 * runs in this process, load comes from bench/loadgen.mjs in its own.
 *
 *   node bench/pulls.mjs
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RepoHost, SYSTEM, loadSettings, userActor } from '@repohost/core';
import { startServer } from '@repohost/server';
import { measureCases } from './history.mjs';

const PULLS = Number(process.env.BENCH_PULLS ?? 1000);

export async function runPullsBench(log = console.log) {
  const folder = await mkdtemp(path.join(tmpdir(), 'repohost-bench-pulls-'));
  const settings = loadSettings({
    workPath: folder,
    overrides: { server: { DOMAIN: '127.0.0.1', HTTP_PORT: 0 }, database: { PATH: path.join(folder, 'bench.db') }, api: { MAX_RESPONSE_ITEMS: 100 } },
  });
  const host = await RepoHost.open({ settings, noSecretKey: 'ephemeral' });
  const running = await startServer(host, { port: 0, hostname: '127.0.0.1' });
  const results = {};
  try {
    const user = await host.users.create(SYSTEM, { username: 'bench', email: 'bench@example.com', password: 'bench-password-123', admin: false });
    const actor = userActor(user);
    const access = await host.repos.create(actor, { name: 'pulls', auto_init: true });
    const started = performance.now();
    for (let i = 0; i < PULLS; i++) {
      const branch = `topic-${i}`;
      await host.contents.createFile(actor, access, `topics/${i}.txt`, { content: Buffer.from(`topic ${i}\n`).toString('base64'), branch: 'main', new_branch: branch });
      await host.pulls.create(actor, access, { head: branch, base: 'main', title: `Pull ${i}`, body: `Adds topic ${i}.` });
    }
    log(`pulls: ${PULLS} pull requests (a branch and a commit each) created in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const api = `${settings.server.ROOT_URL}api/v1`;
    const cases = [
      ['GET /repos/{owner}/{repo}/pulls?state=all&limit=100', `${api}/repos/bench/pulls/pulls?state=all&limit=100`, Math.min(100, PULLS)],
      ['GET /repos/{owner}/{repo}/pulls/{index}', `${api}/repos/bench/pulls/pulls/7`, undefined],
    ];
    await measureCases(cases, results, log);
  } finally {
    await running.close();
    await host.close();
    await rm(folder, { recursive: true, force: true });
  }
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runPullsBench().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
