/**
 * Access-token management over HTTP: /users/{username}/tokens (create, list, delete), who may do it and with
 * which kind of authentication, input errors, and that the token value is shown once and never stored.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AccessTokenSchema, SYSTEM, matchesSchema, schemaErrors } from '@repohost/core';
import { PASSWORD, basic, createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer, userNamed } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

describe('/users/{username}/tokens', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  async function user(prefix = 't', options: { admin?: boolean } = {}): Promise<string> {
    const name = uniq(prefix);
    await createUser(s.host, name, options);
    return name;
  }
  const pw = (name: string) => ({ Authorization: basic(name, PASSWORD) });

  function create(owner: string, body: unknown, headers: Record<string, string>): Promise<Response> {
    return s.fetch(`/api/v1/users/${owner}/tokens`, jsonInit('POST', body, headers));
  }

  async function whoAmI(token: string): Promise<number | string> {
    const res = await s.fetch('/api/v1/user', { headers: tokenHeader(token) });
    return res.status === 200 ? (await json(res)).login : res.status;
  }

  async function tokenCount(name: string): Promise<number> {
    return (await s.host.tokens.list(SYSTEM, await userNamed(s.host, name))).total;
  }

  test('password basic auth creates a token: 201, 40-hex sha1, last eight, normalized scopes; the token works', async () => {
    const name = await user();
    const res = await create(name, { name: 'ci', scopes: ['read:user', 'write:user'] }, pw(name));
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(matchesSchema(AccessTokenSchema, body), schemaErrors(AccessTokenSchema, body).join('\n')).toBe(true);
    expect(body.name).toBe('ci');
    expect(body.sha1).toMatch(/^[0-9a-f]{40}$/);
    expect(body.token_last_eight).toBe(body.sha1.slice(-8));
    expect(body.scopes).toEqual(['write:user']);
    expect(body.id).toBeGreaterThan(0);
    expect(await whoAmI(body.sha1)).toBe(name);
    // Every token is different.
    const again = await json(await create(name, { name: 'ci2', scopes: ['read:user'] }, pw(name)));
    expect(again.sha1).toMatch(/^[0-9a-f]{40}$/);
    expect(again.sha1).not.toBe(body.sha1);
  });

  test('scopes are normalized: comma lists split, duplicates dropped, write implies read, category order', async () => {
    const name = await user();
    const cases: [unknown, string[]][] = [
      [['read:user', 'write:user'], ['write:user']],
      [['read:repository,read:issue'], ['read:issue', 'read:repository']],
      [['write:repository', 'read:repository', 'read:user', 'read:user'], ['write:repository', 'read:user']],
      [['all', 'read:user'], ['all']],
      [['read:user', ' ', ''], ['read:user']],
      [['read:activitypub', 'write:misc', 'read:notification'], ['read:activitypub', 'write:misc', 'read:notification']],
    ];
    for (const [i, [scopes, expected]] of cases.entries()) {
      const res = await create(name, { name: `n${i}`, scopes }, pw(name));
      expect(res.status, JSON.stringify(scopes)).toBe(201);
      expect((await json(res)).scopes, JSON.stringify(scopes)).toEqual(expected);
    }
    // public-only is kept next to the grants it limits.
    const po = await json(await create(name, { name: 'po', scopes: ['all', 'public-only'] }, pw(name)));
    expect([...po.scopes].sort()).toEqual(['all', 'public-only']);
  });

  test('the token is shown once: the list has sha1 "" and X-Total-Count, newest first', async () => {
    const name = await user();
    const made: any[] = [];
    for (const n of ['one', 'two', 'three']) made.push(await json(await create(name, { name: n, scopes: ['read:user'] }, pw(name))));
    const res = await s.fetch(`/api/v1/users/${name}/tokens`, { headers: pw(name) });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Total-Count');
    const list = await json<any[]>(res);
    expect(list.map((t) => t.name)).toEqual(['three', 'two', 'one']);
    for (const t of list) {
      expect(matchesSchema(AccessTokenSchema, t), schemaErrors(AccessTokenSchema, t).join('\n')).toBe(true);
      expect(t).toHaveProperty('sha1', '');
      const original = made.find((m) => m.name === t.name);
      expect(t).toMatchObject({ id: original.id, token_last_eight: original.token_last_eight, scopes: ['read:user'] });
      expect(JSON.stringify(t)).not.toContain(original.sha1);
    }
    // Listing with a token works too (read:user), and is paginated.
    const token = await createToken(s.host, name, ['read:user']);
    const page = await s.fetch(`/api/v1/users/${name}/tokens?limit=2&page=2`, { headers: tokenHeader(token) });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-total-count')).toBe('4');
    expect((await json<any[]>(page)).map((t) => t.name)).toEqual(['two', 'one']);
  });

  test('listing needs read:user on a token', async () => {
    const name = await user();
    const token = await createToken(s.host, name, ['read:repository']);
    const res = await s.fetch(`/api/v1/users/${name}/tokens`, { headers: tokenHeader(token) });
    expect(await expectApiError(res, 403, s.url)).toContain('read:user');
  });

  test('creating or deleting with a token instead of a password is 401 "auth method not allowed"', async () => {
    const name = await user();
    const token = await createToken(s.host, name, ['all'], 'existing');
    for (const headers of [tokenHeader(token), { Authorization: `Bearer ${token}` }, { Authorization: basic(name, token) }, { Authorization: basic(token, '') }]) {
      const res = await create(name, { name: uniq('x'), scopes: ['all'] }, headers);
      expect(await expectApiError(res, 401, s.url)).toBe('auth method not allowed');
      const del = await s.fetch(`/api/v1/users/${name}/tokens/existing`, { method: 'DELETE', headers });
      expect(await expectApiError(del, 401, s.url)).toBe('auth method not allowed');
    }
    const viaQuery = await create(name, { name: uniq('x'), scopes: ['all'] }, {});
    expect(viaQuery.status).toBe(403); // anonymous, see below
    const q = await s.fetch(`/api/v1/users/${name}/tokens?token=${token}`, jsonInit('POST', { name: uniq('x'), scopes: ['all'] }));
    expect(await expectApiError(q, 401, s.url)).toBe('auth method not allowed');
    expect(await tokenCount(name)).toBe(1);
    expect(await whoAmI(token)).toBe(name);
  });

  test('anonymous callers get 403 on create, list and delete', async () => {
    const name = await user();
    await createToken(s.host, name, ['all'], 'keep');
    await expectApiError(await create(name, { name: 'x', scopes: ['all'] }, {}), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/users/${name}/tokens`), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/users/${name}/tokens/keep`, { method: 'DELETE' }), 403, s.url);
    expect(await tokenCount(name)).toBe(1);
  });

  test("another non-admin user gets 403 on someone else's tokens", async () => {
    const owner = await user();
    const other = await user();
    const ownerToken = await createToken(s.host, owner, ['all'], 'keep');
    const otherToken = await createToken(s.host, other, ['all']);
    await expectApiError(await create(owner, { name: 'x', scopes: ['all'] }, pw(other)), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/users/${owner}/tokens`, { headers: pw(other) }), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/users/${owner}/tokens`, { headers: tokenHeader(otherToken) }), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/users/${owner}/tokens/keep`, { method: 'DELETE', headers: pw(other) }), 403, s.url);
    expect(await tokenCount(owner)).toBe(1);
    expect(await whoAmI(ownerToken)).toBe(owner);
  });

  test("a user cannot delete someone else's token by id through their own account", async () => {
    const owner = await user();
    const other = await user();
    const created = await json(await create(owner, { name: 'mine', scopes: ['read:user'] }, pw(owner)));
    const res = await s.fetch(`/api/v1/users/${other}/tokens/${created.id}`, { method: 'DELETE', headers: pw(other) });
    await expectApiError(res, 404, s.url);
    expect(await whoAmI(created.sha1)).toBe(owner);
  });

  test("a site admin can create, list and delete another user's tokens", async () => {
    const admin = await user('adm', { admin: true });
    const target = await user();
    const res = await create(target, { name: 'by-admin', scopes: ['read:user'] }, pw(admin));
    expect(res.status).toBe(201);
    const made = await json(res);
    expect(await whoAmI(made.sha1)).toBe(target);
    const list = await s.fetch(`/api/v1/users/${target}/tokens`, { headers: pw(admin) });
    expect(list.status).toBe(200);
    expect((await json<any[]>(list)).map((t) => t.name)).toEqual(['by-admin']);
    const adminToken = await createToken(s.host, admin, ['read:user']);
    expect((await s.fetch(`/api/v1/users/${target}/tokens`, { headers: tokenHeader(adminToken) })).status).toBe(200);
    const del = await s.fetch(`/api/v1/users/${target}/tokens/${made.id}`, { method: 'DELETE', headers: pw(admin) });
    expect(del.status).toBe(204);
    expect(await whoAmI(made.sha1)).toBe(401);
    // An admin still cannot mint tokens for an account that does not exist.
    await expectApiError(await create(uniq('ghost'), { name: 'x', scopes: ['all'] }, pw(admin)), 404, s.url);
  });

  test('a duplicate name is 400; the same name for another user is fine', async () => {
    const name = await user();
    const other = await user();
    expect((await create(name, { name: 'dup', scopes: ['read:user'] }, pw(name))).status).toBe(201);
    const res = await create(name, { name: 'dup', scopes: ['write:user'] }, pw(name));
    expect(await expectApiError(res, 400, s.url)).toBe('access token name has been used already');
    expect(await tokenCount(name)).toBe(1);
    expect((await create(other, { name: 'dup', scopes: ['read:user'] }, pw(other))).status).toBe(201);
  });

  test('a missing or empty name is 422 naming the field', async () => {
    const name = await user();
    for (const body of [{ scopes: ['read:user'] }, { name: '', scopes: ['read:user'] }, { name: '   ', scopes: ['read:user'] }, {}]) {
      const message = await expectApiError(await create(name, body, pw(name)), 422, s.url);
      expect(message, JSON.stringify(body)).toMatch(/\bname\b/i);
    }
    const wrongType = await expectApiError(await create(name, { name: 5, scopes: ['read:user'] }, pw(name)), 422, s.url);
    expect(wrongType).toMatch(/\bname\b/i);
    const wrongScopes = await expectApiError(await create(name, { name: 'x', scopes: 'read:user' }, pw(name)), 422, s.url);
    expect(wrongScopes).toMatch(/\bscopes\b/i);
    await expectApiError(await create(name, '{"name":', pw(name)), 422, s.url);
    expect(await tokenCount(name)).toBe(0);
  });

  test('no scopes is 400', async () => {
    const name = await user();
    for (const body of [{ name: 'a' }, { name: 'b', scopes: [] }, { name: 'c', scopes: [''] }, { name: 'd', scopes: ['public-only'] }]) {
      const res = await create(name, body, pw(name));
      expect(await expectApiError(res, 400, s.url), JSON.stringify(body)).toBe('access token must have a scope');
    }
    expect(await tokenCount(name)).toBe(0);
  });

  test('an unknown scope is 400 naming it', async () => {
    const name = await user();
    for (const scope of ['write:everything', 'admin', 'read:users', 'READ:USER']) {
      const res = await create(name, { name: 'x', scopes: ['read:user', scope] }, pw(name));
      const message = await expectApiError(res, 400, s.url);
      expect(message).toContain('invalid access token scope');
      expect(message).toContain(scope);
    }
    expect(await tokenCount(name)).toBe(0);
  });

  test('DELETE by id: 204 and the token stops working', async () => {
    const name = await user();
    const made = await json(await create(name, { name: 'gone', scopes: ['read:user'] }, pw(name)));
    const keep = await json(await create(name, { name: 'kept', scopes: ['read:user'] }, pw(name)));
    expect(await whoAmI(made.sha1)).toBe(name);
    const res = await s.fetch(`/api/v1/users/${name}/tokens/${made.id}`, { method: 'DELETE', headers: pw(name) });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await whoAmI(made.sha1)).toBe(401);
    expect(await whoAmI(keep.sha1)).toBe(name);
    const list = await json<any[]>(await s.fetch(`/api/v1/users/${name}/tokens`, { headers: pw(name) }));
    expect(list.map((t) => t.name)).toEqual(['kept']);
  });

  test('DELETE by name: 204 and the token stops working', async () => {
    const name = await user();
    const made = await json(await create(name, { name: 'by-name', scopes: ['read:user'] }, pw(name)));
    const res = await s.fetch(`/api/v1/users/${name}/tokens/by-name`, { method: 'DELETE', headers: pw(name) });
    expect(res.status).toBe(204);
    expect(await whoAmI(made.sha1)).toBe(401);
    await expectApiError(await s.fetch('/api/v1/user', { headers: tokenHeader(made.sha1) }), 401, s.url);
    expect(await tokenCount(name)).toBe(0);
  });

  test('DELETE of an unknown token is 404', async () => {
    const name = await user();
    await createToken(s.host, name, ['read:user'], 'present');
    for (const ref of ['999999', 'absent', 'Present']) {
      const res = await s.fetch(`/api/v1/users/${name}/tokens/${ref}`, { method: 'DELETE', headers: pw(name) });
      await expectApiError(res, 404, s.url);
    }
    expect(await tokenCount(name)).toBe(1);
  });

  test('the database never stores the token value', async () => {
    const name = await user();
    const made = await json(await create(name, { name: 'secret', scopes: ['all'] }, pw(name)));
    const rows = (await s.host.tokens.list(SYSTEM, await userNamed(s.host, name))).items;
    expect(rows).toHaveLength(1);
    for (const [field, value] of Object.entries(rows[0]!.token)) {
      expect(value, field).not.toBe(made.sha1);
      if (typeof value === 'string') {
        expect(value.toLowerCase(), field).not.toContain(made.sha1);
        expect(value.toLowerCase(), field).not.toContain(made.sha1.slice(0, 32));
      }
    }
    expect(await whoAmI(made.sha1)).toBe(name);
  });
});
