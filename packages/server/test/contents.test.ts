/**
 * The contents API over HTTP: reading the root, a directory and a file at a ref; creating, updating, renaming and
 * deleting files one at a time and several in one commit; who may write; and the bad input Forgejo refuses
 * (paths, base64, stale or missing `sha`, unknown branches, archived repositories), in sha1 and sha256 repositories.
 */
import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ContentsResponseSchema,
  FileDeleteResponseSchema,
  FileResponseSchema,
  FilesResponseSchema,
  matchesSchema,
  schemaErrors,
} from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';
import type { TSchema } from '@sinclair/typebox';

interface Account {
  name: string;
  h: Record<string, string>;
}

let s: TestServer;
let alice: Account;
let bob: Account;

async function account(prefix: string): Promise<Account> {
  const name = uniq(prefix);
  await createUser(s.host, name);
  return { name, h: tokenHeader(await createToken(s.host, name)) };
}

async function repoOf(who: Account, body: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('repo');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, ...body }, who.h));
  expect(res.status, await res.clone().text()).toBe(201);
  return `${who.name}/${name}`;
}

function expectSchema(schema: TSchema, body: unknown): void {
  expect(matchesSchema(schema, body), schemaErrors(schema, body).join('\n')).toBe(true);
}

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

function contents(full: string, path = '', init: RequestInit = {}, query = ''): Promise<Response> {
  return s.fetch(`/api/v1/repos/${full}/contents${path ? `/${path}` : ''}${query}`, init);
}

async function fileSha(full: string, path: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await contents(full, path, { headers });
  expect(res.status).toBe(200);
  return (await json(res)).sha;
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await account('alice');
  bob = await account('bob');
});
afterAll(async () => {
  await s?.cleanup();
});

