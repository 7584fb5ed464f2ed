/**
 * `@repohost/client` in Deno and Bun: the client bundled as the ES module a package user gets, run by each runtime
 * against a started server, with the runtime's own `fetch`. A read, a write, one page of a list, a whole list by
 * async iteration over `Link`, and a typed 404. Each runtime is found on PATH or where `.ci/run` installs it from the
 * npm registry (`${TMPDIR:-/tmp}/repohost-test-bin/runtimes`); a missing one is skipped and said so.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEST_BIN, createToken, createUser, findExecutable, startTestServer, type TestServer } from '@repohost/test-support';

const execFileAsync = promisify(execFile);

/** A runtime's binary on PATH, else in the folder `.ci/run` installs the runtimes into. */
function findRuntime(name: string): string | undefined {
  const installed = path.join(TEST_BIN, 'runtimes', 'node_modules', '.bin');
  const found = findExecutable(name, ['PATH', installed]);
  if (found) return found;
  console.warn(`client runtimes: no ${name} on PATH or in ${installed}; its test is skipped (install: npm install --prefix "\${TMPDIR:-/tmp}/repohost-test-bin/runtimes" deno bun)`);
  return undefined;
}

/** What each runtime runs: arguments are the server's URL, a token, the owner and a repository. */
const SCRIPT = `
import { NotFoundError, RepoHostClient } from './client.mjs';
const [url, token, owner, repo] = (globalThis.Deno ? Deno.args : process.argv.slice(2));
const client = new RepoHostClient({ url, auth: { token } });
const read = await client.repos.get(owner, repo);
const created = [];
for (const title of ['one', 'two', 'three']) created.push((await client.issues.createIssue(owner, repo, { title })).number);
const first = await client.issues.listIssues(owner, repo, { state: 'all', limit: 1 }).page();
const titles = [];
for await (const issue of client.issues.listIssues(owner, repo, { state: 'all', limit: 2 })) titles.push(issue.title);
let missing = '';
try {
  await client.repos.get(owner, 'no-such-repository');
} catch (error) {
  missing = error instanceof NotFoundError ? 'NotFoundError ' + error.status + ': ' + error.message : String(error);
}
const runtime = globalThis.Deno ? 'deno ' + Deno.version.deno : globalThis.Bun ? 'bun ' + Bun.version : 'node';
console.log(JSON.stringify({ runtime, name: read.full_name, created, firstItems: first.items.length, total: first.total, titles, missing }));
`;

const runtimes = { deno: findRuntime('deno'), bun: findRuntime('bun') };

describe('@repohost/client in Deno and Bun', () => {
  let s: TestServer;
  let token: string;
  let work: string;

  beforeAll(async () => {
    s = await startTestServer();
    await createUser(s.host, 'rita');
    token = await createToken(s.host, 'rita');
    work = await mkdtemp(path.join(tmpdir(), 'repohost-client-runtimes-'));
    // The ES module a package user imports (dist/index.js is the same code), bundled from the sources.
    const { build } = await import('esbuild');
    await build({
      entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      outfile: path.join(work, 'client.mjs'),
    });
    await writeFile(path.join(work, 'script.mjs'), SCRIPT);
  });
  afterAll(async () => {
    await s?.cleanup();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const commands: Record<keyof typeof runtimes, (binary: string, args: string[]) => [string, string[]]> = {
    // Network access only to the test server's address.
    deno: (binary, args) => [binary, ['run', '--no-config', '--no-lock', `--allow-net=${new URL(s.url).host}`, 'script.mjs', ...args]],
    bun: (binary, args) => [binary, ['run', 'script.mjs', ...args]],
  };

  for (const [name, binary] of Object.entries(runtimes) as [keyof typeof runtimes, string | undefined][]) {
    test.skipIf(!binary)(`${name}: a read, writes, a page and a whole list, a typed 404`, async () => {
      const repoName = `in-${name}`;
      const created = await s.fetch('/api/v1/user/repos', {
        method: 'POST',
        headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: repoName }),
      });
      expect(created.status).toBe(201);
      const [command, args] = commands[name](binary!, [s.url, token, 'rita', repoName]);
      const { stdout } = await execFileAsync(command, args, { cwd: work, timeout: 60_000, env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' } });
      const answer = JSON.parse(stdout.trim().split('\n').at(-1)!);
      // Run by the runtime itself, not a Node.js behind its name.
      expect(answer.runtime).toMatch(new RegExp(`^${name} \\d`));
      expect(answer).toEqual({
        runtime: answer.runtime,
        name: `rita/${repoName}`,
        created: [1, 2, 3],
        firstItems: 1,
        total: 3,
        titles: ['three', 'two', 'one'],
        missing: 'NotFoundError 404: The target couldn\'t be found.',
      });
      // The writes are there for every client to see.
      const listed = await s.fetch(`/api/v1/repos/rita/${repoName}/issues?state=all`, { headers: { authorization: `token ${token}` } });
      expect(((await listed.json()) as { title: string }[]).map((issue) => issue.title)).toEqual(['three', 'two', 'one']);
    }, 90_000);
  }
});
