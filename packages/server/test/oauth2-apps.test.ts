/**
 * OAuth2 applications over HTTP: /user/applications/oauth2 (list, create) and /{id} (get, update, delete): the
 * secret is shown only when generated and stored as a hash, input errors, another user's application is a 404,
 * authentication and token scopes.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OAuth2ApplicationSchema, SYSTEM, matchesSchema, schemaErrors, verifyClientSecret } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer, userNamed } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const BASE = '/api/v1/user/applications/oauth2';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('/user/applications/oauth2', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  /** A new user and a token of theirs with the given scopes. */
  async function signedIn(scopes: string[] = ['write:user']): Promise<{ name: string; auth: Record<string, string> }> {
    const name = uniq('oa');
    await createUser(s.host, name);
    return { name, auth: tokenHeader(await createToken(s.host, name, scopes)) };
  }

  function create(auth: Record<string, string>, body: unknown): Promise<Response> {
    return s.fetch(BASE, jsonInit('POST', body, auth));
  }

  function expectApp(body: unknown): void {
    expect(matchesSchema(OAuth2ApplicationSchema, body), schemaErrors(OAuth2ApplicationSchema, body).join('\n')).toBe(true);
  }

  test('create: 201 with a UUID client id and a secret shown this once; confidential_client absent is false', async () => {
    const { auth } = await signedIn();
    const res = await create(auth, { name: 'my app', redirect_uris: ['https://example.com/cb', 'com.example.app:/oauth'] });
    expect(res.status).toBe(201);
    const app = await json(res);
    expectApp(app);
    expect(app.name).toBe('my app');
    expect(app.id).toBeGreaterThan(0);
    expect(app.client_id).toMatch(UUID);
    expect(app.client_secret).toMatch(/^gto_[a-z2-7]{52}$/);
    expect(app.confidential_client).toBe(false);
    expect(app.redirect_uris).toEqual(['https://example.com/cb', 'com.example.app:/oauth']);
    expect(Date.parse(app.created)).toBeGreaterThan(Date.now() - 60_000);

    const confidential = await json(await create(auth, { name: 'c', redirect_uris: ['http://localhost/x'], confidential_client: true }));
    expect(confidential.confidential_client).toBe(true);
    expect(confidential.client_id).not.toBe(app.client_id);
    expect(confidential.client_secret).not.toBe(app.client_secret);
  });

  test('the secret is never shown again: get and list answer client_secret ""; the row holds its SHA-256 only', async () => {
    const { name, auth } = await signedIn();
    const made = await json(await create(auth, { name: 'a', redirect_uris: ['https://a.example/cb'] }));

    const got = await s.fetch(`${BASE}/${made.id}`, { headers: auth });
    expect(got.status).toBe(200);
    const body = await json(got);
    expectApp(body);
    expect(body).toEqual({ ...made, client_secret: '' });

    const row = await s.host.oauth2.get(SYSTEM, await userNamed(s.host, name), made.id);
    expect(JSON.stringify(row)).not.toContain(made.client_secret);
    expect(row.client_secret_hash).toBe(createHash('sha256').update(made.client_secret).digest('hex'));
    expect(verifyClientSecret(row, made.client_secret)).toBe(true);
    expect(s.host.oauth2.verifyClientSecret(row, made.client_secret)).toBe(true);
    expect(verifyClientSecret(row, `${made.client_secret}x`)).toBe(false);
    expect(verifyClientSecret(row, '')).toBe(false);
    expect(verifyClientSecret({ client_secret_hash: '' }, '')).toBe(false);
    expect((await s.host.oauth2.byClientId(made.client_id))?.id).toBe(made.id);
    expect(await s.host.oauth2.byClientId('no\0such')).toBeUndefined();
  });

  test('list: newest first, paginated, X-Total-Count, secrets blank, only the caller\'s own', async () => {
    const { auth } = await signedIn();
    const other = await signedIn();
    await create(other.auth, { name: 'theirs', redirect_uris: ['https://t.example/'] });
    for (const n of ['one', 'two', 'three']) expect((await create(auth, { name: n, redirect_uris: ['https://x.example/'] })).status).toBe(201);

    const res = await s.fetch(BASE, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('3');
    const list = await json<any[]>(res);
    expect(list.map((a) => a.name)).toEqual(['three', 'two', 'one']);
    for (const app of list) {
      expectApp(app);
      expect(app.client_secret).toBe('');
    }
    const page2 = await s.fetch(`${BASE}?page=2&limit=2`, { headers: auth });
    expect(page2.headers.get('x-total-count')).toBe('3');
    expect((await json<any[]>(page2)).map((a) => a.name)).toEqual(['one']);
  });

  test('update replaces every field and generates a new secret; the old one stops verifying', async () => {
    const { name, auth } = await signedIn();
    const made = await json(await create(auth, { name: 'before', redirect_uris: ['https://a.example/cb'], confidential_client: true }));
    const res = await s.fetch(`${BASE}/${made.id}`, jsonInit('PATCH', { name: 'after', redirect_uris: ['https://b.example/login', 'http://127.0.0.1:8080/'] }, auth));
    expect(res.status).toBe(200);
    const updated = await json(res);
    expectApp(updated);
    expect(updated).toMatchObject({ id: made.id, name: 'after', client_id: made.client_id, created: made.created, confidential_client: false });
    expect(updated.redirect_uris).toEqual(['https://b.example/login', 'http://127.0.0.1:8080/']);
    expect(updated.client_secret).toMatch(/^gto_[a-z2-7]{52}$/);
    expect(updated.client_secret).not.toBe(made.client_secret);

    const row = await s.host.oauth2.get(SYSTEM, await userNamed(s.host, name), made.id);
    expect(verifyClientSecret(row, updated.client_secret)).toBe(true);
    expect(verifyClientSecret(row, made.client_secret)).toBe(false);
    expect((await json(await s.fetch(`${BASE}/${made.id}`, { headers: auth }))).client_secret).toBe('');

    // regenerateSecret (core) rotates the secret alone.
    const rotated = await s.host.oauth2.regenerateSecret(SYSTEM, await userNamed(s.host, name), made.id);
    expect(rotated.app.name).toBe('after');
    expect(verifyClientSecret(rotated.app, rotated.secret)).toBe(true);
    expect(verifyClientSecret(rotated.app, updated.client_secret)).toBe(false);
  });

  test('delete: 204, then 404 for get, update and a second delete', async () => {
    const { auth } = await signedIn();
    const made = await json(await create(auth, { name: 'gone', redirect_uris: ['https://a.example/cb'] }));
    const del = await s.fetch(`${BASE}/${made.id}`, { method: 'DELETE', headers: auth });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    await expectApiError(await s.fetch(`${BASE}/${made.id}`, { headers: auth }), 404, s.url);
    await expectApiError(await s.fetch(`${BASE}/${made.id}`, jsonInit('PATCH', { name: 'x', redirect_uris: ['https://a.example/'] }, auth)), 404, s.url);
    await expectApiError(await s.fetch(`${BASE}/${made.id}`, { method: 'DELETE', headers: auth }), 404, s.url);
    expect(await s.host.oauth2.byClientId(made.client_id)).toBeUndefined();
  });

  test("another user's application is a 404 for get, update and delete, and stays as it was", async () => {
    const owner = await signedIn();
    const stranger = await signedIn();
    const made = await json(await create(owner.auth, { name: 'mine', redirect_uris: ['https://a.example/cb'] }));
    await expectApiError(await s.fetch(`${BASE}/${made.id}`, { headers: stranger.auth }), 404, s.url);
    await expectApiError(
      await s.fetch(`${BASE}/${made.id}`, jsonInit('PATCH', { name: 'stolen', redirect_uris: ['https://evil.example/'] }, stranger.auth)),
      404,
      s.url,
    );
    await expectApiError(await s.fetch(`${BASE}/${made.id}`, { method: 'DELETE', headers: stranger.auth }), 404, s.url);
    const still = await json(await s.fetch(`${BASE}/${made.id}`, { headers: owner.auth }));
    expect(still).toMatchObject({ name: 'mine', redirect_uris: ['https://a.example/cb'] });
    const row = await s.host.oauth2.get(SYSTEM, await userNamed(s.host, owner.name), made.id);
    expect(verifyClientSecret(row, made.client_secret)).toBe(true);
    // Ids that are no application, or no number at all.
    for (const id of ['0', '-1', '99999999', 'abc', '9223372036854775807', '99999999999999999999']) {
      await expectApiError(await s.fetch(`${BASE}/${id}`, { headers: owner.auth }), 404, s.url);
      await expectApiError(await s.fetch(`${BASE}/${id}`, jsonInit('PATCH', { name: 'x', redirect_uris: ['https://a.example/'] }, owner.auth)), 404, s.url);
      await expectApiError(await s.fetch(`${BASE}/${id}`, { method: 'DELETE', headers: owner.auth }), 404, s.url);
    }
  });

  test('bad input is a 422 (or 400 for a body that is not JSON) and creates nothing', async () => {
    const { name, auth } = await signedIn();
    const cases: unknown[] = [
      {},
      { redirect_uris: ['https://a.example/'] },
      { name: '', redirect_uris: ['https://a.example/'] },
      { name: 'x' },
      { name: 'x', redirect_uris: [] },
      { name: 'x', redirect_uris: null },
      { name: 'x', redirect_uris: [''] },
      { name: 'x', redirect_uris: ['not a uri'] },
      { name: 'x', redirect_uris: ['/relative/path'] },
      { name: 'x', redirect_uris: ['https://a.example/cb#frag'] },
      { name: 'x', redirect_uris: [' https://a.example/cb'] },
      { name: 'x', redirect_uris: 'https://a.example/' },
      { name: 'x', redirect_uris: [42] },
      { name: 'x'.repeat(256), redirect_uris: ['https://a.example/'] },
      { name: 'x', redirect_uris: ['https://a.example/'], confidential_client: 'yes' },
      { name: 'a\0b', redirect_uris: ['https://a.example/'] },
    ];
    for (const body of cases) {
      const res = await create(auth, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      await expectApiError(res, 422, s.url);
    }
    const notJson = await s.fetch(BASE, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{' });
    expect([400, 422]).toContain(notJson.status);
    expect((await s.host.oauth2.list(SYSTEM, await userNamed(s.host, name))).total).toBe(0);

    // The same rules on update, which leaves the application as it was.
    const made = await json(await create(auth, { name: 'ok', redirect_uris: ['https://a.example/'] }));
    for (const body of [{ name: '', redirect_uris: ['https://a.example/'] }, { name: 'x', redirect_uris: [] }, { name: 'x', redirect_uris: ['nope'] }]) {
      await expectApiError(await s.fetch(`${BASE}/${made.id}`, jsonInit('PATCH', body, auth)), 422, s.url);
    }
    const row = await s.host.oauth2.get(SYSTEM, await userNamed(s.host, name), made.id);
    expect(verifyClientSecret(row, made.client_secret)).toBe(true);
    expect(row.name).toBe('ok');
  });

  test('anonymous: 401 on every operation', async () => {
    const { auth } = await signedIn();
    const made = await json(await create(auth, { name: 'a', redirect_uris: ['https://a.example/'] }));
    const calls: [string, RequestInit][] = [
      [BASE, {}],
      [BASE, jsonInit('POST', { name: 'a', redirect_uris: ['https://a.example/'] })],
      [`${BASE}/${made.id}`, {}],
      [`${BASE}/${made.id}`, jsonInit('PATCH', { name: 'a', redirect_uris: ['https://a.example/'] })],
      [`${BASE}/${made.id}`, { method: 'DELETE' }],
    ];
    for (const [path, init] of calls) await expectApiError(await s.fetch(path, init), 401, s.url);
  });

  test('token scopes: reading needs read:user, writing write:user; other categories are refused', async () => {
    const owner = await signedIn(['write:user']);
    const made = await json(await create(owner.auth, { name: 'a', redirect_uris: ['https://a.example/'] }));
    const readOnly = tokenHeader(await createToken(s.host, owner.name, ['read:user']));
    const repoOnly = tokenHeader(await createToken(s.host, owner.name, ['write:repository']));

    expect((await s.fetch(BASE, { headers: readOnly })).status).toBe(200);
    expect((await s.fetch(`${BASE}/${made.id}`, { headers: readOnly })).status).toBe(200);
    await expectApiError(await create(readOnly, { name: 'b', redirect_uris: ['https://a.example/'] }), 403, s.url);
    await expectApiError(await s.fetch(`${BASE}/${made.id}`, jsonInit('PATCH', { name: 'b', redirect_uris: ['https://a.example/'] }, readOnly)), 403, s.url);
    await expectApiError(await s.fetch(`${BASE}/${made.id}`, { method: 'DELETE', headers: readOnly }), 403, s.url);

    await expectApiError(await s.fetch(BASE, { headers: repoOnly }), 403, s.url);
    await expectApiError(await s.fetch(`${BASE}/${made.id}`, { headers: repoOnly }), 403, s.url);
    await expectApiError(await create(repoOnly, { name: 'b', redirect_uris: ['https://a.example/'] }), 403, s.url);

    const after = await json(await s.fetch(`${BASE}/${made.id}`, { headers: owner.auth }));
    expect(after.name).toBe('a');
  });

  test('a deleted account takes its applications with it', async () => {
    const { name, auth } = await signedIn();
    const made = await json(await create(auth, { name: 'a', redirect_uris: ['https://a.example/'] }));
    await s.host.accounts.deleteUser(SYSTEM, await userNamed(s.host, name));
    expect(await s.host.oauth2.byClientId(made.client_id)).toBeUndefined();
  });
});
