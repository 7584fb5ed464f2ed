/**
 * Releases (`/repos/{owner}/{repo}/releases…`) over HTTP with real git: releases on tags pushed with the git
 * client and on tags they create (checked with `git ls-remote`), drafts hidden from readers, the latest release,
 * filters and pages, edits, deletions that keep the tag, the tags API refusing to delete a release's tag, a push
 * deleting a tag unpublishing its release; and assets: multipart and raw uploads downloaded byte-identical, links
 * (`external_url`), renames, deletions, the size limit, and who may see and change them.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AttachmentSchema, ReleaseSchema, matchesSchema, schemaErrors, type ApiAttachment, type ApiRelease } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

interface Account {
  name: string;
  token: string;
  h: Record<string, string>;
}

let s: TestServer;
let scratch: string;
let gitEnv: NodeJS.ProcessEnv;
let alice: Account;
let reader: Account;
let stranger: Account;

function git(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: gitEnv, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr}`));
      else resolve(String(stdout));
    });
  });
}

async function account(prefix: string): Promise<Account> {
  const name = uniq(prefix);
  await createUser(s.host, name);
  const token = await createToken(s.host, name);
  return { name, token, h: tokenHeader(token) };
}

function remote(full: string, who: Account): string {
  return `http://${who.name}:${who.token}@127.0.0.1:${new URL(s.url).port}/${full}.git`;
}

/** `refs/tags/…` → id, as `git ls-remote` reads them from the server. */
async function remoteTags(full: string): Promise<Map<string, string>> {
  const out = await git(['ls-remote', '--tags', remote(full, alice)], scratch);
  const tags = new Map<string, string>();
  for (const line of out.split('\n').filter(Boolean)) {
    const [id, ref] = line.split('\t');
    tags.set(ref!, id!);
  }
  return tags;
}

async function createRepo(body: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('rel');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true, ...body }, alice.h));
  expect(res.status).toBe(201);
  const full = `${alice.name}/${name}`;
  const added = await s.fetch(`/api/v1/repos/${full}/collaborators/${reader.name}`, jsonInit('PUT', { permission: 'read' }, alice.h));
  expect(added.status).toBe(204);
  return full;
}

async function createRelease(full: string, body: Record<string, unknown>, who: Account = alice): Promise<ApiRelease> {
  const res = await s.fetch(`/api/v1/repos/${full}/releases`, jsonInit('POST', body, who.h));
  expect(res.status, await res.clone().text()).toBe(201);
  return checked(await json<ApiRelease>(res));
}

function checked<T extends ApiRelease>(release: T): T {
  expect(matchesSchema(ReleaseSchema, release), schemaErrors(ReleaseSchema, release).join('\n')).toBe(true);
  return release;
}

async function get(pathname: string, who?: Account): Promise<Response> {
  return s.fetch(`/api/v1/repos/${pathname}`, { headers: who?.h ?? {} });
}

beforeAll(async () => {
  s = await startTestServer({ attachment: { MAX_SIZE: 1 } });
  scratch = await mkdtemp(path.join(tmpdir(), 'repohost-releases-'));
  const home = path.join(scratch, 'home');
  await mkdir(home);
  await writeFile(path.join(home, '.gitconfig'), '[user]\n\tname = Git Tester\n\temail = tester@example.com\n');
  gitEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  alice = await account('alice');
  reader = await account('reader');
  stranger = await account('stranger');
});

