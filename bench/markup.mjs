/**
 * Markup benchmark (`npm run bench`, also `node bench/markup.mjs` after a build): the renderer behind /markdown,
 * READMEs and comments, through `host.markup.render` over a SQLite host (mentions are looked up there).
 *
 * 1. Renders per second of a ~1 KB comment (comment mode, mentions and references): cold (a new text each time,
 *    so nothing is cached) and cached (the same text again), each for RATE_MS.
 * 2. A ~100 KB README (gfm document in a repository context): the first render in this process (JIT cold), the
 *    median of COLD_RUNS renders of new content (cache miss, JIT warm), and the median of cached renders.
 * `node --cpu-prof bench/markup.mjs` shows where a cold render spends its time (micromark parsing, mostly).
 *
 * Numbers are reported, not asserted. Samples come from bench/markup-samples.mjs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ANONYMOUS, RepoHost, SYSTEM, loadSettings } from '@repohost/core';
import { COMMENT_1KB, README_100KB } from './markup-samples.mjs';

const RATE_MS = Number(process.env.BENCH_MARKUP_MS ?? 3000);
const COLD_RUNS = Number(process.env.BENCH_MARKUP_RUNS ?? 7);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function rate(render) {
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < RATE_MS) {
    await render(n);
    n++;
  }
  return n / ((performance.now() - started) / 1000);
}

async function timed(work) {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const work = await mkdtemp(path.join(tmpdir(), 'repohost-bench-markup-'));
const settings = loadSettings({ workPath: work, overrides: { server: { ROOT_URL: 'http://localhost:3000/' }, database: { PATH: path.join(work, 'bench.db') } } });
const host = await RepoHost.open({ settings, noSecretKey: 'ephemeral' });
try {
  for (const name of ['alice', 'bob']) await host.users.create(SYSTEM, { username: name, email: `${name}@example.com`, password: 'bench-password-123', admin: false });
  const readme = (salt) => ({ text: `${README_100KB}\n<!-- ${salt} -->\n`, mode: 'gfm', context: 'alice/project', branchPath: 'branch/main' });
  const comment = (salt) => ({ text: `${COMMENT_1KB}\n${salt}`, mode: 'comment', context: 'alice/project' });

  const first = await timed(() => host.markup.render(ANONYMOUS, readme('first')));
  const cold = [];
  for (let i = 0; i < COLD_RUNS; i++) cold.push(await timed(() => host.markup.render(ANONYMOUS, readme(`cold-${i}`))));
  const cached = [];
  for (let i = 0; i < COLD_RUNS; i++) cached.push(await timed(() => host.markup.render(ANONYMOUS, readme('cold-0'))));

  const commentCold = await rate((n) => host.markup.render(ANONYMOUS, comment(`cold ${n}`)));
  const commentCached = await rate(() => host.markup.render(ANONYMOUS, comment('cached')));

  console.log('markup (host.markup.render, SQLite):');
  console.log(`  1 KB comment, cold:   ${commentCold.toFixed(0)} renders/s`);
  console.log(`  1 KB comment, cached: ${commentCached.toFixed(0)} renders/s`);
  console.log(`  100 KB README, first render in process: ${first.toFixed(1)} ms`);
  console.log(`  100 KB README, cold (median of ${COLD_RUNS}): ${median(cold).toFixed(1)} ms`);
  console.log(`  100 KB README, cached (median of ${COLD_RUNS}): ${median(cached).toFixed(3)} ms`);
} finally {
  await host.close();
  await rm(work, { recursive: true, force: true });
}
