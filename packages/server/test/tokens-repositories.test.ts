/**
 * Repository-limited access tokens (`repositories` on CreateAccessTokenOption, as Forgejo's): the token works on
 * the repositories it names as its owner may, reads other public repositories of public owners, and sees nothing
 * else, through single reads, lists and searches, and git over HTTP alike; creation refuses what Forgejo refuses.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AccessTokenSchema, schemaErrors } from '@repohost/core';
import { PASSWORD, basic, createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

describe('repository-limited access tokens', () => {
  let s: TestServer;
  let alice: string;
  let bob: string;
  let carol: string;
  let scratch: string;
  const pw = (name: string) => ({ Authorization: basic(name, PASSWORD) });

  function git(args: string[], cwd: string): Promise<{ code: number; stderr: string }> {
    const env = { PATH: process.env.PATH, HOME: cwd, LANG: 'C', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
    return new Promise((resolve) => execFile('git', args, { cwd, env, timeout: 60_000 }, (error, _out, stderr) => resolve({ code: error ? 1 : 0, stderr: String(stderr) })));
  }

  async function repo(owner: string, name: string, isPrivate: boolean): Promise<void> {
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, private: isPrivate, auto_init: true }, pw(owner)));
    expect(res.status).toBe(201);
  }

  function create(owner: string, body: unknown): Promise<Response> {
    return s.fetch(`/api/v1/users/${owner}/tokens`, jsonInit('POST', body, pw(owner)));
  }

  beforeAll(async () => {
    s = await startTestServer();
    scratch = await mkdtemp(path.join(tmpdir(), 'repohost-token-repos-'));
    [alice, bob, carol] = [uniq('ta'), uniq('tb'), uniq('tc')];
    for (const name of [alice, bob, carol]) await createUser(s.host, name);
    await repo(alice, 'granted', true);
    await repo(alice, 'other', true);
    await repo(alice, 'open', false);
    await repo(bob, 'bobs', false);
    await repo(carol, 'hidden', true);
  });
  afterAll(async () => {
    await s?.cleanup();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  test('the named repository as the owner may; other public ones read-only; nothing else', async () => {
    const res = await create(alice, { name: 'limited', scopes: ['write:repository'], repositories: [{ owner: alice, name: 'granted' }] });
    expect(res.status).toBe(201);
    const made = await json(res);
    expect(schemaErrors(AccessTokenSchema, made)).toEqual([]);
    expect(made.repositories).toEqual([{ id: expect.any(Number), name: 'granted', owner: alice, full_name: `${alice}/granted` }]);
    const h = tokenHeader(made.sha1);

    const granted = await json(await s.fetch(`/api/v1/repos/${alice}/granted`, { headers: h }));
    expect(granted.permissions).toMatchObject({ admin: true, push: true, pull: true });
    await expectApiError(await s.fetch(`/api/v1/repos/${alice}/other`, { headers: h }), 404, s.url);
    const open = await json(await s.fetch(`/api/v1/repos/${alice}/open`, { headers: h }));
    expect(open.permissions).toMatchObject({ admin: false, push: false, pull: true });
    expect((await s.fetch(`/api/v1/repos/${alice}/open`, jsonInit('PATCH', { description: 'no' }, h))).status).toBe(403);
    expect((await s.fetch(`/api/v1/repos/${alice}/granted`, jsonInit('PATCH', { description: 'yes' }, h))).status).toBe(200);
    expect((await s.fetch(`/api/v1/repos/${bob}/bobs`, { headers: h })).status).toBe(200);

    // Searches agree with single reads (listing an account's repositories needs a user scope such a token lacks).
    expect((await s.fetch('/api/v1/user/repos', { headers: h })).status).toBe(403);
    const search = await s.fetch(`/api/v1/repos/search?q=&limit=50&private=true`, { headers: h });
    const names = (await json(search)).data.map((r: { full_name: string }) => r.full_name);
    expect(names).toContain(`${alice}/granted`);
    expect(names).toContain(`${alice}/open`);
    expect(names).not.toContain(`${alice}/other`);
    expect(Number(search.headers.get('x-total-count'))).toBe(names.length);
    // The same search with an ordinary session sees `other` too.
    const all = (await json(await s.fetch(`/api/v1/repos/search?q=&limit=50&private=true`, { headers: pw(alice) }))).data.map((r: { full_name: string }) => r.full_name);
    expect(all).toContain(`${alice}/other`);

    // Git over HTTP with the token as the password.
    const url = (name: string) => s.url.replace('http://', `http://${alice}:${made.sha1}@`) + `${alice}/${name}.git`;
    expect((await git(['clone', '-q', url('granted'), 'granted'], scratch)).code).toBe(0);
    expect((await git(['clone', '-q', url('other'), 'other'], scratch)).code).not.toBe(0);
  });

  test('an ordinary token is not limited, and lists say which is which', async () => {
    const plain = await json(await create(alice, { name: 'plain', scopes: ['read:repository'] }));
    expect(plain.repositories).toBeNull();
    expect((await s.fetch(`/api/v1/repos/${alice}/other`, { headers: tokenHeader(plain.sha1) })).status).toBe(200);
    const listed = await json(await s.fetch(`/api/v1/users/${alice}/tokens`, { headers: pw(alice) }));
    const byName = new Map(listed.map((t: { name: string; repositories: unknown }) => [t.name, t.repositories]));
    expect(byName.get('plain')).toBeNull();
    expect(byName.get('limited')).toEqual([expect.objectContaining({ full_name: `${alice}/granted` })]);
  });

  test("a site administrator's limited token passes Forgejo's reqAdmin on other repositories: the request is read", async () => {
    const admin = uniq('tadm');
    await createUser(s.host, admin, { admin: true });
    await repo(admin, 'own', false);
    const res = await create(admin, { name: 'limited', scopes: ['write:repository'], repositories: [{ owner: admin, name: 'own' }] });
    const h = tokenHeader((await json(res)).sha1);
    // Site administrators are repository administrators everywhere (reqAdmin's IsUserSiteAdmin), so the route reads
    // the body: a malformed one is 422, not the 403 of a caller who is no administrator.
    await expectApiError(await s.fetch(`/api/v1/repos/${bob}/bobs`, jsonInit('PATCH', { private: 'yes' }, h)), 422, s.url);
    // Anyone else is refused before the body is read.
    const other = tokenHeader(await createToken(s.host, carol));
    await expectApiError(await s.fetch(`/api/v1/repos/${bob}/bobs`, jsonInit('PATCH', { private: 'yes' }, other)), 403, s.url);
  });

  test('creation refuses what Forgejo refuses, the same way for a missing and an unseen repository', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'a', scopes: ['read:repository'], repositories: [] }, 'specified repository access token: must have at least one repository'],
      [{ name: 'b', scopes: ['read:repository'], repositories: [{ owner: alice, name: 'nope' }] }, `repository ${alice}/nope does not exist`],
      [{ name: 'c', scopes: ['read:repository'], repositories: [{ owner: carol, name: 'hidden' }] }, `repository ${carol}/hidden does not exist`],
      [{ name: 'd', scopes: ['all'], repositories: [{ owner: alice, name: 'granted' }] }, 'specified repository access token: invalid scope: cannot be combined with scope all'],
      [{ name: 'e', scopes: ['read:repository', 'read:user'], repositories: [{ owner: alice, name: 'granted' }] }, 'specified repository access token: invalid scope: cannot be combined with scope read:user'],
      [{ name: 'f', scopes: ['public-only', 'read:repository'], repositories: [{ owner: alice, name: 'granted' }] }, 'specified repository access token: cannot be combined with public-only scope'],
    ];
    for (const [body, message] of cases) expect(await expectApiError(await create(alice, body), 400, s.url)).toBe(message);
    // Nothing was made.
    const names = (await json(await s.fetch(`/api/v1/users/${alice}/tokens`, { headers: pw(alice) }))).map((t: { name: string }) => t.name);
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) expect(names).not.toContain(name);
  });
});
