/**
 * Languages (`GET /repos/{owner}/{repo}/languages`, `Repository.language`) and archives
 * (`GET /repos/{owner}/{repo}/archive/{ref}.zip|.tar.gz|.bundle`) over real git: files pushed with the `git`
 * binary over HTTP or committed through the backend, archives read back with unzip, tar and git.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RepositorySchema, SYSTEM, matchesSchema, type RepoKey, type User } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

let s: TestServer;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
let alice: User;
let aliceToken: string;
let h: Record<string, string>;

function run(command: string, args: string[], cwd = scratch): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env: gitEnv, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

async function ok(command: string, args: string[], cwd = scratch): Promise<string> {
  const result = await run(command, args, cwd);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.code}):\n${result.stderr}`);
  return result.stdout;
}

async function createRepo(body: Record<string, unknown>): Promise<{ name: string; full: string; key: RepoKey }> {
  const name = uniq(String(body.name ?? 'r'));
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { ...body, name }, h));
  expect(res.status).toBe(201);
  return { name, full: `${alice.name}/${name}`, key: { owner: alice.lower_name, name: name.toLowerCase() } };
}

/** Clones over HTTP, writes `files`, commits and pushes `branch`; returns the pushed commit. */
async function push(full: string, files: Record<string, string | Buffer>, branch = 'main'): Promise<string> {
  const dir = path.join(scratch, uniq('work'));
  const url = `${s.url.replace('http://', `http://${alice.name}:${aliceToken}@`)}${full}.git`;
  await ok('git', ['clone', '-q', url, dir]);
  const current = (await run('git', ['rev-parse', '--verify', '-q', 'HEAD'], dir)).code === 0;
  await ok('git', ['checkout', '-q', current ? '-B' : '--orphan', branch], dir);
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  await ok('git', ['add', '-A'], dir);
  await ok('git', ['commit', '-q', '-m', 'files'], dir);
  await ok('git', ['push', '-q', 'origin', `HEAD:refs/heads/${branch}`], dir);
  return (await ok('git', ['rev-parse', 'HEAD'], dir)).trim();
}

async function languages(full: string, headers: Record<string, string> = {}): Promise<Record<string, number>> {
  const res = await s.fetch(`/api/v1/repos/${full}/languages`, { headers });
  expect(res.status).toBe(200);
  return json(res);
}

async function repoLanguage(full: string): Promise<string> {
  await s.host.events.idle();
  const body = await json(await s.fetch(`/api/v1/repos/${full}`, { headers: h }));
  expect(matchesSchema(RepositorySchema, body)).toBe(true);
  return body.language;
}

