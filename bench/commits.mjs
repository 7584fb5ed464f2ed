/**
 * Commits benchmark (run by `npm run bench`): `GET /repos/{owner}/{repo}/commits?limit=50` req/s on a
 * 10,000-commit repository, without statistics (`stat=false`: one `git log`, one `rev-list --count`, one users
 * query, the page's raw commits read for verification) and with them (`stat=true`: the same `git log` diffs every
 * commit). Load comes from bench/loadgen.mjs in its own process; the server runs in this one, on loopback, in a
 * temporary folder removed at the end.
 *
 *   node bench/commits.mjs
 */
import { fileURLToPath } from 'node:url';
import { CONNECTIONS, measure, withHistoryServer } from './history.mjs';

const COMMITS = 10_000;

/** COMMITS commits by the bench account's address, each changing one of 200 files, as a `git fast-import` stream. */
function history() {
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
  return lines;
}

export async function runCommitsBench(log = console.log) {
  const results = {};
  await withHistoryServer('commits', history(), async ({ settings }) => {
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
  }, log);
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runCommitsBench().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
