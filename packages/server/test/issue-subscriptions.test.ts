/**
 * Issue subscriptions over HTTP (`/repos/{owner}/{repo}/issues/{index}/subscriptions`): who follows an issue
 * without asking (its poster, its commenters, its repository's watchers), explicit subscriptions and
 * unsubscriptions over them, 200 for no change and 201 for a change, who may change whose, and the list.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import { UserSchema, WatchInfoSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

interface Account {
  name: string;
  id: number;
  h: Record<string, string>;
}

describe('issue subscriptions', () => {
  let s: TestServer;
  let owner: Account;
  let other: Account;
  let admin: Account;

  async function account(prefix: string, options: { admin?: boolean } = {}): Promise<Account> {
    const name = uniq(prefix);
    const user = await createUser(s.host, name, { admin: options.admin });
    return { name, id: user.id, h: tokenHeader(await createToken(s.host, name)) };
  }

  const api = (method: string, path: string, who?: Account, body?: unknown) =>
    s.fetch(`/api/v1${path}`, body === undefined ? { method, headers: who?.h ?? {} } : jsonInit(method, body, who?.h));

  /** A repository of `owner` with one issue by `owner`; returns the issue's path. */
  async function issue(options: { private?: boolean } = {}): Promise<string> {
    const name = uniq('r');
    expect((await api('POST', '/user/repos', owner, { name, private: options.private ?? false })).status).toBe(201);
    expect((await api('POST', `/repos/${owner.name}/${name}/issues`, owner, { title: 'Watch me' })).status).toBe(201);
    return `/repos/${owner.name}/${name}/issues/1`;
  }

  async function subscribed(path: string, who: Account): Promise<boolean> {
    const res = await api('GET', `${path}/subscriptions/check`, who);
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(schemaErrors(WatchInfoSchema, body)).toEqual([]);
    expect(body.ignored).toBe(!body.subscribed);
    return body.subscribed;
  }

  async function subscribers(path: string, query = ''): Promise<string[]> {
    const res = await api('GET', `${path}/subscriptions${query}`);
    const body = await json<{ login: string }[]>(res);
    expect(res.status).toBe(200);
    expect(schemaErrors(Type.Array(UserSchema), body)).toEqual([]);
    return body.map((u) => u.login);
  }

  beforeAll(async () => {
    s = await startTestServer();
    owner = await account('own');
    other = await account('oth');
    admin = await account('adm', { admin: true });
  });
  afterAll(async () => s?.cleanup());

  test('the poster follows its issue until it unsubscribes; an explicit choice outlasts watching the repository', async () => {
    const path = await issue();
    const repoPath = path.replace(/\/issues\/1$/, '');
    const check = await json(await api('GET', `${path}/subscriptions/check`, owner));
    expect(check).toMatchObject({ subscribed: true, ignored: false, reason: null, url: `${s.url}api/v1${path}/subscriptions`, repository_url: `${s.url}api/v1${repoPath}` });

    expect((await api('DELETE', `${repoPath}/subscription`, owner)).status).toBe(204);
    expect(await subscribed(path, owner)).toBe(true);

    const again = await api('PUT', `${path}/subscriptions/${owner.name}`, owner);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('');
    expect(await subscribed(path, owner)).toBe(true);

    const off = await api('DELETE', `${path}/subscriptions/${owner.name}`, owner);
    expect(off.status).toBe(201);
    expect(await off.text()).toBe('');
    expect(await subscribed(path, owner)).toBe(false);
    expect((await api('DELETE', `${path}/subscriptions/${owner.name}`, owner)).status).toBe(200);

    expect((await api('PUT', `${repoPath}/subscription`, owner)).status).toBe(200);
    expect(await subscribed(path, owner)).toBe(false);

    expect((await api('PUT', `${path}/subscriptions/${owner.name}`, owner)).status).toBe(201);
    expect(await subscribed(path, owner)).toBe(true);
    expect(await subscribers(path)).toEqual([owner.name]);
  });

  test('watching the repository or commenting makes one follow an issue', async () => {
    const path = await issue();
    const repoPath = path.replace(/\/issues\/1$/, '');
    expect(await subscribed(path, other)).toBe(false);
    expect((await api('PUT', `${repoPath}/subscription`, other)).status).toBe(200);
    expect(await subscribed(path, other)).toBe(true);
    expect((await api('DELETE', `${repoPath}/subscription`, other)).status).toBe(204);
    expect(await subscribed(path, other)).toBe(false);
    expect((await api('POST', `${path}/comments`, other, { body: 'me too' })).status).toBe(201);
    expect(await subscribed(path, other)).toBe(true);
    // Implicit followers are not in the list: it shows explicit subscriptions, as Forgejo's.
    expect(await subscribers(path)).toEqual([]);
  });

  test('only oneself, or a site administrator, changes a subscription', async () => {
    const path = await issue();
    expect(await expectApiError(await api('PUT', `${path}/subscriptions/${owner.name}`, other), 403, s.url)).toBe(
      `${other.name} is not permitted to change subscriptions for ${owner.name}`,
    );
    await expectApiError(await api('DELETE', `${path}/subscriptions/${owner.name}`, other), 403, s.url);
    expect(await subscribed(path, owner)).toBe(true);
    expect((await api('DELETE', `${path}/subscriptions/${owner.name}`, admin)).status).toBe(201);
    expect(await subscribed(path, owner)).toBe(false);
    expect((await api('PUT', `${path}/subscriptions/${other.name}`, admin)).status).toBe(201);
    expect((await api('PUT', `${path}/subscriptions/${other.name}`, other)).status).toBe(200);
    expect(await subscribers(path)).toEqual([other.name]);
    await expectApiError(await api('PUT', `${path}/subscriptions/nobody-${uniq()}`, owner), 404, s.url);
  });

  test('the list pages, and counts what it pages', async () => {
    const path = await issue();
    const fans: Account[] = [];
    for (let i = 0; i < 3; i++) fans.push(await account('fan'));
    for (const fan of fans) expect((await api('PUT', `${path}/subscriptions/${fan.name}`, fan)).status).toBe(201);
    const res = await api('GET', `${path}/subscriptions?limit=2&page=2`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect((await json<{ login: string }[]>(res)).map((u) => u.login)).toEqual([fans[2]!.name]);
  });

  test('tokens, scopes, private repositories and missing issues', async () => {
    const path = await issue();
    expect(await expectApiError(await api('GET', `${path}/subscriptions/check`), 401, s.url)).toBe('token is required');
    await expectApiError(await api('PUT', `${path}/subscriptions/${owner.name}`), 401, s.url);
    await expectApiError(await api('DELETE', `${path}/subscriptions/${owner.name}`), 401, s.url);
    // The list is open to whoever may read the issue.
    expect((await api('GET', `${path}/subscriptions`)).status).toBe(200);

    const readOnly = tokenHeader(await createToken(s.host, owner.name, ['read:issue']));
    expect((await s.fetch(`/api/v1${path}/subscriptions/check`, { headers: readOnly })).status).toBe(200);
    expect(await expectApiError(await s.fetch(`/api/v1${path}/subscriptions/${owner.name}`, { method: 'PUT', headers: readOnly }), 403, s.url)).toContain('write:issue');
    const repoOnly = tokenHeader(await createToken(s.host, owner.name, ['read:repository']));
    await expectApiError(await s.fetch(`/api/v1${path}/subscriptions/check`, { headers: repoOnly }), 403, s.url);

    const hidden = await issue({ private: true });
    for (const [method, suffix] of [
      ['GET', ''],
      ['GET', '/check'],
      ['PUT', `/${other.name}`],
      ['DELETE', `/${other.name}`],
    ] as const) {
      await expectApiError(await api(method, `${hidden}/subscriptions${suffix}`, other), 404, s.url);
    }
    await expectApiError(await api('GET', `${hidden}/subscriptions`), 404, s.url);
    await expectApiError(await api('GET', `${path.replace(/1$/, '99')}/subscriptions/check`, owner), 404, s.url);
    await expectApiError(await api('GET', `${path.replace(/1$/, 'x')}/subscriptions`, owner), 404, s.url);
  });
});
