/**
 * Issues benchmark (run by `npm run bench`): req/s of the issue tracker's hot reads on a repository holding
 * 2,000 issues, each with two labels, a milestone and an assignee (so a page loads every kind of relation):
 * `GET /repos/{owner}/{repo}/issues?limit=50` (a page of 50 with their details), one issue, and
 * `GET /repos/issues/search?q=…&limit=10` across repositories. Anonymous, on a public repository, SQLite on disk;
 * the server runs in this process, load comes from bench/loadgen.mjs in its own.
 *
 *   node bench/issues.mjs
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RepoHost, SYSTEM, loadSettings, userActor } from '@repohost/core';
import { startServer } from '@repohost/server';
import { measureCases } from './history.mjs';

const ISSUES = Number(process.env.BENCH_ISSUES ?? 2000);

/**
 * `count` issues in `access`'s repository (which has the Default labels) by `actor` (the user `bench`): two labels
 * each, one milestone, assigned to bench, every fourth closed. For the benches that list them.
 */
export async function createBenchIssues(host, actor, access, count) {
  const labels = (await host.labels.listOfRepo(actor, access, { limit: 50 })).items;
  const milestone = await host.milestones.create(actor, access, { title: 'v1' });
  for (let i = 0; i < count; i++) {
    await host.issues.create(actor, access, {
      title: `Issue ${i} about part-${i % 100}`,
      body: `Body of issue ${i}.\n\nIt mentions part-${i % 100} and a few more words.`,
      labels: [labels[i % labels.length].id, labels[(i + 1) % labels.length].id],
      milestone: milestone.id,
      assignees: ['bench'],
      closed: i % 4 === 0,
    });
  }
}

export async function runIssuesBench(log = console.log) {
  const folder = await mkdtemp(path.join(tmpdir(), 'repohost-bench-issues-'));
  const settings = loadSettings({ workPath: folder, overrides: { server: { DOMAIN: '127.0.0.1', HTTP_PORT: 0 }, database: { PATH: path.join(folder, 'bench.db') } } });
  const host = await RepoHost.open({ settings, noSecretKey: 'ephemeral' });
  const running = await startServer(host, { port: 0, hostname: '127.0.0.1' });
  const results = {};
  try {
    const user = await host.users.create(SYSTEM, { username: 'bench', email: 'bench@example.com', password: 'bench-password-123', admin: false });
    const actor = userActor(user);
    const access = await host.repos.create(actor, { name: 'issues', issue_labels: 'Default' });
    const started = performance.now();
    await createBenchIssues(host, actor, access, ISSUES);
    log(`issues: ${ISSUES} issues with labels, a milestone and an assignee created in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const api = `${settings.server.ROOT_URL}api/v1`;
    const cases = [
      ['GET /repos/{owner}/{repo}/issues?limit=50', `${api}/repos/bench/issues/issues?state=all&limit=50`, 50],
      ['GET /repos/{owner}/{repo}/issues/{index}', `${api}/repos/bench/issues/issues/7`, undefined],
      ['GET /repos/issues/search?q=part-NN&limit=10', `${api}/repos/issues/search?q=part-42&state=all&limit=10`, 10],
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
  runIssuesBench().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