describe.each(['sha1', 'sha256'] as const)('%s repositories', (format) => {
  const idLength = format === 'sha1' ? 40 : 64;

  test('GET lists the root, reads a file with base64 content, and answers 404 for what is not there', async () => {
    const full = await repoOf(alice, { auto_init: true, object_format_name: format, description: 'demo' });

    const list = await contents(full);
    expect(list.status).toBe(200);
    const entries = await json(list);
    expect(Array.isArray(entries)).toBe(true);
    expect(entries.map((e: { name: string }) => e.name)).toEqual(['README.md']);
    expectSchema(ContentsResponseSchema, entries[0]);
    expect(entries[0]).toMatchObject({ type: 'file', path: 'README.md', content: null, encoding: null, target: null, submodule_git_url: null });
    expect(entries[0].sha).toHaveLength(idLength);
    expect(entries[0].last_commit_sha).toHaveLength(idLength);

    const file = await json(await contents(full, 'README.md'));
    expectSchema(ContentsResponseSchema, file);
    expect(file.encoding).toBe('base64');
    expect(Buffer.from(file.content, 'base64').toString()).toContain('demo');
    expect(file.size).toBe(Buffer.from(file.content, 'base64').length);
    expect(file.url).toBe(`${s.url}api/v1/repos/${full}/contents/README.md?ref=main`);
    expect(file.html_url).toBe(`${s.url}${full}/src/branch/main/README.md`);
    expect(file.download_url).toBe(`${s.url}${full}/raw/branch/main/README.md`);
    expect(file.git_url).toBe(`${s.url}api/v1/repos/${full}/git/blobs/${file.sha}`);
    expect(file._links).toEqual({ self: file.url, git: file.git_url, html: file.html_url });
    expect(file.last_commit_sha).toBe(entries[0].last_commit_sha);
    expect(file.last_commit_when).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);

    // By commit id (a prefix names it too) and the commit's URLs say so.
    const byCommit = await json(await contents(full, 'README.md', {}, `?ref=${file.last_commit_sha.slice(0, 10)}`));
    expect(byCommit.sha).toBe(file.sha);
    expect(byCommit.html_url).toBe(`${s.url}${full}/src/commit/${file.last_commit_sha}/README.md`);

    await expectApiError(await contents(full, 'missing.txt'), 404, s.url);
    await expectApiError(await contents(full, 'README.md', {}, '?ref=nope'), 404, s.url);
    await expectApiError(await contents(full, 'README.md', {}, '?ref=main~1'), 404, s.url);
    await expectApiError(await contents(full, 'README.md/x'), 404, s.url);
    await expectApiError(await contents(full, '.git/config'), 404, s.url);
  });

  test('POST /contents writes several files in one commit; dirs list their entries; PUT renames; DELETE removes', async () => {
    const full = await repoOf(alice, { auto_init: true, object_format_name: format });
    const readmeSha = await fileSha(full, 'README.md', alice.h);
    const binary = Buffer.from([0, 1, 2, 255, 254, 10, 13]);
    const res = await s.fetch(
      `/api/v1/repos/${full}/contents`,
      jsonInit(
        'POST',
        {
          files: [
            { operation: 'create', path: 'docs/a.md', content: b64('# A\n') },
            { operation: 'create', path: 'docs/deep/bin.dat', content: b64(binary) },
            { operation: 'update', path: 'README.md', content: b64('new readme\n'), sha: readmeSha },
          ],
          author: { name: 'Ann Author', email: 'ann@example.com' },
          committer: { name: 'Cy Committer', email: 'cy@example.com' },
          dates: { author: '2020-01-02T03:04:05Z', committer: '2021-02-03T04:05:06Z' },
        },
        alice.h,
      ),
    );
    expect(res.status).toBe(201);
    const body = await json(res);
    expectSchema(FilesResponseSchema, body);
    expect(body.files.map((f: { path: string }) => f.path)).toEqual(['docs/a.md', 'docs/deep/bin.dat', 'README.md']);
    expect(body.commit.message).toBe('Add docs/a.md, docs/deep/bin.dat\nUpdate README.md\n');
    expect(body.commit.author).toEqual({ name: 'Ann Author', email: 'ann@example.com', date: '2020-01-02T03:04:05Z' });
    expect(body.commit.committer).toEqual({ name: 'Cy Committer', email: 'cy@example.com', date: '2021-02-03T04:05:06Z' });
    expect(body.commit.sha).toHaveLength(idLength);
    expect(body.commit.parents).toHaveLength(1);
    expect(body.verification).toEqual({ verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' });
    expect(body.files[1].content).toBe(binary.toString('base64'));
    expect(body.files[0].last_commit_sha).toBe(body.commit.sha);

    const dir = await json(await contents(full, 'docs'));
    expect(dir.map((e: { name: string; type: string }) => [e.name, e.type])).toEqual([
      ['a.md', 'file'],
      ['deep', 'dir'],
    ]);
    for (const e of dir) expectSchema(ContentsResponseSchema, e);
    expect(dir[1]).toMatchObject({ size: 0, download_url: null, content: null, last_commit_sha: body.commit.sha });
    const read = await json(await contents(full, 'docs/deep/bin.dat'));
    expect(Buffer.from(read.content, 'base64')).toEqual(binary);
    // A trailing slash names the directory.
    expect((await json(await contents(full, 'docs/'))).length).toBe(2);

    // Rename with PUT (from_path), then the old path is gone.
    const aSha = body.files[0].sha;
    const moved = await s.fetch(`/api/v1/repos/${full}/contents/docs/b.md`, jsonInit('PUT', { content: b64('# B\n'), sha: aSha, from_path: 'docs/a.md' }, alice.h));
    expect(moved.status).toBe(200);
    const movedBody = await json(moved);
    expectSchema(FileResponseSchema, movedBody);
    expect(movedBody.content.path).toBe('docs/b.md');
    expect(movedBody.commit.message).toBe('Update docs/b.md\n');
    await expectApiError(await contents(full, 'docs/a.md'), 404, s.url);

    const deleted = await s.fetch(`/api/v1/repos/${full}/contents/docs/b.md`, jsonInit('DELETE', { sha: movedBody.content.sha, signoff: true }, alice.h));
    expect(deleted.status).toBe(200);
    const deletedBody = await json(deleted);
    expectSchema(FileDeleteResponseSchema, deletedBody);
    expect(deletedBody.content).toBeNull();
    expect(deletedBody.commit.message).toMatch(new RegExp(`^Delete docs/b\\.md\n\nSigned-off-by: ${alice.name} <[^<>\n]+@[^<>\n]+>$`));
    await expectApiError(await contents(full, 'docs/b.md'), 404, s.url);
  });

  test('new_branch makes a branch from branch; an existing new_branch is 422; an unknown branch is 404', async () => {
    const full = await repoOf(alice, { auto_init: true, object_format_name: format });
    const made = await s.fetch(`/api/v1/repos/${full}/contents/feature.txt`, jsonInit('POST', { content: b64('f\n'), new_branch: 'feature', message: '  my message  ' }, alice.h));
    expect(made.status).toBe(201);
    const body = await json(made);
    expect(body.commit.message).toBe('my message\n');
    expect(body.content.url).toBe(`${s.url}api/v1/repos/${full}/contents/feature.txt?ref=feature`);
    expect((await contents(full, 'feature.txt', {}, '?ref=feature')).status).toBe(200);
    await expectApiError(await contents(full, 'feature.txt'), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/contents/g.txt`, jsonInit('POST', { content: b64('g'), new_branch: 'feature' }, alice.h)), 422, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/contents/g.txt`, jsonInit('POST', { content: b64('g'), branch: 'nope' }, alice.h)), 404, s.url);
    // force_overwrite_new_branch replaces the existing branch with main plus the change.
    const forced = await s.fetch(`/api/v1/repos/${full}/contents/g.txt`, jsonInit('POST', { content: b64('g'), new_branch: 'feature', force_overwrite_new_branch: true }, alice.h));
    expect(forced.status).toBe(201);
    await expectApiError(await contents(full, 'feature.txt', {}, '?ref=feature'), 404, s.url);
    expect((await contents(full, 'g.txt', {}, '?ref=feature')).status).toBe(200);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/contents/h.txt`, jsonInit('POST', { content: b64('h'), new_branch: 'bad..name' }, alice.h)), 422, s.url);
  });
});

describe.each(['sha1', 'sha256'] as const)('%s empty repositories', (format) => {
  test('the first file written through the API creates the default branch', async () => {
    const full = await repoOf(alice, { object_format_name: format });
    const res = await s.fetch(`/api/v1/repos/${full}/contents`, jsonInit('POST', { files: [{ operation: 'create', path: 'a/b.txt', content: b64('b\n') }] }, alice.h));
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.commit.sha).toHaveLength(format === 'sha1' ? 40 : 64);
    expect(body.commit.parents).toEqual([]);
    expect((await json(await contents(full, 'a'))).map((e: { path: string }) => e.path)).toEqual(['a/b.txt']);
  });
});

describe('bad input', () => {
  let full: string;
  let readmeSha: string;
  beforeAll(async () => {
    full = await repoOf(alice, { auto_init: true });
    readmeSha = await fileSha(full, 'README.md', alice.h);
  });

  const create = (path: string, body: Record<string, unknown>) => s.fetch(`/api/v1/repos/${full}/contents/${path}`, jsonInit('POST', body, alice.h));

  test('paths: traversal, .git, empty components, and a file where a directory must go are 422', async () => {
    for (const path of ['..%2Fescape.txt', 'a/..%2F..%2Fb', '.git/config', 'x/.GIT/y', '%2Fabs']) {
      const res = await create(path, { content: b64('x') });
      expect(res.status, path).toBe(422);
    }
    const multi = (files: unknown[]) => s.fetch(`/api/v1/repos/${full}/contents`, jsonInit('POST', { files }, alice.h));
    await expectApiError(await multi([{ operation: 'create', path: '../x', content: b64('x') }]), 422, s.url);
    await expectApiError(await multi([{ operation: 'create', path: '/etc/passwd', content: b64('x') }]), 422, s.url);
    await expectApiError(await multi([{ operation: 'create', path: 'bad\ud800name', content: b64('x') }]), 422, s.url);
    await expectApiError(await multi([{ operation: 'create', path: '', content: b64('x') }]), 422, s.url);
    await expectApiError(await multi([{ operation: 'create', path: 'a//b', content: b64('x') }]), 422, s.url);
    await expectApiError(await multi([{ operation: 'create', path: 'a/./b', content: b64('x') }]), 422, s.url);
    await expectApiError(await multi([{ operation: 'rename', path: 'a', content: b64('x') }]), 422, s.url);
    await expectApiError(await multi([]), 422, s.url);
    await expectApiError(await create('README.md/sub.txt', { content: b64('x') }), 422, s.url);
    // Bytes that are not UTF-8 in the URL: refused, never a 500.
    expect([400, 422]).toContain((await create('bad%FFname.txt', { content: b64('x') })).status);
    expect([400, 404]).toContain((await contents(full, 'bad%FFname.txt')).status);
    // The path exists already.
    await expectApiError(await create('README.md', { content: b64('x') }), 422, s.url);
  });

  test('content that is not base64 is 422; a missing, empty or stale sha is 422 on update and 400 on delete', async () => {
    await expectApiError(await create('c.txt', { content: 'not base64!' }), 422, s.url);
    await expectApiError(await create('c.txt', {}), 422, s.url);
    const put = (body: Record<string, unknown>) => s.fetch(`/api/v1/repos/${full}/contents/README.md`, jsonInit('PUT', body, alice.h));
    await expectApiError(await put({ content: b64('x') }), 422, s.url);
    await expectApiError(await put({ content: b64('x'), sha: '' }), 422, s.url);
    await expectApiError(await put({ content: b64('x'), sha: '0'.repeat(40) }), 422, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/contents/missing.txt`, jsonInit('PUT', { content: b64('x'), sha: readmeSha }, alice.h)), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/contents/README.md`, jsonInit('DELETE', { sha: '0'.repeat(40) }, alice.h)), 400, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/contents/missing.txt`, jsonInit('DELETE', { sha: readmeSha }, alice.h)), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/contents/README.md`, jsonInit('DELETE', {}, alice.h)), 422, s.url);
    await expectApiError(await create('d.txt', { content: b64('x'), dates: { author: 'yesterday' } }), 422, s.url);
    await expectApiError(await create('d.txt', { content: b64('x'), dates: { author: '1969-12-31T23:59:59Z' } }), 422, s.url);
    await expectApiError(await create('d.txt', { content: b64('x'), dates: { committer: '2100-01-01T00:00:00Z' } }), 422, s.url);
    await expectApiError(await create('d.txt', { content: b64('x'), author: { name: 'a<b>', email: 'x@example.com' } }), 422, s.url);
    // Nothing of it was committed.
    expect(await fileSha(full, 'README.md')).toBe(readmeSha);
  });

  test("Go's zero time (what Go clients send for no date) and empty identities mean now and the doer", async () => {
    const before = Date.now() - 2000;
    const res = await create('zero.txt', {
      content: b64('z'),
      author: { name: '', email: '' },
      committer: { name: '', email: '' },
      dates: { author: '0001-01-01T00:00:00Z', committer: '0001-01-01T00:00:00Z' },
    });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(Date.parse(body.commit.author.date)).toBeGreaterThanOrEqual(before - 1000);
    expect(body.commit.author.name).toBe(alice.name);
    expect(body.commit.committer).toEqual(body.commit.author);
  });

  test('a body above the route limit is refused with 413', async () => {
    const huge = 'A'.repeat(65 * 1024 * 1024);
    const res = await create('huge.bin', { content: huge });
    expect(res.status).toBe(413);
  });
});

describe('who may write', () => {
  test('anonymous 401, a reader 403, a stranger to a private repository 404, an archived repository 423', async () => {
    const full = await repoOf(alice, { auto_init: true });
    const body = { content: b64('x') };
    expect((await s.fetch(`/api/v1/repos/${full}/contents/x.txt`, jsonInit('POST', body))).status).toBe(401);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/contents/x.txt`, jsonInit('POST', body, bob.h)), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/contents`, jsonInit('POST', { files: [{ operation: 'create', path: 'x', content: b64('x') }] }, bob.h)), 403, s.url);
    const sha = await fileSha(full, 'README.md');
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/contents/README.md`, jsonInit('DELETE', { sha }, bob.h)), 403, s.url);

    const secret = await repoOf(alice, { auto_init: true, private: true });
    await expectApiError(await contents(secret, 'README.md', { headers: bob.h }), 404, s.url);
    await expectApiError(await contents(secret), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${secret}/contents/x.txt`, jsonInit('POST', body, bob.h)), 404, s.url);
    expect((await contents(secret, 'README.md', { headers: alice.h })).status).toBe(200);

    const archived = await repoOf(alice, { auto_init: true });
    expect((await s.fetch(`/api/v1/repos/${archived}`, jsonInit('PATCH', { archived: true }, alice.h))).status).toBe(200);
    await expectApiError(await s.fetch(`/api/v1/repos/${archived}/contents/x.txt`, jsonInit('POST', body, alice.h)), 423, s.url);
    expect((await contents(archived, 'README.md')).status).toBe(200);
  });
});

describe('empty repositories and concurrent writers', () => {
  test('an empty repository lists nothing, and its first file creates the default branch', async () => {
    const full = await repoOf(alice);
    expect(await json(await contents(full))).toEqual([]);
    expect(await json(await contents(full, 'README.md'))).toEqual([]);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/contents/a.txt`, jsonInit('PUT', { content: b64('x'), sha: 'abc' }, alice.h)), 422, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/contents/first.txt`, jsonInit('POST', { content: b64('x'), branch: 'no..good' }, alice.h)), 422, s.url);
    const res = await s.fetch(`/api/v1/repos/${full}/contents/first.txt`, jsonInit('POST', { content: b64('first\n') }, alice.h));
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body.commit.parents).toEqual([]);
    expect(body.commit.message).toBe('Add first.txt\n');
    const repo = await json(await s.fetch(`/api/v1/repos/${full}`, { headers: alice.h }));
    expect(repo.empty).toBe(false);
    expect(repo.default_branch).toBe('main');
    expect((await json(await contents(full))).map((e: { name: string }) => e.name)).toEqual(['first.txt']);
  });

  test('a branch that moves between the read and the write is a 409, and the other change stands', async () => {
    const full = await repoOf(alice, { auto_init: true });
    const readmeSha = await fileSha(full, 'README.md');
    const git = s.host.git;
    const statPaths = git.statPaths.bind(git);
    let interloper: Response | undefined;
    // A real second writer lands after this change has read the branch and before it moves it.
    git.statPaths = async (...args) => {
      const answer = await statPaths(...args);
      git.statPaths = statPaths;
      interloper = await s.fetch(`/api/v1/repos/${full}/contents/other.txt`, jsonInit('POST', { content: b64('other\n') }, alice.h));
      return answer;
    };
    try {
      const res = await s.fetch(`/api/v1/repos/${full}/contents/README.md`, jsonInit('PUT', { content: b64('mine\n'), sha: readmeSha }, alice.h));
      await expectApiError(res, 409, s.url);
    } finally {
      git.statPaths = statPaths;
    }
    expect(interloper?.status).toBe(201);
    expect(await fileSha(full, 'README.md')).toBe(readmeSha);
    expect((await contents(full, 'other.txt')).status).toBe(200);
    // Read again, the change goes through.
    expect((await s.fetch(`/api/v1/repos/${full}/contents/README.md`, jsonInit('PUT', { content: b64('mine\n'), sha: readmeSha }, alice.h))).status).toBe(200);
  });

  test('writers racing on one branch: each gets 201 or 409, and every 201 is in the final tree', async () => {
    const full = await repoOf(alice, { auto_init: true });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => s.fetch(`/api/v1/repos/${full}/contents/race-${i}.txt`, jsonInit('POST', { content: b64(`${i}\n`) }, alice.h))),
    );
    const statuses = results.map((r) => r.status);
    for (const status of statuses) expect([201, 409]).toContain(status);
    expect(statuses).toContain(201);
    const names = new Set((await json(await contents(full))).map((e: { name: string }) => e.name));
    statuses.forEach((status, i) => expect(names.has(`race-${i}.txt`), `race-${i}`).toBe(status === 201));
  });
});

describe('size of one change', () => {
  const openDescriptors = () => readdirSync('/proc/self/fd').length;

  test('[api] MAX_CHANGE_FILES files at most (422 naming `files`, the branch unmoved); the body is bounded too', async () => {
    const full = await repoOf(alice, { auto_init: true });
    const before = await json(await contents(full));
    const files = Array.from({ length: 1001 }, (_, i) => ({ operation: 'create', path: `many/f${i}.txt`, content: b64(`${i}\n`) }));
    const message = await expectApiError(await s.fetch(`/api/v1/repos/${full}/contents`, jsonInit('POST', { files }, alice.h)), 422, s.url);
    expect(message).toBe('[files]: a change may name at most 1000 files [given: 1001]');
    expect(await json(await contents(full))).toEqual(before);
    await expectApiError(await contents(full, 'many'), 404, s.url);

    // A body declared larger than the route takes is refused before it is read.
    const { port } = new URL(s.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: `/api/v1/repos/${full}/contents`, headers: { ...alice.h, 'content-type': 'application/json', 'content-length': String(64 * 1024 * 1024 + 1) } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{"files":[');
    });
    expect(status).toBe(413);
  });

  test.skipIf(!existsSync('/proc/self/fd'))('a change of many files holds only a few files open at once (no EMFILE)', async () => {
    const full = await repoOf(alice, { auto_init: true });
    const files = Array.from({ length: 1000 }, (_, i) => ({ operation: 'create', path: `bulk/f${i}.txt`, content: b64(`${i}\n`) }));
    const baseline = openDescriptors();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, openDescriptors());
    }, 1);
    let res: Response;
    try {
      res = await s.fetch(`/api/v1/repos/${full}/contents`, jsonInit('POST', { files, message: 'bulk' }, alice.h));
    } finally {
      clearInterval(sampler);
    }
    expect(res.status, await res.clone().text()).toBe(201);
    const body = await json(res);
    expect(body.files).toHaveLength(1000);
    // One scratch file per blob at once would be ~1000 descriptors; a few writers, git's pipes and sockets stay far below.
    expect(peak - baseline).toBeLessThan(200);
    const listed = await json(await contents(full, 'bulk'));
    expect(listed).toHaveLength(1000);
    expect(Buffer.from((await json(await contents(full, 'bulk/f999.txt'))).content, 'base64').toString()).toBe('999\n');
  });
});