afterAll(async () => {
  await s?.cleanup();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('releases on tags', () => {
  let full: string;
  let dir: string;
  let main: string;
  let pushedTag: string;

  beforeAll(async () => {
    full = await createRepo();
    dir = path.join(scratch, uniq('wc'));
    await git(['clone', '-q', remote(full, alice), dir], scratch);
    main = (await git(['rev-parse', 'HEAD'], dir)).trim();
    // A second commit on a branch, so a release may target something other than the default branch.
    await writeFile(path.join(dir, 'second.txt'), 'second\n');
    await git(['checkout', '-q', '-b', 'next'], dir);
    await git(['add', 'second.txt'], dir);
    await git(['commit', '-q', '-m', 'second'], dir);
    await git(['tag', '-a', 'v1.0', '-m', 'version one'], dir);
    await git(['push', '-q', 'origin', 'next', 'v1.0'], dir);
    await s.host.events.idle();
    pushedTag = (await remoteTags(full)).get('refs/tags/v1.0')!;
    expect(pushedTag).toBeDefined();
  });

  test('a release on a tag pushed with git: 201, the tag left as it is', async () => {
    const release = await createRelease(full, { tag_name: 'v1.0', name: 'One', body: 'notes' });
    expect(release).toMatchObject({
      tag_name: 'v1.0',
      target_commitish: 'main',
      name: 'One',
      body: 'notes',
      draft: false,
      prerelease: false,
      hide_archive_links: false,
      url: `${s.url}api/v1/repos/${full}/releases/${release.id}`,
      html_url: `${s.url}${full}/releases/tag/v1.0`,
      upload_url: `${s.url}api/v1/repos/${full}/releases/${release.id}/assets`,
      tarball_url: `${s.url}api/v1/repos/${full}/archive/v1.0.tar.gz`,
      zipball_url: `${s.url}api/v1/repos/${full}/archive/v1.0.zip`,
      assets: [],
      archive_download_count: { tar_gz: 0, zip: 0 },
    });
    expect(release.author.login).toBe(alice.name);
    expect(release.published_at).toBe(release.created_at);
    expect((await remoteTags(full)).get('refs/tags/v1.0')).toBe(pushedTag);
    // The archive link serves the tag's tree.
    const archive = await s.fetch(release.tarball_url);
    expect(archive.status).toBe(200);
    await archive.arrayBuffer();

    const byId = await get(`${full}/releases/${release.id}`, alice);
    expect(byId.status).toBe(200);
    expect(await json(byId)).toEqual(release);
    const byTag = await get(`${full}/releases/tags/v1.0`, alice);
    expect(await json(byTag)).toEqual(release);
    // Tag names compare in any case, as Forgejo's lower_tag_name.
    expect((await get(`${full}/releases/tags/V1.0`)).status).toBe(200);
  });

  test('a release creating its tag at target_commitish: the tag exists afterwards, lightweight, at the target', async () => {
    const next = (await git(['rev-parse', 'next'], dir)).trim();
    const release = await createRelease(full, { tag_name: 'v2.0', target_commitish: 'next', prerelease: true });
    expect(release).toMatchObject({ tag_name: 'v2.0', target_commitish: 'next', prerelease: true, name: '' });
    expect((await remoteTags(full)).get('refs/tags/v2.0')).toBe(next);
    // Default target: the default branch.
    await createRelease(full, { tag_name: 'v2.1' });
    expect((await remoteTags(full)).get('refs/tags/v2.1')).toBe(main);
    const repo = await json(await get(full, alice));
    expect(repo.release_counter).toBe(3);
  });

  test('bad input: missing or bad tag_name 422, unknown target 404 (no tag made), a tag with a release 409', async () => {
    const url = `/api/v1/repos/${full}/releases`;
    await expectApiError(await s.fetch(url, jsonInit('POST', { name: 'no tag' }, alice.h)), 422, s.url);
    await expectApiError(await s.fetch(url, jsonInit('POST', { tag_name: '' }, alice.h)), 422, s.url);
    await expectApiError(await s.fetch(url, jsonInit('POST', { tag_name: 'a..b' }, alice.h)), 422, s.url);
    await expectApiError(await s.fetch(url, jsonInit('POST', { tag_name: 'HEAD' }, alice.h)), 422, s.url);
    const message = await expectApiError(await s.fetch(url, jsonInit('POST', { tag_name: 'v9', target_commitish: 'nope' }, alice.h)), 404, s.url);
    expect(message).toContain('target "nope" not found');
    expect((await remoteTags(full)).has('refs/tags/v9')).toBe(false);
    await expectApiError(await s.fetch(url, jsonInit('POST', { tag_name: 'v1.0' }, alice.h)), 409, s.url);
    await expectApiError(await s.fetch(url, jsonInit('POST', { tag_name: 'V1.0' }, alice.h)), 409, s.url);
    await expectApiError(await s.fetch(url, { method: 'POST', headers: { ...alice.h, 'content-type': 'application/json' }, body: '{' }), 422, s.url);
  });

  test('concurrent creations on one new tag: one 201, the others 409', async () => {
    const url = `/api/v1/repos/${full}/releases`;
    const answers = await Promise.all([1, 2, 3].map(() => s.fetch(url, jsonInit('POST', { tag_name: 'race' }, alice.h))));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const r of answers) await r.text();
    const list = await json<ApiRelease[]>(await get(`${full}/releases?limit=50`, alice));
    expect(list.filter((r) => r.tag_name === 'race')).toHaveLength(1);
  });

  test('the tags API refuses to delete a tag a release uses (409)', async () => {
    const message = await expectApiError(await s.fetch(`/api/v1/repos/${full}/tags/v2.1`, { method: 'DELETE', headers: alice.h }), 409, s.url);
    expect(message).toBe('a tag attached to a release cannot be deleted directly');
    expect((await remoteTags(full)).has('refs/tags/v2.1')).toBe(true);
  });

  test('rights: anonymous may read a public repository, not write (401); a reader gets 403; a stranger of a private one 404', async () => {
    expect((await get(`${full}/releases`)).status).toBe(200);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/releases`, jsonInit('POST', { tag_name: 'x1' })), 401, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/releases`, jsonInit('POST', { tag_name: 'x1' }, reader.h)), 403, s.url);
    const release = await json<ApiRelease>(await get(`${full}/releases/tags/v1.0`));
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/releases/${release.id}`, jsonInit('PATCH', { name: 'x' }, reader.h)), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/releases/${release.id}`, { method: 'DELETE', headers: reader.h }), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/releases/tags/v1.0`, { method: 'DELETE', headers: reader.h }), 403, s.url);

    const priv = await createRepo({ private: true });
    const hidden = await createRelease(priv, { tag_name: 'p1' });
    for (const who of [undefined, stranger]) {
      for (const p of ['releases', `releases/${hidden.id}`, 'releases/tags/p1', 'releases/latest', `releases/${hidden.id}/assets`]) {
        await expectApiError(await get(`${priv}/${p}`, who), 404, s.url);
      }
      // Anonymous: the token is asked for first (401), as on every write route.
      await expectApiError(await s.fetch(`/api/v1/repos/${priv}/releases`, jsonInit('POST', { tag_name: 'p2' }, who?.h)), who ? 404 : 401, s.url);
    }
    expect((await get(`${priv}/releases/${hidden.id}`, reader)).status).toBe(200);
  });

  test('unknown ids and tags are 404', async () => {
    for (const p of ['releases/123456', 'releases/abc', 'releases/0', 'releases/-1', 'releases/tags/nope', 'releases/123456/assets', 'releases/123456/assets/1']) {
      await expectApiError(await get(`${full}/${p}`, alice), 404, s.url);
    }
  });
});

describe('drafts, latest, lists and edits', () => {
  let full: string;

  beforeAll(async () => {
    full = await createRepo();
  });

  test('a draft on a new tag makes no tag; readers and strangers do not see it; publishing it makes the tag', async () => {
    const draft = await createRelease(full, { tag_name: 'd1', target_commitish: 'main', name: 'Draft', body: 'wip', draft: true, prerelease: true });
    expect(draft).toMatchObject({ draft: true, prerelease: true, target_commitish: 'main' });
    expect((await remoteTags(full)).has('refs/tags/d1')).toBe(false);

    for (const who of [undefined, reader, stranger]) {
      await expectApiError(await get(`${full}/releases/${draft.id}`, who), 404, s.url);
      await expectApiError(await get(`${full}/releases/tags/d1`, who), 404, s.url);
      await expectApiError(await get(`${full}/releases/${draft.id}/assets`, who), 404, s.url);
      const list = await get(`${full}/releases?draft=true`, who);
      expect(await json(list)).toEqual([]);
      expect(list.headers.get('x-total-count')).toBe('0');
    }
    const mine = await json<ApiRelease[]>(await get(`${full}/releases`, alice));
    expect(mine.map((r) => r.id)).toEqual([draft.id]);
    // A draft is not counted.
    expect((await json(await get(full, alice))).release_counter).toBe(0);

    // Publishing (an empty body changes nothing, as in Forgejo).
    const res = await s.fetch(`/api/v1/repos/${full}/releases/${draft.id}`, jsonInit('PATCH', { name: 'Published', body: '', draft: false, prerelease: false }, alice.h));
    expect(res.status).toBe(200);
    const published = checked(await json<ApiRelease>(res));
    expect(published).toMatchObject({ id: draft.id, name: 'Published', body: 'wip', draft: false, prerelease: false, target_commitish: 'main' });
    const main = (await remoteTags(full)).get('refs/tags/d1');
    expect(main).toMatch(/^[0-9a-f]{40}$/);
    expect((await get(`${full}/releases/${draft.id}`, reader)).status).toBe(200);
    expect((await json(await get(full, alice))).release_counter).toBe(1);
  });

  test('latest is the newest release neither draft nor pre-release', async () => {
    await createRelease(full, { tag_name: 'pre', prerelease: true });
    await createRelease(full, { tag_name: 'hidden', draft: true });
    const latest = await get(`${full}/releases/latest`, alice);
    expect(latest.status).toBe(200);
    expect((await json<ApiRelease>(latest)).tag_name).toBe('d1');
    const empty = await createRepo();
    await expectApiError(await get(`${empty}/releases/latest`, alice), 404, s.url);
  });

  test('filters (draft, pre-release, q) and pages with X-Total-Count and Link', async () => {
    const tags = async (query: string, who: Account = alice) => (await json<ApiRelease[]>(await get(`${full}/releases${query}`, who))).map((r) => r.tag_name);
    expect(await tags('')).toEqual(['hidden', 'pre', 'd1']);
    expect(await tags('', reader)).toEqual(['pre', 'd1']);
    expect(await tags('?draft=true')).toEqual(['hidden']);
    expect(await tags('?draft=false')).toEqual(['pre', 'd1']);
    expect(await tags('?pre-release=true')).toEqual(['pre']);
    expect(await tags('?pre-release=false&draft=false')).toEqual(['d1']);
    expect(await tags('?pre-release=maybe')).toEqual(['hidden', 'pre', 'd1']);
    expect(await tags('?q=PUBLISH')).toEqual(['d1']);
    expect(await tags('?q=%25')).toEqual([]);
    const page = await get(`${full}/releases?limit=1&page=2`, alice);
    expect(page.headers.get('x-total-count')).toBe('3');
    expect(page.headers.get('link')).toContain('rel="next"');
    expect((await json<ApiRelease[]>(page)).map((r) => r.tag_name)).toEqual(['pre']);
  });

  test('edit: renaming the tag to one with a release is 409; to a new name makes that tag', async () => {
    const pre = await json<ApiRelease>(await get(`${full}/releases/tags/pre`, alice));
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/releases/${pre.id}`, jsonInit('PATCH', { tag_name: 'D1' }, alice.h)), 409, s.url);
    const res = await s.fetch(`/api/v1/repos/${full}/releases/${pre.id}`, jsonInit('PATCH', { tag_name: 'pre2' }, alice.h));
    expect(res.status).toBe(200);
    expect((await json<ApiRelease>(res)).tag_name).toBe('pre2');
    const tags = await remoteTags(full);
    expect(tags.has('refs/tags/pre2')).toBe(true);
    expect(tags.has('refs/tags/pre')).toBe(true);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/releases/999999`, jsonInit('PATCH', { name: 'x' }, alice.h)), 404, s.url);
  });

  test('delete by id and by tag: 204, the tag stays, then 404', async () => {
    const pre = await json<ApiRelease>(await get(`${full}/releases/tags/pre2`, alice));
    expect((await s.fetch(`/api/v1/repos/${full}/releases/${pre.id}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    await expectApiError(await get(`${full}/releases/${pre.id}`, alice), 404, s.url);
    expect((await s.fetch(`/api/v1/repos/${full}/releases/tags/d1`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/releases/tags/d1`, { method: 'DELETE', headers: alice.h }), 404, s.url);
    const tags = await remoteTags(full);
    expect(tags.has('refs/tags/pre2')).toBe(true);
    expect(tags.has('refs/tags/d1')).toBe(true);
    // The tag is free again: it may be deleted through the tags API, or get a new release.
    await createRelease(full, { tag_name: 'd1' });
    expect((await s.fetch(`/api/v1/repos/${full}/tags/pre2`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
  });

  test('a push deleting a release tag turns the release into a draft', async () => {
    const release = await json<ApiRelease>(await get(`${full}/releases/tags/d1`, alice));
    const dir = path.join(scratch, uniq('wc'));
    await git(['clone', '-q', remote(full, alice), dir], scratch);
    await git(['push', '-q', 'origin', ':refs/tags/d1'], dir);
    await s.host.events.idle();
    const after = await json<ApiRelease>(await get(`${full}/releases/${release.id}`, alice));
    expect(after.draft).toBe(true);
    await expectApiError(await get(`${full}/releases/${release.id}`, reader), 404, s.url);
  });

  test('releases go with their repository', async () => {
    const repo = await createRepo();
    await createRelease(repo, { tag_name: 'gone' });
    expect((await s.fetch(`/api/v1/repos/${repo}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    await s.host.events.idle();
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo.split('/')[1], auto_init: true }, alice.h));
    expect(res.status).toBe(201);
    expect(await json(await get(`${repo}/releases`, alice))).toEqual([]);
  });

  test('a protected tag name is 422 for a release that would create it; a draft may name it', async () => {
    const rule = await s.fetch(`/api/v1/repos/${full}/tag_protections`, jsonInit('POST', { name_pattern: 'locked*', whitelist_usernames: [reader.name] }, alice.h));
    expect(rule.status, await rule.clone().text()).toBe(201);
    const message = await expectApiError(await s.fetch(`/api/v1/repos/${full}/releases`, jsonInit('POST', { tag_name: 'locked1' }, alice.h)), 422, s.url);
    expect(message).toBe('release tag name is protected [tag_name: locked1]');
    expect((await remoteTags(full)).has('refs/tags/locked1')).toBe(false);
    const draft = await createRelease(full, { tag_name: 'locked2', draft: true });
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/releases/${draft.id}`, jsonInit('PATCH', { draft: false }, alice.h)), 422, s.url);
  });

  test('a repository without the releases unit answers 404; an archived one refuses writes (423)', async () => {
    const repo = await createRepo();
    await createRelease(repo, { tag_name: 'u1' });
    expect((await s.fetch(`/api/v1/repos/${repo}`, jsonInit('PATCH', { archived: true }, alice.h))).status).toBe(200);
    await expectApiError(await s.fetch(`/api/v1/repos/${repo}/releases`, jsonInit('POST', { tag_name: 'u2' }, alice.h)), 423, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${repo}/releases/tags/u1`, { method: 'DELETE', headers: alice.h }), 423, s.url);
    expect((await get(`${repo}/releases/tags/u1`, reader)).status).toBe(200);
    expect((await s.fetch(`/api/v1/repos/${repo}`, jsonInit('PATCH', { archived: false, has_releases: false }, alice.h))).status).toBe(200);
    for (const who of [alice, reader]) {
      await expectApiError(await get(`${repo}/releases`, who), 404, s.url);
      await expectApiError(await get(`${repo}/releases/tags/u1`, who), 404, s.url);
    }
    await expectApiError(await s.fetch(`/api/v1/repos/${repo}/releases`, jsonInit('POST', { tag_name: 'u3' }, alice.h)), 404, s.url);
  });

  test('an empty repository is 422', async () => {
    const name = uniq('empty');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name }, alice.h))).status).toBe(201);
    await expectApiError(await s.fetch(`/api/v1/repos/${alice.name}/${name}/releases`, jsonInit('POST', { tag_name: 'v1' }, alice.h)), 422, s.url);
  });
});

