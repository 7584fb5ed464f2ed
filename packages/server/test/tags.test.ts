/**
 * Tags (`/repos/{owner}/{repo}/tags…`) over real git, sha1 and sha256 repositories: lightweight and annotated
 * tags, checked against what the `git` binary reads afterwards.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TagSchema, matchesSchema, type User } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

let s: TestServer;
let alice: User;
let h: Record<string, string>;
let bobH: Record<string, string>;

function git(repoName: string, args: string[]): Promise<string> {
  const dir = path.join(s.host.settings.repository.ROOT, alice.lower_name, `${repoName.toLowerCase()}.git`);
  return new Promise((resolve, reject) => {
    execFile('git', ['--git-dir', dir, ...args], { env: { PATH: process.env.PATH, HOME: '/nonexistent' } }, (error, stdout, stderr) =>
      error ? reject(new Error(`git ${args.join(' ')}: ${stderr}`)) : resolve(String(stdout).trim()),
    );
  });
}

async function createRepo(body: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('tg');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { auto_init: true, ...body, name }, h));
  expect(res.status).toBe(201);
  return name;
}

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s.host, uniq('alice'));
  const bob = await createUser(s.host, uniq('bob'));
  h = tokenHeader(await createToken(s.host, alice.name));
  bobH = tokenHeader(await createToken(s.host, bob.name));
});

afterAll(async () => {
  await s?.cleanup();
});

describe.each(['sha1', 'sha256'])('tags in a %s repository', (format) => {
  let repo: string;
  let base: string;
  let mainId: string;

  beforeAll(async () => {
    repo = await createRepo({ object_format_name: format });
    base = `/api/v1/repos/${alice.name}/${repo}`;
    mainId = await git(repo, ['rev-parse', 'refs/heads/main']);
  });

  test('creates a lightweight tag at the default branch', async () => {
    const res = await s.fetch(`${base}/tags`, jsonInit('POST', { tag_name: 'v1.0.0' }, h));
    expect(res.status).toBe(201);
    const tag = await json<any>(res);
    expect(matchesSchema(TagSchema, tag)).toBe(true);
    expect(tag).toMatchObject({
      name: 'v1.0.0',
      id: mainId,
      message: 'Initial commit',
      commit: { sha: mainId, url: `${s.url}api/v1/repos/${alice.name}/${repo}/git/commits/${mainId}` },
      zipball_url: `${s.url}${alice.name}/${repo}/archive/v1.0.0.zip`,
      tarball_url: `${s.url}${alice.name}/${repo}/archive/v1.0.0.tar.gz`,
      archive_download_count: { zip: 0, tar_gz: 0 },
    });
    expect(await git(repo, ['cat-file', '-t', 'refs/tags/v1.0.0'])).toBe('commit');
    expect(await git(repo, ['rev-parse', 'refs/tags/v1.0.0'])).toBe(mainId);
  });

  test('creates an annotated tag with the caller as tagger', async () => {
    const message = 'A tag message.\n\n:)';
    const res = await s.fetch(`${base}/tags`, jsonInit('POST', { tag_name: 'release/v2', message, target: mainId }, h));
    expect(res.status).toBe(201);
    const tag = await json<any>(res);
    expect(matchesSchema(TagSchema, tag)).toBe(true);
    expect(tag.message).toBe(message);
    expect(tag.commit.sha).toBe(mainId);
    expect(tag.id).not.toBe(mainId);
    expect(tag.id).toHaveLength(mainId.length);
    expect(await git(repo, ['rev-parse', 'refs/tags/release/v2'])).toBe(tag.id);
    const object = await git(repo, ['cat-file', '-p', tag.id]);
    expect(object).toContain(`object ${mainId}\ntype commit\ntag release/v2\ntagger ${alice.name} <${alice.email}> `);
    expect(object.endsWith(`\n\n${message}`)).toBe(true);
    expect(tag.commit.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    // A name with slashes is one path parameter.
    const got = await s.fetch(`${base}/tags/release/v2`, { headers: h });
    expect(got.status).toBe(200);
    expect(await json(got)).toEqual(tag);
  });

  test('lists tags a page at a time', async () => {
    const res = await s.fetch(`${base}/tags?limit=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('2');
    const page = await json<any[]>(res);
    expect(page).toHaveLength(1);
    expect(matchesSchema(TagSchema, page[0])).toBe(true);
    const all = await json<any[]>(await s.fetch(`${base}/tags`));
    expect(all.map((t) => t.name).sort()).toEqual(['release/v2', 'v1.0.0']);
  });

  test('refuses duplicates (409), missing targets (404) and invalid names (422)', async () => {
    await expectApiError(await s.fetch(`${base}/tags`, jsonInit('POST', { tag_name: 'v1.0.0' }, h)), 409, s.url);
    await expectApiError(await s.fetch(`${base}/tags`, jsonInit('POST', { tag_name: 'v9', target: 'nope' }, h)), 404, s.url);
    await expectApiError(await s.fetch(`${base}/tags`, jsonInit('POST', { tag_name: 'v9', target: '--all' }, h)), 404, s.url);
    for (const bad of ['--foo', 'a..b', 'HEAD', 'x.lock', 'a b', '', 'a^', 'tail/']) {
      await expectApiError(await s.fetch(`${base}/tags`, jsonInit('POST', { tag_name: bad }, h)), 422, s.url);
    }
    await expectApiError(await s.fetch(`${base}/tags/nope`), 404, s.url);
    await expectApiError(await s.fetch(`${base}/tags/--all`), 404, s.url);
  });

  test('deletes a tag (204), then 404', async () => {
    expect((await s.fetch(`${base}/tags/v1.0.0`, { method: 'DELETE', headers: h })).status).toBe(204);
    await expectApiError(await s.fetch(`${base}/tags/v1.0.0`), 404, s.url);
    await expectApiError(await s.fetch(`${base}/tags/v1.0.0`, { method: 'DELETE', headers: h }), 404, s.url);
    expect(await git(repo, ['for-each-ref', '--format=%(refname)', 'refs/tags'])).toBe('refs/tags/release/v2');
  });
});

describe('who may write tags', () => {
  test('anonymous 401, a reader 403, a private repository 404 to others, an archived one 423', async () => {
    const repo = await createRepo();
    const base = `/api/v1/repos/${alice.name}/${repo}`;
    expect((await s.fetch(`${base}/tags`, jsonInit('POST', { tag_name: 'keep' }, h))).status).toBe(201);
    await expectApiError(await s.fetch(`${base}/tags`, jsonInit('POST', { tag_name: 'x' })), 401, s.url);
    await expectApiError(await s.fetch(`${base}/tags`, jsonInit('POST', { tag_name: 'x' }, bobH)), 403, s.url);
    await expectApiError(await s.fetch(`${base}/tags/keep`, { method: 'DELETE', headers: bobH }), 403, s.url);

    const priv = await createRepo({ private: true });
    await expectApiError(await s.fetch(`/api/v1/repos/${alice.name}/${priv}/tags`, { headers: bobH }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${alice.name}/${priv}/tags`, jsonInit('POST', { tag_name: 'x' }, bobH)), 404, s.url);

    expect((await s.fetch(base, jsonInit('PATCH', { archived: true }, h))).status).toBe(200);
    await expectApiError(await s.fetch(`${base}/tags`, jsonInit('POST', { tag_name: 'x' }, h)), 423, s.url);
    await expectApiError(await s.fetch(`${base}/tags/keep`, { method: 'DELETE', headers: h }), 423, s.url);
    expect((await s.fetch(`${base}/tags/keep`)).status).toBe(200);
  });

  test('an empty repository has no tags and nothing to tag', async () => {
    const repo = await createRepo({ auto_init: false });
    const base = `/api/v1/repos/${alice.name}/${repo}`;
    expect(await json(await s.fetch(`${base}/tags`, { headers: h }))).toEqual([]);
    await expectApiError(await s.fetch(`${base}/tags`, jsonInit('POST', { tag_name: 'v1' }, h)), 404, s.url);
  });
});
