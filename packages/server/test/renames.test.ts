/**
 * Old names after renames and transfers, as Forgejo's repo_redirect and user_redirect answer them: the API
 * redirects (a repository 301, an account 307, for every method, the query kept) to the same path under the new
 * names, chains lead to the last name, a name taken again stops redirecting, and nobody learns of a renamed
 * repository or account they may not see.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createUser, jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, checkRepo, expectApiError, json, uniq, type Account } from './helpers';

describe('redirects after renames and transfers', () => {
  let s: TestServer;
  let alice: Account;
  let bob: Account;
  let admin: Account;

  /** The answer without following a redirect. */
  const raw = (path: string, init: RequestInit = {}) => s.fetch(path, { ...init, redirect: 'manual' });

  async function createRepo(who: Account, body: Record<string, unknown>): Promise<any> {
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', body, who.h));
    expect(res.status, await res.clone().text()).toBe(201);
    return json(res);
  }

  async function renameRepo(who: Account, fullName: string, name: string): Promise<void> {
    const res = await s.fetch(`/api/v1/repos/${fullName}`, jsonInit('PATCH', { name }, who.h));
    expect(res.status, await res.clone().text()).toBe(200);
  }

  async function renameUser(from: string, to: string): Promise<void> {
    const res = await s.fetch(`/api/v1/admin/users/${from}/rename`, jsonInit('POST', { new_username: to }, admin.h));
    expect(res.status, await res.clone().text()).toBe(204);
  }

  beforeAll(async () => {
    s = await startTestServer();
    alice = await account(s, 'alice');
    bob = await account(s, 'bob');
    admin = await account(s, 'admin', { admin: true });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('a renamed repository answers 301 to the same path under the new name, for every method, query kept', async () => {
    const before = await createRepo(alice, { name: uniq('r') });
    const renamed = uniq('r');
    await renameRepo(alice, `${alice.name}/${before.name}`, renamed);

    const res = await raw(`/api/v1/repos/${alice.name}/${before.name}?limit=3&page=2`, { headers: alice.h });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`/api/v1/repos/${alice.name}/${renamed}?limit=3&page=2`);
    expect(await res.text()).toBe('');

    // A client that follows it reads the renamed repository.
    const followed = await s.fetch(`/api/v1/repos/${alice.name}/${before.name}`, { headers: alice.h });
    expect(followed.status).toBe(200);
    expect(followed.redirected).toBe(true);
    const body = checkRepo(await json(followed));
    expect(body.id).toBe(before.id);
    expect(body.name).toBe(renamed);

    // Any route under the repository, and names in another case; every method is redirected, as Forgejo's are.
    const nested = await raw(`/api/v1/repos/${alice.name.toUpperCase()}/${before.name.toUpperCase()}/branches`, { headers: alice.h });
    expect(nested.status).toBe(301);
    expect(nested.headers.get('location')).toBe(`/api/v1/repos/${alice.name}/${renamed}/branches`);
    for (const [method, path, body] of [['PATCH', '', { description: 'x' }], ['PUT', '/topics/x', undefined], ['DELETE', '', undefined], ['POST', '/issues', { title: 'x' }]] as const) {
      const write = await raw(`/api/v1/repos/${alice.name}/${before.name}${path}`, body ? jsonInit(method, body, alice.h) : { method, headers: alice.h });
      expect(write.status, method).toBe(301);
      expect(write.headers.get('location')).toBe(`/api/v1/repos/${alice.name}/${renamed}${path}`);
    }
    // Nothing was changed or deleted by the writes that were only redirected.
    const after = await s.fetch(`/api/v1/repos/${alice.name}/${renamed}`, { headers: alice.h });
    expect(after.status).toBe(200);
    expect((await json(after)).description).toBe('');
  });

  test('a chain of renames leads from every old name to the last, and deleting the repository ends them', async () => {
    const [a, b, c] = [uniq('a'), uniq('b'), uniq('c')];
    await createRepo(alice, { name: a });
    await renameRepo(alice, `${alice.name}/${a}`, b);
    await renameRepo(alice, `${alice.name}/${b}`, c);
    for (const old of [a, b]) {
      const res = await raw(`/api/v1/repos/${alice.name}/${old}`, { headers: alice.h });
      expect(res.status, old).toBe(301);
      expect(res.headers.get('location')).toBe(`/api/v1/repos/${alice.name}/${c}`);
    }
    // Renamed back: the name is the repository's again, and the one it leaves redirects.
    await renameRepo(alice, `${alice.name}/${c}`, a);
    expect((await raw(`/api/v1/repos/${alice.name}/${a}`, { headers: alice.h })).status).toBe(200);
    expect((await raw(`/api/v1/repos/${alice.name}/${c}`, { headers: alice.h })).headers.get('location')).toBe(`/api/v1/repos/${alice.name}/${a}`);

    expect((await s.fetch(`/api/v1/repos/${alice.name}/${a}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    for (const old of [a, b, c]) await expectApiError(await raw(`/api/v1/repos/${alice.name}/${old}`, { headers: alice.h }), 404, s.url);
  });

  test('an old name taken by a new repository is that repository, and stays so after it goes', async () => {
    const [old, renamed] = [uniq('o'), uniq('n')];
    const first = await createRepo(alice, { name: old });
    await renameRepo(alice, `${alice.name}/${old}`, renamed);
    const second = await createRepo(alice, { name: old });
    const res = await raw(`/api/v1/repos/${alice.name}/${old}`, { headers: alice.h });
    expect(res.status).toBe(200);
    expect((await json(res)).id).toBe(second.id);
    // The redirect was removed when the name was taken, not merely hidden behind the new repository.
    expect((await s.fetch(`/api/v1/repos/${alice.name}/${old}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    await expectApiError(await raw(`/api/v1/repos/${alice.name}/${old}`, { headers: alice.h }), 404, s.url);
    expect((await json(await s.fetch(`/api/v1/repos/${alice.name}/${renamed}`, { headers: alice.h }))).id).toBe(first.id);
  });

  test("a private repository's old name redirects only those who may see it", async () => {
    const [old, renamed] = [uniq('p'), uniq('q')];
    await createRepo(alice, { name: old, private: true });
    await renameRepo(alice, `${alice.name}/${old}`, renamed);
    expect((await raw(`/api/v1/repos/${alice.name}/${old}`, { headers: alice.h })).status).toBe(301);
    const missing = await expectApiError(await raw(`/api/v1/repos/${alice.name}/${uniq('none')}`, { headers: bob.h }), 404, s.url);
    // The same 404 a name that never existed gets: nothing tells the new name.
    for (const headers of [bob.h, {}]) {
      const res = await raw(`/api/v1/repos/${alice.name}/${old}`, { headers });
      expect(res.headers.get('location')).toBeNull();
      expect(await expectApiError(res, 404, s.url)).toBe(missing);
    }
    // A collaborator may see it, and is redirected.
    expect((await s.fetch(`/api/v1/repos/${alice.name}/${renamed}/collaborators/${bob.name}`, jsonInit('PUT', { permission: 'read' }, alice.h))).status).toBe(204);
    expect((await raw(`/api/v1/repos/${alice.name}/${old}`, { headers: bob.h })).status).toBe(301);
  });

  test('a transferred repository redirects from its old owner', async () => {
    const name = uniq('t');
    const repo = await createRepo(alice, { name });
    const org = uniq('org');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org }, alice.h))).status).toBe(201);
    const res = await s.fetch(`/api/v1/repos/${alice.name}/${name}/transfer`, jsonInit('POST', { new_owner: org }, alice.h));
    expect(res.status, await res.clone().text()).toBe(202);
    const moved = await raw(`/api/v1/repos/${alice.name}/${name}/topics`, { headers: alice.h });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`/api/v1/repos/${org}/${name}/topics`);
    expect((await json(await s.fetch(`/api/v1/repos/${alice.name}/${name}`, { headers: alice.h }))).id).toBe(repo.id);

    // The organization renamed: its old name redirects (307, as Forgejo's account redirects), repositories too.
    const renamedOrg = uniq('org');
    expect((await s.fetch(`/api/v1/orgs/${org}/rename`, jsonInit('POST', { new_name: renamedOrg }, alice.h))).status).toBe(204);
    const orgMoved = await raw(`/api/v1/orgs/${org}/repos?limit=1`, { headers: alice.h });
    expect(orgMoved.status).toBe(307);
    expect(orgMoved.headers.get('location')).toBe(`/api/v1/orgs/${renamedOrg}/repos?limit=1`);
    const viaOrg = await raw(`/api/v1/repos/${org}/${name}`, { headers: alice.h });
    expect(viaOrg.status).toBe(307);
    expect(viaOrg.headers.get('location')).toBe(`/api/v1/repos/${renamedOrg}/${name}`);
    // Both hops followed: the first owner's name leads through the transfer and the organization's rename.
    const followed = await s.fetch(`/api/v1/repos/${alice.name}/${name}`, { headers: alice.h });
    expect(followed.status).toBe(200);
    expect((await json(followed)).full_name).toBe(`${renamedOrg}/${name}`);
  });

  test("a renamed account's old name redirects its user and repository paths, until an account takes it", async () => {
    const carol = await account(s, 'carol');
    const repo = await createRepo(carol, { name: uniq('r') });
    const [second, third] = [uniq('carol'), uniq('carol')];
    await renameUser(carol.name, second);
    await renameUser(second, third);

    for (const old of [carol.name, second]) {
      const user = await raw(`/api/v1/users/${old}?x=1`);
      expect(user.status, old).toBe(307);
      expect(user.headers.get('location')).toBe(`/api/v1/users/${third}?x=1`);
      const repos = await raw(`/api/v1/repos/${old}/${repo.name}/branches`, { headers: carol.h });
      expect(repos.status).toBe(307);
      expect(repos.headers.get('location')).toBe(`/api/v1/repos/${third}/${repo.name}/branches`);
    }
    const followed = await s.fetch(`/api/v1/users/${carol.name}`);
    expect(followed.status).toBe(200);
    expect((await json(followed)).login).toBe(third);
    expect((await s.fetch(`/api/v1/repos/${carol.name}/${repo.name}`, { headers: carol.h })).status).toBe(200);

    // A new account takes the first name: it is that account's, and no longer leads to carol.
    const created = await s.fetch('/api/v1/admin/users', jsonInit('POST', { username: carol.name, email: `${uniq('e')}@example.com`, password: 'correct-horse-battery' }, admin.h));
    expect(created.status, await created.clone().text()).toBe(201);
    const taker = await json(created);
    const taken = await raw(`/api/v1/users/${carol.name}`);
    expect(taken.status).toBe(200);
    expect((await json(taken)).id).toBe(taker.id);
    await expectApiError(await raw(`/api/v1/repos/${carol.name}/${repo.name}`, { headers: carol.h }), 404, s.url);
    // The second name still leads to carol; an account deleted takes its old names with it.
    expect((await raw(`/api/v1/users/${second}`)).status).toBe(307);
    expect((await s.fetch(`/api/v1/repos/${third}/${repo.name}`, { method: 'DELETE', headers: carol.h })).status).toBe(204);
    expect((await s.fetch(`/api/v1/admin/users/${third}`, { method: 'DELETE', headers: admin.h })).status).toBe(204);
    await expectApiError(await raw(`/api/v1/users/${second}`), 404, s.url);
  });

  test("a private account's old name is a 404 for those who may not see it", async () => {
    const name = uniq('dora');
    await createUser(s.host, name, { visibility: 'private' });
    const renamed = uniq('dora');
    await renameUser(name, renamed);
    // The answer a name that never existed gets.
    expect(await expectApiError(await raw(`/api/v1/users/${name}`), 404, s.url)).toBe(`user redirect does not exist [name: ${name}]`);
    const seen = await raw(`/api/v1/users/${name}`, { headers: bob.h });
    expect(seen.status).toBe(404);
    const byAdmin = await raw(`/api/v1/users/${name}`, { headers: admin.h });
    expect(byAdmin.status).toBe(307);
    expect(byAdmin.headers.get('location')).toBe(`/api/v1/users/${renamed}`);
  });
});