describe('assets', () => {
  let full: string;
  let release: ApiRelease;
  let draft: ApiRelease;

  const assetsUrl = (id: number, query = '') => `/api/v1/repos/${full}/releases/${id}/assets${query}`;

  function form(name: string, content: Uint8Array | string, field = 'attachment'): FormData {
    const data = new FormData();
    data.append(field, new Blob([content]), name);
    return data;
  }

  function checkedAsset(asset: ApiAttachment): ApiAttachment {
    expect(matchesSchema(AttachmentSchema, asset), schemaErrors(AttachmentSchema, asset).join('\n')).toBe(true);
    return asset;
  }

  beforeAll(async () => {
    full = await createRepo();
    release = await createRelease(full, { tag_name: 'v1' });
    draft = await createRelease(full, { tag_name: 'v2', draft: true });
  });

  test('multipart upload, downloaded byte-identical with the sniffed type; listed on the release', async () => {
    const bytes = randomBytes(200_000);
    const res = await s.fetch(assetsUrl(release.id), { method: 'POST', headers: alice.h, body: form('tool.bin', bytes) });
    expect(res.status, await res.clone().text()).toBe(201);
    const asset = checkedAsset(await json<ApiAttachment>(res));
    expect(asset).toMatchObject({ name: 'tool.bin', size: bytes.length, download_count: 0, type: 'attachment' });
    expect(asset.browser_download_url).toBe(`${s.url}attachments/${asset.uuid}`);

    const download = await s.fetch(asset.browser_download_url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    const text = await s.fetch(assetsUrl(release.id, '?name=notes.txt'), { method: 'POST', headers: alice.h, body: form('ignored.bin', 'hello notes\n') });
    expect(text.status).toBe(201);
    const notes = checkedAsset(await json<ApiAttachment>(text));
    expect(notes.name).toBe('notes.txt');
    const served = await s.fetch(notes.browser_download_url);
    expect(served.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await served.text()).toBe('hello notes\n');

    const listed = await json<ApiAttachment[]>(await get(`${full}/releases/${release.id}/assets`));
    expect(listed.map((a) => a.name)).toEqual(['notes.txt', 'tool.bin']);
    expect(listed.find((a) => a.id === asset.id)!.download_count).toBe(1);
    const onRelease = checked(await json<ApiRelease>(await get(`${full}/releases/${release.id}`)));
    expect(onRelease.assets.map((a) => a.name)).toEqual(['notes.txt', 'tool.bin']);
    const one = await get(`${full}/releases/${release.id}/assets/${asset.id}`);
    expect(checkedAsset(await json(one)).id).toBe(asset.id);
    // Another release's asset id is 404 here.
    await expectApiError(await get(`${full}/releases/${draft.id}/assets/${asset.id}`, alice), 404, s.url);
  });

  test('a raw body upload needs a name (400 without)', async () => {
    const bytes = randomBytes(1000);
    const res = await s.fetch(assetsUrl(release.id, '?name=raw.dat'), { method: 'POST', headers: { ...alice.h, 'content-type': 'application/octet-stream' }, body: bytes });
    expect(res.status, await res.clone().text()).toBe(201);
    const asset = checkedAsset(await json(res));
    expect(asset.size).toBe(1000);
    expect(Buffer.from(await (await s.fetch(asset.browser_download_url)).arrayBuffer()).equals(bytes)).toBe(true);
    const message = await expectApiError(
      await s.fetch(assetsUrl(release.id), { method: 'POST', headers: { ...alice.h, 'content-type': 'application/octet-stream' }, body: bytes }),
      400,
      s.url,
    );
    expect(message).toBe("Missing 'name' parameter");
  });

  test('links (external_url): named from the URL, edited; with a file or with nothing: 400; a bad URL: 400', async () => {
    const res = await s.fetch(assetsUrl(release.id, `?external_url=${encodeURIComponent('https://example.com/dl/tool-1.0.tar.gz')}`), { method: 'POST', headers: alice.h });
    expect(res.status, await res.clone().text()).toBe(201);
    const link = checkedAsset(await json(res));
    expect(link).toMatchObject({ name: 'tool-1.0.tar.gz', type: 'external', browser_download_url: 'https://example.com/dl/tool-1.0.tar.gz', size: 0 });
    const edited = await s.fetch(assetsUrl(release.id, `/${link.id}`), jsonInit('PATCH', { name: 'renamed', browser_download_url: 'https://example.org/x' }, alice.h));
    expect(edited.status, await edited.clone().text()).toBe(201);
    expect(checkedAsset(await json(edited))).toMatchObject({ name: 'renamed', browser_download_url: 'https://example.org/x' });

    // As form fields (what Forgejo documents), which win over the query.
    const fields = new FormData();
    fields.append('name', 'from-form');
    fields.append('external_url', 'https://example.com/form');
    const viaForm = await s.fetch(assetsUrl(release.id, '?name=from-query'), { method: 'POST', headers: alice.h, body: fields });
    expect(viaForm.status, await viaForm.clone().text()).toBe(201);
    expect(checkedAsset(await json(viaForm))).toMatchObject({ name: 'from-form', type: 'external', browser_download_url: 'https://example.com/form' });
    const hostOnly = await s.fetch(assetsUrl(release.id, '?external_url=https://example.com'), { method: 'POST', headers: alice.h });
    expect((await json(hostOnly)).name).toBe('example.com');

    const both = await s.fetch(assetsUrl(release.id, '?external_url=https://example.com/a'), { method: 'POST', headers: alice.h, body: form('a.txt', 'a') });
    expect(await expectApiError(both, 400, s.url)).toBe("'attachment' and 'external_url' are mutually exclusive");
    expect(await expectApiError(await s.fetch(assetsUrl(release.id), { method: 'POST', headers: alice.h }), 400, s.url)).toBe(
      "One of 'attachment' or 'external_url' is required",
    );
    await expectApiError(await s.fetch(assetsUrl(release.id), { method: 'POST', headers: alice.h, body: form('a.txt', 'a', 'other') }), 400, s.url);
    await expectApiError(await s.fetch(assetsUrl(release.id, '?external_url=ftp://example.com/a'), { method: 'POST', headers: alice.h }), 400, s.url);
    await expectApiError(await s.fetch(assetsUrl(release.id, '?external_url=nope'), { method: 'POST', headers: alice.h }), 400, s.url);
  });

  test('a file may not get a link (400); rename and delete; the download is gone after', async () => {
    const res = await s.fetch(assetsUrl(release.id), { method: 'POST', headers: alice.h, body: form('del.txt', 'bye\n') });
    const asset = checkedAsset(await json(res));
    await expectApiError(await s.fetch(assetsUrl(release.id, `/${asset.id}`), jsonInit('PATCH', { browser_download_url: 'https://example.com' }, alice.h)), 400, s.url);
    const renamed = await s.fetch(assetsUrl(release.id, `/${asset.id}`), jsonInit('PATCH', { name: 'kept.txt' }, alice.h));
    expect(renamed.status).toBe(201);
    expect((await json(renamed)).name).toBe('kept.txt');
    expect((await s.fetch(assetsUrl(release.id, `/${asset.id}`), { method: 'DELETE', headers: alice.h })).status).toBe(204);
    await expectApiError(await get(`${full}/releases/${release.id}/assets/${asset.id}`), 404, s.url);
    expect((await s.fetch(asset.browser_download_url)).status).toBe(404);
  });

  test('past [attachment] MAX_SIZE: 413, nothing stored', async () => {
    const before = (await json<ApiAttachment[]>(await get(`${full}/releases/${release.id}/assets`))).length;
    const res = await s.fetch(assetsUrl(release.id), { method: 'POST', headers: alice.h, body: form('big.bin', randomBytes(1024 * 1024 + 10)) });
    expect(res.status).toBe(413);
    await res.text();
    expect((await json<ApiAttachment[]>(await get(`${full}/releases/${release.id}/assets`))).length).toBe(before);
  });

  test('who may: readers read, not write (403); drafts and their assets are hidden (404); anonymous writes 401', async () => {
    await expectApiError(await s.fetch(assetsUrl(release.id), { method: 'POST', headers: reader.h, body: form('r.txt', 'r') }), 403, s.url);
    await expectApiError(await s.fetch(assetsUrl(release.id), { method: 'POST', body: form('r.txt', 'r') }), 401, s.url);
    const up = await s.fetch(assetsUrl(draft.id), { method: 'POST', headers: alice.h, body: form('draft.txt', 'secret\n') });
    expect(up.status).toBe(201);
    const asset = checkedAsset(await json(up));
    await expectApiError(await get(`${full}/releases/${draft.id}/assets`, reader), 404, s.url);
    await expectApiError(await get(`${full}/releases/${draft.id}/assets/${asset.id}`, reader), 404, s.url);
    expect((await json<ApiAttachment[]>(await get(`${full}/releases/${draft.id}/assets`, alice))).map((a) => a.name)).toEqual(['draft.txt']);
  });

  test('deleting a release removes its assets and their files', async () => {
    const listed = await json<ApiAttachment[]>(await get(`${full}/releases/${draft.id}/assets`, alice));
    expect((await s.fetch(`/api/v1/repos/${full}/releases/${draft.id}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    for (const asset of listed) expect((await s.fetch(asset.browser_download_url, { headers: alice.h })).status).toBe(404);
  });

  test('a private repository hides its assets from strangers', async () => {
    const priv = await createRepo({ private: true });
    const r = await createRelease(priv, { tag_name: 'p' });
    const up = await s.fetch(`/api/v1/repos/${priv}/releases/${r.id}/assets`, { method: 'POST', headers: alice.h, body: form('p.txt', 'private\n') });
    const asset = checkedAsset(await json(up));
    await expectApiError(await get(`${priv}/releases/${r.id}/assets/${asset.id}`, stranger), 404, s.url);
    expect((await s.fetch(asset.browser_download_url, { headers: stranger.h })).status).toBe(404);
    expect((await s.fetch(asset.browser_download_url)).status).toBe(404);
    expect(await (await s.fetch(asset.browser_download_url, { headers: reader.h })).text()).toBe('private\n');
  });
});

describe('events', () => {
  test('published, updated and deleted are announced for published releases only', async () => {
    const full = await createRepo();
    const seen: string[] = [];
    const off = [
      s.host.events.on('release.published', ({ payload }) => void seen.push(`published ${payload.release.tag_name}`)),
      s.host.events.on('release.updated', ({ payload }) => void seen.push(`updated ${payload.release.tag_name}`)),
      s.host.events.on('release.deleted', ({ payload }) => void seen.push(`deleted ${payload.release.tag_name}`)),
    ];
    try {
      const draft = await createRelease(full, { tag_name: 'e1', draft: true });
      const pub = await createRelease(full, { tag_name: 'e2' });
      await s.fetch(`/api/v1/repos/${full}/releases/${pub.id}`, jsonInit('PATCH', { name: 'renamed' }, alice.h));
      await s.fetch(`/api/v1/repos/${full}/releases/${draft.id}`, jsonInit('PATCH', { draft: false }, alice.h));
      await s.fetch(`/api/v1/repos/${full}/releases/${pub.id}`, { method: 'DELETE', headers: alice.h });
      await s.host.events.idle();
      expect(seen.filter((e) => / e[12]$/.test(e))).toEqual(['published e2', 'updated e2', 'published e1', 'deleted e2']);
    } finally {
      for (const stop of off) if (typeof stop === 'function') stop();
    }
  });
});
