/**
 * Email addresses over HTTP: `/user/emails` (list, add, delete) with Forgejo's answers for invalid, used, unknown
 * and primary addresses, all-or-nothing changes; new accounts' primary address; and the site administrators'
 * `/admin/emails`, `/admin/emails/search` and `/admin/users/{username}/emails`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EmailSchema, SYSTEM, matchesSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, userNamed, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

let s: TestServer;
let adminToken: string;

beforeAll(async () => {
  s = await startTestServer();
  const admin = uniq('adm');
  await createUser(s.host, admin, { admin: true });
  adminToken = await createToken(s.host, admin);
});
afterAll(async () => {
  await s?.cleanup();
});

async function person(prefix = 'e'): Promise<{ name: string; token: string }> {
  const name = uniq(prefix);
  await createUser(s.host, name);
  return { name, token: await createToken(s.host, name) };
}

function expectEmails(body: unknown): asserts body is { email: string; primary: boolean; verified: boolean; user_id: number; username: string }[] {
  expect(Array.isArray(body)).toBe(true);
  for (const item of body as unknown[]) expect(matchesSchema(EmailSchema, item), schemaErrors(EmailSchema, item).join('\n')).toBe(true);
}

async function list(token: string): Promise<string[]> {
  const res = await s.fetch('/api/v1/user/emails', { headers: tokenHeader(token) });
  const body = await json(res);
  expect(res.status).toBe(200);
  expectEmails(body);
  return body.map((e) => e.email);
}

const add = (token: string, emails: unknown) => s.fetch('/api/v1/user/emails', jsonInit('POST', { emails }, tokenHeader(token)));
const remove = (token: string, emails: unknown) => s.fetch('/api/v1/user/emails', jsonInit('DELETE', { emails }, tokenHeader(token)));

describe('/user/emails', () => {
  test('a new account has its primary address; added ones follow in order, verified', async () => {
    const { name, token } = await person();
    const res = await s.fetch('/api/v1/user/emails', { headers: tokenHeader(token) });
    const body = await json(res);
    expectEmails(body);
    expect(body).toEqual([{ email: `${name}@example.com`, verified: true, primary: true, user_id: 0, username: '' }]);

    const added = await add(token, [`${name}.two@example.org`, `${name}.Three@example.org`]);
    const addedBody = await json(added);
    expect(added.status, JSON.stringify(addedBody)).toBe(201);
    expectEmails(addedBody);
    expect(addedBody.map((e) => [e.email, e.primary, e.verified])).toEqual([
      [`${name}@example.com`, true, true],
      [`${name}.two@example.org`, false, true],
      [`${name}.Three@example.org`, false, true],
    ]);
  });

  test('invalid, empty and used addresses: 422, and nothing of the request is added', async () => {
    const { name, token } = await person();
    const other = await person();
    const cases: [unknown, RegExp][] = [
      [[], /Email list empty/],
      [undefined, /Email list empty/],
      [['not-an-address'], /Email address "not-an-address" invalid/],
      [[`ok-${name}@example.org`, 'a..b@example.org'], /invalid/],
      [['-lead@example.org'], /invalid/],
      [['.lead@example.org'], /invalid/],
      [['sp ace@example.org'], /invalid/],
      [['x@-bad.example'], /invalid/],
      [[`${'l'.repeat(250)}@example.org`], /invalid/],
      [[`${other.name}@example.com`], new RegExp(`Email address has been used: ${other.name}@example.com`)],
      [[`${other.name.toUpperCase()}@EXAMPLE.com`], /has been used/],
      [[`${name}@example.com`], /has been used/],
      [[`dup-${name}@example.org`, `DUP-${name}@example.org`], /has been used/],
    ];
    for (const [emails, message] of cases) {
      expect(await expectApiError(await add(token, emails), 422, s.url), JSON.stringify(emails)).toMatch(message);
    }
    expect(await list(token)).toEqual([`${name}@example.com`]);
    await expectApiError(await add(token, 'string'), 422, s.url);
  });

  test('delete: 204; an unknown or foreign address 404, the primary one 422; all or nothing', async () => {
    const { name, token } = await person();
    const other = await person();
    expect((await add(token, [`a-${name}@example.org`, `b-${name}@example.org`])).status).toBe(201);

    expect(await expectApiError(await remove(token, [`a-${name}@example.org`, 'imaginary@e.de']), 404, s.url)).toBe('Email address does not exist [email: imaginary@e.de]');
    await expectApiError(await remove(token, [`${other.name}@example.com`]), 404, s.url);
    expect(await expectApiError(await remove(token, [`a-${name}@example.org`, `${name}@example.com`]), 422, s.url)).toBe(
      `Primary email address cannot be deleted [email: ${name}@example.com]`,
    );
    expect(await list(token)).toHaveLength(3);

    expect((await remove(token, [`A-${name}@EXAMPLE.org`])).status).toBe(204);
    expect((await remove(token, [])).status).toBe(204);
    expect(await list(token)).toEqual([`${name}@example.com`, `b-${name}@example.org`]);
    // Freed: another account may take it now.
    expect((await add(other.token, [`a-${name}@example.org`])).status).toBe(201);
  });

  test('a new account cannot take an address another account added', async () => {
    const { name, token } = await person();
    expect((await add(token, [`taken-${name}@example.org`])).status).toBe(201);
    await expect(s.host.users.create(SYSTEM, { username: uniq('n'), email: `Taken-${name}@example.org`, password: 'long-enough-pw' })).rejects.toThrow(/already in use/);
  });

  test('anonymous 401; a read-only token may list but not change', async () => {
    await expectApiError(await s.fetch('/api/v1/user/emails'), 401, s.url);
    await expectApiError(await s.fetch('/api/v1/user/emails', jsonInit('POST', { emails: ['x@example.org'] })), 401, s.url);
    const { name } = await person();
    const readOnly = await createToken(s.host, name, ['read:user']);
    expect(await list(readOnly)).toHaveLength(1);
    await expectApiError(await add(readOnly, ['ro@example.org']), 403, s.url);
    await expectApiError(await remove(readOnly, [`${name}@example.com`]), 403, s.url);
  });

  test('deleting an account frees its addresses', async () => {
    const { name, token } = await person();
    expect((await add(token, [`gone-${name}@example.org`])).status).toBe(201);
    await s.host.accounts.deleteUser(SYSTEM, await userNamed(s.host, name));
    const other = await person();
    expect((await add(other.token, [`gone-${name}@example.org`, `${name}@example.com`])).status).toBe(201);
  });
});

describe('/admin emails', () => {
  const tag = uniq('adm');
  let user: { name: string; token: string };

  beforeAll(async () => {
    user = { name: `${tag}u`, token: '' };
    await createUser(s.host, user.name);
    user.token = await createToken(s.host, user.name);
    expect((await add(user.token, [`second-${tag}@example.org`])).status).toBe(201);
  });

  test('list and search every address with its owner, paged', async () => {
    const res = await s.fetch(`/api/v1/admin/emails/search?q=${tag}`, { headers: tokenHeader(adminToken) });
    const body = await json(res);
    expect(res.status).toBe(200);
    expectEmails(body);
    const owner = await userNamed(s.host, user.name);
    expect(body).toEqual([
      { email: `${user.name}@example.com`, verified: true, primary: true, user_id: owner.id, username: user.name },
      { email: `second-${tag}@example.org`, verified: true, primary: false, user_id: owner.id, username: user.name },
    ]);
    expect(res.headers.get('x-total-count')).toBe('2');
    const paged = await s.fetch(`/api/v1/admin/emails/search?q=${tag}&limit=1&page=2`, { headers: tokenHeader(adminToken) });
    expect((await json(paged)).map((e: { email: string }) => e.email)).toEqual([`second-${tag}@example.org`]);

    const all = await s.fetch('/api/v1/admin/emails?limit=50', { headers: tokenHeader(adminToken) });
    const allBody = await json(all);
    expectEmails(allBody);
    expect(allBody.map((e) => e.email)).toEqual(expect.arrayContaining([`second-${tag}@example.org`]));
    expect(Number(all.headers.get('x-total-count'))).toBeGreaterThanOrEqual(3);
  });

  test("one user's addresses, and deleting them as the user route does", async () => {
    const res = await s.fetch(`/api/v1/admin/users/${user.name}/emails`, { headers: tokenHeader(adminToken) });
    const body = await json(res);
    expectEmails(body);
    expect(body.map((e) => [e.email, e.username])).toEqual([
      [`${user.name}@example.com`, user.name],
      [`second-${tag}@example.org`, user.name],
    ]);
    await expectApiError(await s.fetch('/api/v1/admin/users/nobody-here/emails', { headers: tokenHeader(adminToken) }), 404, s.url);
    const del = (emails: string[]) => s.fetch(`/api/v1/admin/users/${user.name}/emails`, jsonInit('DELETE', { emails }, tokenHeader(adminToken)));
    await expectApiError(await del([`${user.name}@example.com`]), 422, s.url);
    await expectApiError(await del(['imaginary@example.org']), 404, s.url);
    expect((await del([`second-${tag}@example.org`])).status).toBe(204);
    expect(await list(user.token)).toEqual([`${user.name}@example.com`]);
  });

  test('non-admins 403, anonymous 401', async () => {
    for (const path of ['/api/v1/admin/emails', '/api/v1/admin/emails/search?q=x', `/api/v1/admin/users/${user.name}/emails`]) {
      await expectApiError(await s.fetch(path, { headers: tokenHeader(user.token) }), 403, s.url);
      await expectApiError(await s.fetch(path), 401, s.url);
    }
  });
});