beforeAll(async () => {
  s = await startTestServer();
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-lang-archive-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Tester\n\temail = tester@example.com\n[init]\n\tdefaultBranch = main\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  alice = await createUser(s.host, uniq('alice'));
  aliceToken = await createToken(s.host, alice.name);
  h = tokenHeader(aliceToken);
});
afterAll(async () => {
  await s?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('languages', () => {
  const code = (n: number, line: string) => line.repeat(Math.ceil(n / line.length)).slice(0, n);

  test('bytes per programming or markup language of the default branch; docs, vendored, dot and data files left out', async () => {
    const { full } = await createRepo({ name: 'lang' });
    await push(full, {
      'main.go': code(3000, 'package main\n'),
      'cmd/tool/util.go': code(1000, 'func x() {}\n'),
      'web/app.tsx': code(800, 'export const a = 1;\n'),
      'web/index.ts': code(200, 'export {};\n'),
      'web/old.js': code(500, 'var a;\n'),
      'web/site.scss': code(300, 'a { }\n'),
      'web/page.html': code(100, '<p></p>\n'),
      'README.md': code(5000, '# readme\n'),
      'docs/guide.py': code(4000, 'print(1)\n'),
      'vendor/lib/lib.go': code(9000, 'package lib\n'),
      'node_modules/x/index.js': code(9000, 'x;\n'),
      'web/jquery.min.js': code(9000, 'x;\n'),
      '.eslintrc.js': code(9000, 'x;\n'),
      'config.json': code(9000, '{}\n'),
      'data.yaml': code(9000, 'a: 1\n'),
      'empty.py': '',
      'Makefile': code(50, 'all:\n'),
      'LICENSE': code(1000, 'MIT\n'),
      'api.pb.go': code(9000, 'package api\n'),
    });
    const stats = await languages(full);
    expect(stats).toEqual({ CSS: 300, Go: 4000, HTML: 100, JavaScript: 500, Makefile: 50, TypeScript: 1000 });
    // Forgejo's map comes out in name order.
    expect(Object.keys(stats)).toEqual(['CSS', 'Go', 'HTML', 'JavaScript', 'Makefile', 'TypeScript']);
    expect(await repoLanguage(full)).toBe('Go');
  });

  test('measured once per commit: a second read does not walk the tree again', async () => {
    const { full } = await createRepo({ name: 'cached' });
    await push(full, { 'a.py': 'print(1)\n' });
    const backend = s.host.git;
    const original = backend.listFiles.bind(backend);
    let walks = 0;
    backend.listFiles = async (key, commit) => {
      walks += 1;
      return original(key, commit);
    };
    try {
      await s.host.events.idle();
      const before = walks;
      expect(await languages(full)).toEqual({ Python: 9 });
      expect(await languages(full)).toEqual({ Python: 9 });
      expect(walks).toBe(before);
      await push(full, { 'b.rs': 'fn main() {}\n'.repeat(10) });
      await s.host.events.idle();
      expect(walks).toBe(before + 1);
      expect(await languages(full)).toEqual({ Python: 9, Rust: 130 });
      expect(walks).toBe(before + 1);
    } finally {
      backend.listFiles = original;
    }
  });

  test('the primary language follows pushes to the default branch, not to other branches', async () => {
    const { full } = await createRepo({ name: 'follow', auto_init: true });
    // README only: documentation, so no language.
    expect(await repoLanguage(full)).toBe('');
    await push(full, { 'a.py': code(500, 'x = 1\n') });
    expect(await repoLanguage(full)).toBe('Python');
    await push(full, { 'big.rb': code(5000, 'puts 1\n') }, 'feature');
    expect(await repoLanguage(full)).toBe('Python');
    await push(full, { 'b.c': code(2000, 'int x;\n') });
    expect(await repoLanguage(full)).toBe('C');
    expect(await languages(full)).toEqual({ C: 2000, Python: 500 });
  });

  test('an empty repository has none; a private one is 404 to others', async () => {
    const empty = await createRepo({ name: 'empty' });
    expect(await languages(empty.full)).toEqual({});
    const hidden = await createRepo({ name: 'hidden', private: true });
    await push(hidden.full, { 'x.go': 'package x\n' });
    expect(await languages(hidden.full, h)).toEqual({ Go: 10 });
    await expectApiError(await s.fetch(`/api/v1/repos/${hidden.full}/languages`), 404, s.url);
    const bob = await createUser(s.host, uniq('bob'));
    const bobH = tokenHeader(await createToken(s.host, bob.name));
    await expectApiError(await s.fetch(`/api/v1/repos/${hidden.full}/languages`, { headers: bobH }), 404, s.url);
  });
});

describe('archives', () => {
  let repo: { name: string; full: string; key: RepoKey };
  let head: string;

  beforeAll(async () => {
    repo = await createRepo({ name: 'Arch', auto_init: true, description: 'archive me' });
    head = await push(repo.full, { 'src/main.c': 'int main(void) { return 0; }\n' });
    await push(repo.full, { 'feature.txt': 'on a branch with a slash\n' }, 'feature/x');
  });

  async function download(archive: string, headers: Record<string, string> = h): Promise<{ res: Response; bytes: Buffer }> {
    const res = await s.fetch(`/api/v1/repos/${repo.full}/archive/${archive}`, { headers });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  test('zip: the files under <repo>/, named <repo>-<ref>.zip', async () => {
    const { res, bytes } = await download('main.zip');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const fileName = `${repo.name}-main.zip`;
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${fileName}"; filename*=UTF-8''${fileName}`);
    expect(res.headers.get('link')).toBe(`<${s.url}api/v1/repos/${repo.full}/archive/${head}.zip?rev=${head}>; rel="immutable"`);
    const file = path.join(scratch, uniq('z'));
    await writeFile(file, bytes);
    const listing = await ok('unzip', ['-Z1', file]);
    const lower = repo.name.toLowerCase();
    expect(listing.split('\n').filter(Boolean).sort()).toEqual([`${lower}/`, `${lower}/README.md`, `${lower}/src/`, `${lower}/src/main.c`]);
    expect(await ok('unzip', ['-p', file, `${lower}/src/main.c`])).toBe('int main(void) { return 0; }\n');
    // HEAD answers as GET does, without the body.
    const headAnswer = await s.fetch(`/api/v1/repos/${repo.full}/archive/main.zip`, { method: 'HEAD', headers: h });
    expect(headAnswer.status).toBe(200);
    expect(headAnswer.headers.get('content-length')).toBe(String(bytes.length));
  });

  test('tar.gz of a branch with a slash, and of a commit id', async () => {
    const { res, bytes } = await download('feature%2Fx.tar.gz');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toContain(`filename="${repo.name}-feature-x.tar.gz"`);
    const tarball = path.join(scratch, uniq('t'));
    await writeFile(tarball, bytes);
    const names = (await ok('tar', ['-tzf', tarball])).split('\n').filter(Boolean);
    expect(names).toContain(`${repo.name.toLowerCase()}/feature.txt`);
    expect(gunzipSync(bytes).length).toBeGreaterThan(512);

    const byCommit = await download(`${head}.zip`);
    expect(byCommit.res.status).toBe(200);
    expect(byCommit.res.headers.get('content-disposition')).toContain(`filename="${repo.name}-${head}.zip"`);
  });

  test('bundle: the history up to the ref, as refs/heads/bundle and HEAD; git can clone it', async () => {
    const { res, bytes } = await download('main.bundle');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(bytes.subarray(0, 16).toString()).toBe('# v2 git bundle\n');
    const file = path.join(scratch, `${uniq('b')}.bundle`);
    await writeFile(file, bytes);
    expect((await ok('git', ['bundle', 'list-heads', file])).trim().split('\n')).toEqual([`${head} refs/heads/bundle`, `${head} HEAD`]);
    const clone = path.join(scratch, uniq('c'));
    await ok('git', ['clone', '-q', file, clone]);
    expect(await readFile(path.join(clone, 'src', 'main.c'), 'utf8')).toBe('int main(void) { return 0; }\n');
    // Nothing is left behind in the repository: no ref named bundle appears.
    expect((await s.host.git.readRefs(repo.key, ['refs/heads/bundle'])).size).toBe(0);
  });

  test('unknown refs and empty repositories are 404; an unknown format 400; options are never refs', async () => {
    const get = (archive: string) => s.fetch(`/api/v1/repos/${repo.full}/archive/${archive}`, { headers: h });
    expect(await expectApiError(await get('nope.zip'), 404, s.url)).toBe('unrecognized repository reference: nope');
    await expectApiError(await get('.zip'), 404, s.url);
    await expectApiError(await get('--output=x.zip'), 404, s.url);
    await expectApiError(await get('main%00.zip'), 404, s.url);
    await expectApiError(await get('main:README.md.zip'), 404, s.url);
    expect(await expectApiError(await get('main.rar'), 400, s.url)).toBe('unknown format: main.rar');
    await expectApiError(await get('main'), 400, s.url);
    const empty = await createRepo({ name: 'void' });
    await expectApiError(await s.fetch(`/api/v1/repos/${empty.full}/archive/main.zip`, { headers: h }), 404, s.url);
  });

  test('a private repository\'s archive is 404 to others and to anonymous callers', async () => {
    const hidden = await createRepo({ name: 'secret', private: true, auto_init: true });
    expect((await s.fetch(`/api/v1/repos/${hidden.full}/archive/main.zip`, { headers: h })).status).toBe(200);
    await expectApiError(await s.fetch(`/api/v1/repos/${hidden.full}/archive/main.zip`), 404, s.url);
    const bob = await createUser(s.host, uniq('bob'));
    const bobH = tokenHeader(await createToken(s.host, bob.name));
    await expectApiError(await s.fetch(`/api/v1/repos/${hidden.full}/archive/main.zip`, { headers: bobH }), 404, s.url);
  });

  test('streamed: a client that goes away stops git', async () => {
    const big = await createRepo({ name: 'big' });
    // Incompressible, so the archive is as large as its content and git is still writing when the client leaves.
    const owner = await s.host.users.resolve(SYSTEM, alice.name);
    await s.host.git.commitFiles(big.key, {
      branch: 'main',
      message: 'big',
      author: { name: owner.name, email: owner.email },
      files: [{ path: 'blob.bin', content: randomBytes(48 * 1024 * 1024) }],
    });
    const controller = new AbortController();
    const res = await s.fetch(`/api/v1/repos/${big.full}/archive/main.zip`, { headers: h, signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.value!.length).toBeGreaterThan(0);
    const repoPath = path.join(s.host.settings.repository.ROOT, big.key.owner, `${big.key.name}.git`);
    const archiving = async () => (await ok('ps', ['-eo', 'args'])).split('\n').filter((line) => line.includes(repoPath) && line.includes('archive'));
    // Held back by the unread response, git is still there…
    expect(await archiving()).toHaveLength(1);
    controller.abort();
    // …and gone once the client is.
    const deadline = Date.now() + 10_000;
    while ((await archiving()).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await archiving()).toEqual([]);
  });
});
