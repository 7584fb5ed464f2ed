/**
 * Site administrators' repository flags (`/repos/{owner}/{repo}/flags…`): absent unless `[repository]
 * ENABLE_FLAGS`, then reqToken + reqSiteAdmin with the repository and admin token scopes; list, replace, clear,
 * check, add and remove one, and the state each leaves behind.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createToken, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { account, expectApiError, json, uniq, type Account } from './helpers';

async function repoOf(s: TestServer, who: Account, body: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('repo');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, ...body }, who.h));
  expect(res.status).toBe(201);
  return `${who.name}/${name}`;
}

describe('repository flags, enabled', () => {
  let s: TestServer;
  let admin: Account;
  let owner: Account;
  let full: string;
  const flags = (repo: string, h: Record<string, string>) => s.fetch(`/api/v1/repos/${repo}/flags`, { headers: h });

  beforeAll(async () => {
    s = await startTestServer({ repository: { ENABLE_FLAGS: true } });
    admin = await account(s, 'fa', { admin: true });
    owner = await account(s, 'fo');
    full = await repoOf(s, owner);
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('a new repository has none; flags added one by one list in order with their count', async () => {
    const empty = await flags(full, admin.h);
    expect(empty.status).toBe(200);
    expect(empty.headers.get('x-total-count')).toBe('0');
    expect(await json(empty)).toEqual([]);

    expect((await s.fetch(`/api/v1/repos/${full}/flags/featured`, { headers: admin.h })).status).toBe(404);
    for (const flag of ['featured', 'trusted', 'featured']) {
      const res = await s.fetch(`/api/v1/repos/${full}/flags/${flag}`, { method: 'PUT', headers: admin.h });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
    }
    const listed = await flags(full, admin.h);
    expect(listed.headers.get('x-total-count')).toBe('2');
    expect(await json(listed)).toEqual(['featured', 'trusted']);
    expect((await s.fetch(`/api/v1/repos/${full}/flags/featured`, { headers: admin.h })).status).toBe(204);

    expect((await s.fetch(`/api/v1/repos/${full}/flags/featured`, { method: 'DELETE', headers: admin.h })).status).toBe(204);
    // Removing one that is not there changes nothing, and says so with a 204 too.
    expect((await s.fetch(`/api/v1/repos/${full}/flags/featured`, { method: 'DELETE', headers: admin.h })).status).toBe(204);
    expect(await json(await flags(full, admin.h))).toEqual(['trusted']);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/flags/featured`, { headers: admin.h }), 404, s.url);
  });

  test('PUT replaces them all (duplicates once); DELETE and an empty PUT clear them', async () => {
    const repo = await repoOf(s, owner);
    expect((await s.fetch(`/api/v1/repos/${repo}/flags`, jsonInit('PUT', { flags: ['a', 'b', 'a'] }, admin.h))).status).toBe(204);
    expect(await json(await flags(repo, admin.h))).toEqual(['a', 'b']);
    expect((await s.fetch(`/api/v1/repos/${repo}/flags`, jsonInit('PUT', { flags: ['c'] }, admin.h))).status).toBe(204);
    expect(await json(await flags(repo, admin.h))).toEqual(['c']);
    expect((await s.fetch(`/api/v1/repos/${repo}/flags`, { method: 'DELETE', headers: admin.h })).status).toBe(204);
    expect(await json(await flags(repo, admin.h))).toEqual([]);
    expect((await s.fetch(`/api/v1/repos/${repo}/flags`, jsonInit('PUT', { flags: ['d'] }, admin.h))).status).toBe(204);
    expect((await s.fetch(`/api/v1/repos/${repo}/flags`, jsonInit('PUT', {}, admin.h))).status).toBe(204);
    expect(await json(await flags(repo, admin.h))).toEqual([]);
    // The flags are the repository's own: the other repository keeps its.
    expect(await json(await flags(full, admin.h))).toEqual(['trusted']);
  });

  test('bad input: flags that are not strings is a 422', async () => {
    const res = await s.fetch(`/api/v1/repos/${full}/flags`, jsonInit('PUT', { flags: [1] }, admin.h));
    expect(res.status).toBe(422);
    expect(await json(await flags(full, admin.h))).toEqual(['trusted']);
  });

  test('only site administrators: anonymous 401, the owner 403, a missing repository 404', async () => {
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/flags`), 401, s.url);
    await expectApiError(await flags(full, owner.h), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/flags/x`, { method: 'PUT', headers: owner.h }), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/flags`, jsonInit('PUT', { flags: [] }, owner.h)), 403, s.url);
    await expectApiError(await flags(`${owner.name}/${uniq('missing')}`, admin.h), 404, s.url);
    // A private repository is a 404 for whoever may not see it, before the administrator check.
    const hidden = await repoOf(s, owner, { private: true });
    const stranger = await account(s, 'fs');
    await expectApiError(await flags(hidden, stranger.h), 404, s.url);
    expect((await flags(hidden, admin.h)).status).toBe(200);
    expect(await json(await flags(full, admin.h))).toEqual(['trusted']);
  });

  test('a token needs the admin scope besides the repository one (read for GET, write for changes)', async () => {
    const readOnly = tokenHeader(await createToken(s.host, admin.name, ['read:repository', 'read:admin']));
    expect((await flags(full, readOnly)).status).toBe(200);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/flags/x`, { method: 'PUT', headers: readOnly }), 403, s.url);
    const repoOnly = tokenHeader(await createToken(s.host, admin.name, ['write:repository']));
    await expectApiError(await flags(full, repoOnly), 403, s.url);
    const adminOnly = tokenHeader(await createToken(s.host, admin.name, ['write:admin']));
    await expectApiError(await flags(full, adminOnly), 403, s.url);
    expect(await json(await flags(full, admin.h))).toEqual(['trusted']);
  });
});

describe('repository flags, disabled (the default)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('every flag route is a 404, for the administrator and for anonymous callers alike', async () => {
    const admin = await account(s, 'fa', { admin: true });
    const full = await repoOf(s, admin);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/flags`, { headers: admin.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/flags`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/flags/x`, { method: 'PUT', headers: admin.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/flags`, jsonInit('PUT', { flags: ['x'] }, admin.h)), 404, s.url);
  });
});
