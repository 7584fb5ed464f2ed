/**
 * Repositories and users over HTTP: creating (validation, conflicts, limits), reading with each kind of caller,
 * deleting (with the git storage), listing with pagination and ordering, and user profiles' visibility.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RepositorySchema, SYSTEM, UserSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { PASSWORD, basic, createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer, userNamed } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

function expectRepository(body: unknown): void {
  expect(matchesSchema(RepositorySchema, body), schemaErrors(RepositorySchema, body).join('\n')).toBe(true);
}

interface Account {
  name: string;
  token: string;
  h: Record<string, string>;
}

async function account(s: TestServer, prefix = 'r', options: { admin?: boolean; visibility?: 'public' | 'limited' | 'private' } = {}): Promise<Account> {
  const name = uniq(prefix);
  await createUser(s.host, name, options);
  const token = await createToken(s.host, name);
  return { name, token, h: tokenHeader(token) };
}

function createRepo(s: TestServer, who: Account, body: unknown): Promise<Response> {
  return s.fetch('/api/v1/user/repos', jsonInit('POST', body, who.h));
}

async function repoTotal(s: TestServer, owner: string): Promise<number> {
  return (await s.host.repos.listOwnedBy(SYSTEM, await userNamed(s.host, owner))).total;
}

describe('POST /api/v1/user/repos', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('auto_init: 201, a full Repository, not empty, default branch main, all permissions, clone URLs', async () => {
    const alice = await account(s, 'alice');
    const res = await createRepo(s, alice, { name: 'demo', description: 'A demo', auto_init: true });
    expect(res.status).toBe(201);
    const repo = await json(res);
    expectRepository(repo);
    expect(repo).toMatchObject({
      name: 'demo',
      full_name: `${alice.name}/demo`,
      description: 'A demo',
      empty: false,
      private: false,
      fork: false,
      default_branch: 'main',
      permissions: { admin: true, push: true, pull: true },
      clone_url: `${s.url}${alice.name}/demo.git`,
      html_url: `${s.url}${alice.name}/demo`,
      url: `${s.url}api/v1/repos/${alice.name}/demo`,
      object_format_name: 'sha1',
    });
    expect(repo.owner.login).toBe(alice.name);
    expect(repo.ssh_url).toContain(`${alice.name}/demo.git`);
    expect(await s.host.git.exists({ owner: alice.name.toLowerCase(), name: 'demo' })).toBe(true);
    const branches = await s.host.git.readRefs({ owner: alice.name.toLowerCase(), name: 'demo' }, ['refs/heads/main']);
    expect(branches.get('refs/heads/main')).toMatch(/^[0-9a-f]{40}$/);
    // What GET returns afterwards is the same repository.
    const got = await json(await s.fetch(`/api/v1/repos/${alice.name}/demo`, { headers: alice.h }));
    expect(got).toMatchObject({ id: repo.id, empty: false, default_branch: 'main' });
  });

  test('auto_init with a chosen default branch and sha256 objects', async () => {
    const u = await account(s);
    const res = await createRepo(s, u, { name: 'trunked', auto_init: true, default_branch: 'trunk', object_format_name: 'sha256' });
    expect(res.status).toBe(201);
    const repo = await json(res);
    expectRepository(repo);
    expect(repo).toMatchObject({ default_branch: 'trunk', empty: false, object_format_name: 'sha256' });
    const refs = await s.host.git.readRefs({ owner: u.name.toLowerCase(), name: 'trunked' }, ['refs/heads/trunk', 'refs/heads/main']);
    expect(refs.get('refs/heads/trunk')).toMatch(/^[0-9a-f]{64}$/);
    expect(refs.has('refs/heads/main')).toBe(false);
  });

  test('without auto_init the repository is empty; private is kept', async () => {
    const u = await account(s);
    const res = await createRepo(s, u, { name: 'blank', private: true });
    expect(res.status).toBe(201);
    const repo = await json(res);
    expectRepository(repo);
    expect(repo).toMatchObject({ empty: true, private: true, default_branch: 'main', permissions: { admin: true, push: true, pull: true } });
    expect(await s.host.git.exists({ owner: u.name.toLowerCase(), name: 'blank' })).toBe(true);
  });

  test('a duplicate name, compared case-insensitively, is 409 and changes nothing', async () => {
    const u = await account(s);
    const first = await json(await createRepo(s, u, { name: 'Demo', description: 'original', auto_init: true }));
    for (const name of ['Demo', 'demo', 'DEMO']) {
      const res = await createRepo(s, u, { name, description: 'second', private: true });
      expect(await expectApiError(res, 409, s.url), name).toBe('The repository with the same name already exists.');
    }
    const got = await json(await s.fetch(`/api/v1/repos/${u.name}/demo`, { headers: u.h }));
    expect(got).toMatchObject({ id: first.id, name: 'Demo', description: 'original', private: false, empty: false });
    expect(await repoTotal(s, u.name)).toBe(1);
    expect(await s.host.git.exists({ owner: u.name.toLowerCase(), name: 'demo' })).toBe(true);
    // The same name under another owner is fine.
    const other = await account(s);
    expect((await createRepo(s, other, { name: 'Demo' })).status).toBe(201);
  });

  test('invalid names are 422 naming the field, and nothing is created', async () => {
    const u = await account(s);
    const names = ['../x', 'a/b', 'x.git', 'X.Git', '.', '..', '-', 'y.wiki', 'a b', 'ä', 'x'.repeat(101), ''];
    for (const name of names) {
      const res = await createRepo(s, u, { name, auto_init: true });
      const message = await expectApiError(res, 422, s.url);
      expect(message, JSON.stringify(name)).toContain('[name]');
    }
    expect(await repoTotal(s, u.name)).toBe(0);
    for (const name of ['x.git', 'X.Git', 'y.wiki']) expect(await s.host.git.exists({ owner: u.name.toLowerCase(), name: name.toLowerCase() })).toBe(false);
    // 100 characters is still allowed.
    const longest = 'y'.repeat(100);
    const ok = await createRepo(s, u, { name: longest });
    expect(ok.status).toBe(201);
    expect((await json(ok)).name).toBe(longest);
  });

  test('wrong types are 422 naming the field', async () => {
    const u = await account(s);
    const cases: [unknown, string][] = [
      [{ name: 5 }, 'name'],
      [{ name: null }, 'name'],
      [{ name: ['x'] }, 'name'],
      [{ name: 'x', private: 'yes' }, 'private'],
      [{ name: 'x', auto_init: 1 }, 'auto_init'],
      [{ name: 'x', description: 7 }, 'description'],
    ];
    for (const [body, field] of cases) {
      const message = await expectApiError(await createRepo(s, u, body), 422, s.url);
      expect(message, JSON.stringify(body)).toContain(`[${field}]`);
    }
    expect(await repoTotal(s, u.name)).toBe(0);
  });

  test('an unknown enum value is 422', async () => {
    const u = await account(s);
    const message = await expectApiError(await createRepo(s, u, { name: 'x', object_format_name: 'md5' }), 422, s.url);
    expect(message).toContain('object_format_name');
    const trust = await expectApiError(await createRepo(s, u, { name: 'x', trust_model: 'anyone' }), 422, s.url);
    expect(trust).toContain('trust_model');
    expect(await repoTotal(s, u.name)).toBe(0);
  });

  test('an invalid default branch is 422', async () => {
    const u = await account(s);
    for (const branch of ['a..b', 'has space', '-x', 'x.lock']) {
      const message = await expectApiError(await createRepo(s, u, { name: 'x', auto_init: true, default_branch: branch }), 422, s.url);
      expect(message).toContain('default_branch');
    }
    expect(await repoTotal(s, u.name)).toBe(0);
  });

  test('an unknown readme template with auto_init is 400, and nothing is created', async () => {
    const u = await account(s);
    const res = await createRepo(s, u, { name: 'withreadme', auto_init: true, readme: 'Nope' });
    expect(await expectApiError(res, 400, s.url)).toBe('readme template does not exist, available templates: [Default]');
    expect(await repoTotal(s, u.name)).toBe(0);
    expect(await s.host.git.exists({ owner: u.name.toLowerCase(), name: 'withreadme' })).toBe(false);
    // The Default template is accepted.
    expect((await createRepo(s, u, { name: 'withreadme', auto_init: true, readme: 'Default' })).status).toBe(201);
  });

  test('anonymous is 401 "token is required"', async () => {
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'anon' }));
    expect(await expectApiError(res, 401, s.url)).toBe('token is required');
  });

  test('password basic auth can create too', async () => {
    const u = await account(s);
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: 'pw' }, { Authorization: basic(u.name, PASSWORD) }));
    expect(res.status).toBe(201);
  });
});

describe('[repository] MAX_CREATION_LIMIT', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ repository: { MAX_CREATION_LIMIT: 1 } });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('a non-admin may create only up to the limit (403 beyond it); deleting frees a slot', async () => {
    const u = await account(s);
    expect((await createRepo(s, u, { name: 'one' })).status).toBe(201);
    const res = await createRepo(s, u, { name: 'two' });
    expect(await expectApiError(res, 403, s.url)).toContain('maximum limit of repositories');
    expect(await repoTotal(s, u.name)).toBe(1);
    expect(await s.host.git.exists({ owner: u.name.toLowerCase(), name: 'two' })).toBe(false);
    expect((await s.fetch(`/api/v1/repos/${u.name}/one`, { method: 'DELETE', headers: u.h })).status).toBe(204);
    expect((await createRepo(s, u, { name: 'two' })).status).toBe(201);
  });

  test('site admins are exempt', async () => {
    const admin = await account(s, 'adm', { admin: true });
    expect((await createRepo(s, admin, { name: 'one' })).status).toBe(201);
    expect((await createRepo(s, admin, { name: 'two' })).status).toBe(201);
  });
});

describe('GET and DELETE /api/v1/repos/{owner}/{repo}', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  async function ownerWithRepos() {
    const owner = await account(s, 'own');
    expect((await createRepo(s, owner, { name: 'pub', auto_init: true })).status).toBe(201);
    expect((await createRepo(s, owner, { name: 'priv', private: true })).status).toBe(201);
    return owner;
  }

  test('the owner gets 200 with full permissions; lookups are case-insensitive', async () => {
    const owner = await ownerWithRepos();
    for (const path of [`${owner.name}/pub`, `${owner.name}/priv`, `${owner.name.toUpperCase()}/PUB`]) {
      const res = await s.fetch(`/api/v1/repos/${path}`, { headers: owner.h });
      expect(res.status, path).toBe(200);
      const repo = await json(res);
      expectRepository(repo);
      expect(repo.permissions).toEqual({ admin: true, push: true, pull: true });
    }
  });

  test('anonymous: public repository 200 with pull-only permissions and a hidden owner email', async () => {
    const owner = await ownerWithRepos();
    const res = await s.fetch(`/api/v1/repos/${owner.name}/pub`);
    expect(res.status).toBe(200);
    const repo = await json(res);
    expectRepository(repo);
    expect(repo.permissions).toEqual({ admin: false, push: false, pull: true });
    expect(repo.owner.email).toBe(`${owner.name.toLowerCase()}@noreply.${s.host.settings.server.DOMAIN}`);
  });

  test('a private repository is 404 to anonymous and to other users, 200 to a site admin', async () => {
    const owner = await ownerWithRepos();
    const other = await account(s);
    const admin = await account(s, 'adm', { admin: true });
    await expectApiError(await s.fetch(`/api/v1/repos/${owner.name}/priv`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${owner.name}/priv`, { headers: other.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${owner.name}/priv`, { headers: { Authorization: basic(other.name, PASSWORD) } }), 404, s.url);
    const res = await s.fetch(`/api/v1/repos/${owner.name}/priv`, { headers: admin.h });
    expect(res.status).toBe(200);
    const repo = await json(res);
    expectRepository(repo);
    expect(repo).toMatchObject({ private: true, permissions: { admin: true, push: true, pull: true } });
    // Another user sees the public one read-only.
    const pub = await json(await s.fetch(`/api/v1/repos/${owner.name}/pub`, { headers: other.h }));
    expect(pub.permissions).toEqual({ admin: false, push: false, pull: true });
  });

  test('unknown owner or repository is 404', async () => {
    const owner = await ownerWithRepos();
    await expectApiError(await s.fetch(`/api/v1/repos/${owner.name}/missing`, { headers: owner.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${uniq('ghost')}/pub`, { headers: owner.h }), 404, s.url);
  });

  test("DELETE by another user on a public repository is 403 and deletes nothing", async () => {
    const owner = await ownerWithRepos();
    const other = await account(s);
    const res = await s.fetch(`/api/v1/repos/${owner.name}/pub`, { method: 'DELETE', headers: other.h });
    expect(await expectApiError(res, 403, s.url)).toBe('user should be the owner of the repo');
    expect((await s.fetch(`/api/v1/repos/${owner.name}/pub`)).status).toBe(200);
    expect(await s.host.git.exists({ owner: owner.name.toLowerCase(), name: 'pub' })).toBe(true);
  });

  test('DELETE anonymously: private repository 404, public repository 403; nothing deleted', async () => {
    const owner = await ownerWithRepos();
    await expectApiError(await s.fetch(`/api/v1/repos/${owner.name}/priv`, { method: 'DELETE' }), 404, s.url);
    // Recent Forgejo has no reqToken here: reqOwner refuses the anonymous caller with 403.
    const pub = await s.fetch(`/api/v1/repos/${owner.name}/pub`, { method: 'DELETE' });
    expect(await expectApiError(pub, 403, s.url)).toBe('user should be the owner of the repo');
    expect(await repoTotal(s, owner.name)).toBe(2);
  });

  test('DELETE by the owner: 204, then 404, and the git repository is gone', async () => {
    const owner = await ownerWithRepos();
    const key = { owner: owner.name.toLowerCase(), name: 'pub' };
    expect(await s.host.git.exists(key)).toBe(true);
    const res = await s.fetch(`/api/v1/repos/${owner.name}/pub`, { method: 'DELETE', headers: owner.h });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    await expectApiError(await s.fetch(`/api/v1/repos/${owner.name}/pub`, { headers: owner.h }), 404, s.url);
    expect(await s.host.git.exists(key)).toBe(false);
    await expectApiError(await s.fetch(`/api/v1/repos/${owner.name}/pub`, { method: 'DELETE', headers: owner.h }), 404, s.url);
    // The name can be used again.
    const again = await createRepo(s, owner, { name: 'pub' });
    expect(again.status).toBe(201);
    expect((await json(again)).empty).toBe(true);
  });

  test('DELETE by a site admin works on any repository', async () => {
    const owner = await ownerWithRepos();
    const admin = await account(s, 'adm', { admin: true });
    expect((await s.fetch(`/api/v1/repos/${owner.name}/priv`, { method: 'DELETE', headers: admin.h })).status).toBe(204);
    expect(await s.host.git.exists({ owner: owner.name.toLowerCase(), name: 'priv' })).toBe(false);
  });

  test('DELETE with a token needs write:user (the owner account), not just write:repository', async () => {
    const owner = await ownerWithRepos();
    const repoOnly = await createToken(s.host, owner.name, ['write:repository']);
    const res = await s.fetch(`/api/v1/repos/${owner.name}/pub`, { method: 'DELETE', headers: tokenHeader(repoOnly) });
    expect(await expectApiError(res, 403, s.url)).toContain('write:user');
    expect((await s.fetch(`/api/v1/repos/${owner.name}/pub`)).status).toBe(200);
    const userWrite = await createToken(s.host, owner.name, ['write:user']);
    expect((await s.fetch(`/api/v1/repos/${owner.name}/pub`, { method: 'DELETE', headers: tokenHeader(userWrite) })).status).toBe(204);
  });
});

describe('listing repositories', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  async function names(res: Response): Promise<string[]> {
    expect(res.status).toBe(200);
    const list = await json<any[]>(res);
    for (const r of list) expectRepository(r);
    return list.map((r) => r.name);
  }

  test('private repositories are listed to their owner only', async () => {
    const owner = await account(s);
    const other = await account(s);
    for (const [name, priv] of [['a-pub', false], ['b-priv', true], ['c-pub', false]] as const) {
      expect((await createRepo(s, owner, { name, private: priv })).status).toBe(201);
    }
    expect(await names(await s.fetch('/api/v1/user/repos', { headers: owner.h }))).toEqual(['a-pub', 'b-priv', 'c-pub']);
    expect(await names(await s.fetch(`/api/v1/users/${owner.name}/repos`, { headers: owner.h }))).toEqual(['a-pub', 'b-priv', 'c-pub']);
    const asOther = await s.fetch(`/api/v1/users/${owner.name}/repos`, { headers: other.h });
    expect(asOther.headers.get('x-total-count')).toBe('2');
    expect(await names(asOther)).toEqual(['a-pub', 'c-pub']);
    const anon = await s.fetch(`/api/v1/users/${owner.name}/repos`);
    expect(anon.headers.get('x-total-count')).toBe('2');
    expect(await names(anon)).toEqual(['a-pub', 'c-pub']);
    // The other user's own list does not include them.
    expect(await names(await s.fetch('/api/v1/user/repos', { headers: other.h }))).toEqual([]);
    // A site admin sees everything.
    const admin = await account(s, 'adm', { admin: true });
    expect(await names(await s.fetch(`/api/v1/users/${owner.name}/repos`, { headers: admin.h }))).toEqual(['a-pub', 'b-priv', 'c-pub']);
  });

  test('GET /user/repos anonymously is 401; an unknown user is 404', async () => {
    expect(await expectApiError(await s.fetch('/api/v1/user/repos'), 401, s.url)).toBe('token is required');
    await expectApiError(await s.fetch(`/api/v1/users/${uniq('ghost')}/repos`), 404, s.url);
  });

  test('pagination: limit/page, X-Total-Count, Link with next/last/first/prev, exposed headers', async () => {
    const owner = await account(s);
    for (let i = 1; i <= 5; i++) expect((await createRepo(s, owner, { name: `p${i}` })).status).toBe(201);
    const res = await s.fetch('/api/v1/user/repos?limit=2&page=2', { headers: owner.h });
    expect(res.headers.get('x-total-count')).toBe('5');
    const link = res.headers.get('link') ?? '';
    const base = `${s.url}api/v1/user/repos`;
    expect(link).toBe(
      [
        `<${base}?limit=2&page=3>; rel="next"`,
        `<${base}?limit=2&page=3>; rel="last"`,
        `<${base}?limit=2&page=1>; rel="first"`,
        `<${base}?limit=2&page=1>; rel="prev"`,
      ].join(','),
    );
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim().toLowerCase());
    expect(exposed).toEqual(expect.arrayContaining(['link', 'x-total-count']));
    expect(await names(res)).toEqual(['p3', 'p4']);

    const first = await s.fetch('/api/v1/user/repos?limit=2', { headers: owner.h });
    expect(first.headers.get('link')).toBe(`<${base}?limit=2&page=2>; rel="next",<${base}?limit=2&page=3>; rel="last"`);
    expect(await names(first)).toEqual(['p1', 'p2']);

    const last = await s.fetch('/api/v1/user/repos?limit=2&page=3', { headers: owner.h });
    expect(last.headers.get('link')).toBe(`<${base}?limit=2&page=1>; rel="first",<${base}?limit=2&page=2>; rel="prev"`);
    expect(await names(last)).toEqual(['p5']);

    const past = await s.fetch('/api/v1/user/repos?limit=2&page=9', { headers: owner.h });
    expect(past.headers.get('x-total-count')).toBe('5');
    expect(await names(past)).toEqual([]);

    const single = await s.fetch('/api/v1/user/repos', { headers: owner.h });
    expect(single.headers.get('link')).toBeNull();
    expect(single.headers.get('x-total-count')).toBe('5');
    expect(await names(single)).toHaveLength(5);

    // The same on /users/{username}/repos, with other query parameters kept.
    const other = await s.fetch(`/api/v1/users/${owner.name}/repos?page=2&limit=2`);
    expect(other.headers.get('x-total-count')).toBe('5');
    expect(other.headers.get('link')).toContain(`<${s.url}api/v1/users/${owner.name}/repos?limit=2&page=3>; rel="next"`);
    expect(await names(other)).toEqual(['p3', 'p4']);
  });

  test('non-numeric or non-positive page and limit fall back to defaults', async () => {
    const owner = await account(s);
    for (let i = 1; i <= 3; i++) expect((await createRepo(s, owner, { name: `d${i}` })).status).toBe(201);
    for (const q of ['?page=abc&limit=xyz', '?page=0&limit=0', '?page=-1&limit=-5']) {
      const res = await s.fetch(`/api/v1/user/repos${q}`, { headers: owner.h });
      expect(await names(res), q).toEqual(['d1', 'd2', 'd3']);
    }
  });

  test('order_by: name, newest, id; an unknown value is 422', async () => {
    const owner = await account(s);
    for (const name of ['beta', 'Alpha', 'gamma']) expect((await createRepo(s, owner, { name })).status).toBe(201);
    expect(await names(await s.fetch('/api/v1/user/repos?order_by=name', { headers: owner.h }))).toEqual(['Alpha', 'beta', 'gamma']);
    expect(await names(await s.fetch('/api/v1/user/repos?order_by=newest', { headers: owner.h }))).toEqual(['gamma', 'Alpha', 'beta']);
    expect(await names(await s.fetch('/api/v1/user/repos?order_by=oldest', { headers: owner.h }))).toEqual(['beta', 'Alpha', 'gamma']);
    expect(await names(await s.fetch('/api/v1/user/repos?order_by=id', { headers: owner.h }))).toEqual(['beta', 'Alpha', 'gamma']);
    const bad = await s.fetch('/api/v1/user/repos?order_by=bogus', { headers: owner.h });
    expect(await expectApiError(bad, 422, s.url)).toContain('order_by');
  });

  test('GET /user/repos: owned, collaborations, team repositories and public ones of private organizations (ListMyRepos)', async () => {
    const me = await account(s, 'me');
    const other = await account(s, 'ot');
    expect((await createRepo(s, me, { name: 'mine', private: true })).status).toBe(201);
    // A collaboration on someone's private repository; another private one of theirs stays out.
    expect((await createRepo(s, other, { name: 'shared', private: true })).status).toBe(201);
    expect((await createRepo(s, other, { name: 'unshared', private: true })).status).toBe(201);
    expect((await s.fetch(`/api/v1/repos/${other.name}/shared/collaborators/${me.name}`, jsonInit('PUT', { permission: 'write' }, other.h))).status).toBe(204);
    // An organization I own: all of its repositories.
    const owned = uniq('oo');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: owned, visibility: 'public' }, me.h))).status).toBe(201);
    expect((await s.fetch(`/api/v1/orgs/${owned}/repos`, jsonInit('POST', { name: 'org-private', private: true }, me.h))).status).toBe(201);
    // A team of another organization with one repository; the other repositories stay out.
    const teamed = uniq('ot');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: teamed, visibility: 'public' }, other.h))).status).toBe(201);
    for (const name of ['team-repo', 'team-public-other']) {
      expect((await s.fetch(`/api/v1/orgs/${teamed}/repos`, jsonInit('POST', { name, private: name === 'team-repo' }, other.h))).status).toBe(201);
    }
    const team = await json<{ id: number }>(
      await s.fetch(`/api/v1/orgs/${teamed}/teams`, jsonInit('POST', { name: 'devs', permission: 'read', units: ['repo.code'], includes_all_repositories: false }, other.h)),
    );
    expect((await s.fetch(`/api/v1/teams/${team.id}/members/${me.name}`, { method: 'PUT', headers: other.h })).status).toBe(204);
    expect((await s.fetch(`/api/v1/teams/${team.id}/repos/${teamed}/team-repo`, { method: 'PUT', headers: other.h })).status).toBe(204);
    // A private organization I am a member of (through a team with no repositories): its public repositories.
    const secret = uniq('ps');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: secret, visibility: 'private' }, other.h))).status).toBe(201);
    for (const [name, priv] of [['secret-public', false], ['secret-private', true]] as const) {
      expect((await s.fetch(`/api/v1/orgs/${secret}/repos`, jsonInit('POST', { name, private: priv }, other.h))).status).toBe(201);
    }
    const empty = await json<{ id: number }>(
      await s.fetch(`/api/v1/orgs/${secret}/teams`, jsonInit('POST', { name: 'none', permission: 'read', units: ['repo.code'], includes_all_repositories: false }, other.h)),
    );
    expect((await s.fetch(`/api/v1/teams/${empty.id}/members/${me.name}`, { method: 'PUT', headers: other.h })).status).toBe(204);

    const expected = ['mine', 'org-private', 'secret-public', 'shared', 'team-repo'];
    const all = await s.fetch('/api/v1/user/repos?limit=50', { headers: me.h });
    expect(all.headers.get('x-total-count')).toBe(String(expected.length));
    const list = await json<any[]>(all);
    expect(list.map((r) => r.name).sort()).toEqual(expected);
    for (const r of list) expectRepository(r);
    expect(list.find((r) => r.name === 'shared').permissions).toEqual({ admin: false, push: true, pull: true });
    expect(list.find((r) => r.name === 'team-repo').permissions).toEqual({ admin: false, push: false, pull: true });
    expect(list.find((r) => r.name === 'org-private').permissions).toEqual({ admin: true, push: true, pull: true });
    // Pages and their count agree.
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await s.fetch(`/api/v1/user/repos?limit=2&page=${page}`, { headers: me.h });
      expect(res.headers.get('x-total-count')).toBe(String(expected.length));
      seen.push(...(await names(res)));
    }
    expect(seen.sort()).toEqual(expected);
    // The other account's list is its own business: mine and the organization I own are not in it.
    const theirs = (await names(await s.fetch('/api/v1/user/repos?limit=50', { headers: other.h }))).sort();
    expect(theirs).toEqual(['secret-private', 'secret-public', 'shared', 'team-public-other', 'team-repo', 'unshared']);
  });
});

describe('[api] MAX_RESPONSE_ITEMS clamps limit', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ api: { MAX_RESPONSE_ITEMS: 3 } });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('a limit above MAX_RESPONSE_ITEMS returns at most MAX_RESPONSE_ITEMS items', async () => {
    const owner = await account(s);
    for (let i = 1; i <= 5; i++) expect((await createRepo(s, owner, { name: `m${i}` })).status).toBe(201);
    const res = await s.fetch('/api/v1/user/repos?limit=50', { headers: owner.h });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('5');
    expect(res.headers.get('link')).toContain('rel="next"');
    expect((await json<any[]>(res)).map((r) => r.name)).toEqual(['m1', 'm2', 'm3']);
    const page2 = await s.fetch('/api/v1/user/repos?limit=50&page=2', { headers: owner.h });
    expect((await json<any[]>(page2)).map((r) => r.name)).toEqual(['m4', 'm5']);
    const users = await s.fetch(`/api/v1/users/${owner.name}/repos?limit=1000`);
    expect(await json<any[]>(users)).toHaveLength(3);
    const tokens = await s.fetch(`/api/v1/users/${owner.name}/tokens?limit=100`, { headers: owner.h });
    expect(tokens.status).toBe(200);
  });
});

describe('GET /api/v1/users/{username}', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  async function get(name: string, headers: Record<string, string> = {}): Promise<Response> {
    return s.fetch(`/api/v1/users/${name}`, { headers });
  }

  test('a public user is visible to everyone, matching UserSchema', async () => {
    const u = await account(s);
    const other = await account(s);
    for (const headers of [{}, other.h, u.h]) {
      const res = await get(u.name, headers);
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(matchesSchema(UserSchema, body), schemaErrors(UserSchema, body).join('\n')).toBe(true);
      expect(body).toMatchObject({ login: u.name, username: u.name, visibility: 'public' });
    }
    expect((await json(await get(u.name.toUpperCase()))).login).toBe(u.name);
  });

  test('an unknown user is 404', async () => {
    await expectApiError(await get(uniq('ghost')), 404, s.url);
  });

  test('a private user is 404 to anonymous and other users, 200 to themself and site admins', async () => {
    const hidden = await account(s, 'hid', { visibility: 'private' });
    const other = await account(s);
    const admin = await account(s, 'adm', { admin: true });
    await expectApiError(await get(hidden.name), 404, s.url);
    await expectApiError(await get(hidden.name, other.h), 404, s.url);
    const self = await get(hidden.name, hidden.h);
    expect(self.status).toBe(200);
    expect((await json(self)).visibility).toBe('private');
    expect((await get(hidden.name, admin.h)).status).toBe(200);
    // Their repositories are hidden the same way.
    expect((await createRepo(s, hidden, { name: 'secret-pub' })).status).toBe(201);
    await expectApiError(await s.fetch(`/api/v1/users/${hidden.name}/repos`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/users/${hidden.name}/repos`, { headers: other.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${hidden.name}/secret-pub`, { headers: other.h }), 404, s.url);
    expect((await s.fetch(`/api/v1/users/${hidden.name}/repos`, { headers: hidden.h })).status).toBe(200);
  });

  test('a limited user is 404 to anonymous, 200 to signed-in users', async () => {
    const limited = await account(s, 'lim', { visibility: 'limited' });
    const other = await account(s);
    await expectApiError(await get(limited.name), 404, s.url);
    expect((await get(limited.name, other.h)).status).toBe(200);
  });

  test('the email is hidden (no-reply address) from anonymous callers, shown to self', async () => {
    const u = await account(s);
    const anon = await json(await get(u.name));
    expect(anon.email).toBe(`${u.name.toLowerCase()}@noreply.${s.host.settings.server.DOMAIN}`);
    expect(anon.email).not.toContain('example.com');
    const self = await json(await get(u.name, u.h));
    expect(self.email).toBe(`${u.name}@example.com`);
    // Admin-only fields are zeroed for others but present.
    expect(anon).toMatchObject({ is_admin: false, login_name: '', last_login: '0001-01-01T00:00:00Z' });
  });

  test('read:user is needed on a token', async () => {
    const u = await account(s);
    const token = await createToken(s.host, u.name, ['read:repository']);
    const res = await get(u.name, tokenHeader(token));
    expect(await expectApiError(res, 403, s.url)).toContain('read:user');
  });
});
