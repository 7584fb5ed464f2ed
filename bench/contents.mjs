/**
 * Contents benchmark (run at the end of `npm run bench`): `GET /repos/{owner}/{repo}/contents/{file}` req/s on a
 * 10,000-commit repository, files requested in turn (a deep one and shallow ones, each needing its last commit),
 * and the root listing. Load comes from bench/loadgen.mjs in its own process; the server runs in this one, on
 * loopback, in a temporary folder removed at the end.
 *
 *   node bench/contents.mjs
 */
import { fileURLToPath } from 'node:url';
import { mustGit } from './git-client.mjs';
import { CONNECTIONS, measure, withHistoryServer } from './history.mjs';

const COMMITS = 10_000;
const FILES = 400;

/** COMMITS commits, each changing two of FILES files under 20 folders, as a `git fast-import` stream. */
function history() {
  const lines = [];
  for (let i = 1; i <= COMMITS; i++) {
    lines.push('commit refs/heads/main', `mark :${i}`, `committer Bench <bench@example.com> ${1700000000 + i} +0000`);
    const message = `commit ${i}`;
    lines.push(`data ${Buffer.byteLength(message)}`, message);
    if (i > 1) lines.push(`from :${i - 1}`);
    for (let f = 0; f < 2; f++) {
      const n = (i * 7 + f) % FILES;
      const body = `file ${n} changed in commit ${i}\n${'x'.repeat(200 + ((i * 13 + f) % 800))}`;
      lines.push(`M 100644 inline src/dir${n % 20}/file${n}.txt`, `data ${Buffer.byteLength(body)}`, body);
    }
    lines.push('');
  }
  return lines;
}

export async function runContentsBench(log = console.log) {
  const results = {};
  await withHistoryServer('contents', history(), async ({ settings, env, source }) => {
    const base = `${settings.server.ROOT_URL}api/v1/repos/bench/history/contents`;
    const probe = await fetch(`${base}/src/dir3/file3.txt`);
    if (probe.status !== 200) throw new Error(`GET /contents answered ${probe.status}: ${await probe.text()}`);
    const files = Array.from({ length: 50 }, (_, i) => `/api/v1/repos/bench/history/contents/src/dir${(i * 8) % 20}/file${(i * 8) % FILES}.txt`);
    const file = await measure(`${base}/src/dir3/file3.txt`, files);
    results.fileRps = file.rps;
    log(`GET /contents/{file} on a ${COMMITS}-commit repository (50 files in turn; last commits cached after their first read): ${file.rps.toFixed(0)} req/s, p50 ${file.p50Ms.toFixed(1)} ms, p99 ${file.p99Ms.toFixed(1)} ms (${CONNECTIONS} connections, ${file.errors ?? 0} errors)`);
    // Every request at another commit: the last-commit cache never answers, so each read runs its `git log`.
    const commits = (await mustGit(['--git-dir', source, 'rev-list', '--max-count=1500', 'main'], { env })).split('\n').filter((id) => /^[0-9a-f]{40}$/.test(id));
    const cold = await measure(`${base}/src/dir3/file3.txt`, commits.map((id) => `/api/v1/repos/bench/history/contents/src/dir3/file3.txt?ref=${id}`));
    results.fileColdRps = cold.rps;
    log(`GET /contents/{file}?ref=<a different commit each time> (no cache): ${cold.rps.toFixed(0)} req/s, p50 ${cold.p50Ms.toFixed(1)} ms, p99 ${cold.p99Ms.toFixed(1)} ms`);
    const dir = await measure(`${base}/src/dir3`);
    results.dirRps = dir.rps;
    log(`GET /contents/{dir} (20 files) on the same repository: ${dir.rps.toFixed(0)} req/s, p50 ${dir.p50Ms.toFixed(1)} ms, p99 ${dir.p99Ms.toFixed(1)} ms`);
  }, log);
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runContentsBench().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
