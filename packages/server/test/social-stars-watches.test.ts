/**
 * Stars and watches over HTTP: their state tables, both sides' counts (`stars_count`/`starred_repos_count`,
 * `watchers_count`), the lists, and private repositories kept from those who may not see them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TSchema } from '@sinclair/typebox';
import { RepositorySchema, UserSchema, WatchInfoSchema, matchesSchema, schemaErrors, userActor } from '@repohost/core';
import { createToken, createUser, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

function expectAll(schema: TSchema, items: unknown[]) {
  for (const item of items) expect(matchesSchema(schema, item), schemaErrors(schema, item).join('\n')).toBe(true);
}

describe('stars and watches', () => {
  let s: TestServer;
  const name: Record<string, string> = {};
  const auth: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    s = await startTestServer();
    for (const who of ['own', 'fan', 'other'] as const) {
      name[who] = uniq(who);
      await createUser(s.host, name[who]);
      auth[who] = tokenHeader(await createToken(s.host, name[who]));
    }
    const owner = (await s.host.users.findByName(name.own!))!;
    await s.host.repos.create(userActor(owner), { name: 'pub' });
    await s.host.repos.create(userActor(owner), { name: 'priv', private: true });
  });
  afterAll(async () => s?.cleanup());

  const call = (method: string, path: string, who?: string) => s.fetch(`/api/v1${path}`, { method, headers: who ? auth[who] : {} });
  const repoJson = async (repo: string, who = 'own') => json<{ stars_count: number; watchers_count: number }>(await call('GET', `/repos/${name.own}/${repo}`, who));
  const userJson = async (who: string) => json<{ starred_repos_count: number }>(await call('GET', `/users/${name[who]}`, who));

  test('star state table and both counts', async () => {
    const star = `/user/starred/${name.own}/pub`;
    expect((await call('GET', star, 'fan')).status).toBe(404);
    expect((await call('PUT', star, 'fan')).status).toBe(204);
    expect((await call('PUT', star, 'fan')).status).toBe(204);
    expect((await call('GET', star, 'fan')).status).toBe(204);
    expect((await repoJson('pub')).stars_count).toBe(1);
    expect((await userJson('fan')).starred_repos_count).toBe(1);

    const gazers = await call('GET', `/repos/${name.own}/pub/stargazers`);
    expect(gazers.status).toBe(200);
    expect(gazers.headers.get('x-total-count')).toBe('1');
    const gazerBody = await json<{ login: string }[]>(gazers);
    expectAll(UserSchema, gazerBody);
    expect(gazerBody.map((u) => u.login)).toEqual([name.fan]);

    const mine = await call('GET', '/user/starred', 'fan');
    const mineBody = await json<{ full_name: string }[]>(mine);
    expectAll(RepositorySchema, mineBody);
    expect(mineBody.map((r) => r.full_name)).toEqual([`${name.own}/pub`]);
    expect(mine.headers.get('x-total-count')).toBe('1');

    expect((await call('DELETE', star, 'fan')).status).toBe(204);
    expect((await call('DELETE', star, 'fan')).status).toBe(204);
    expect((await call('GET', star, 'fan')).status).toBe(404);
    expect((await repoJson('pub')).stars_count).toBe(0);
    expect((await userJson('fan')).starred_repos_count).toBe(0);
  });

  test('stars need a repository the caller can read; anonymous callers get 401', async () => {
    await expectApiError(await call('PUT', `/user/starred/${name.own}/priv`, 'fan'), 404, s.url);
    await expectApiError(await call('PUT', `/user/starred/${name.own}/${uniq('none')}`, 'fan'), 404, s.url);
    await expectApiError(await call('PUT', `/user/starred/${name.own}/pub`), 401, s.url);
    expect((await repoJson('priv')).stars_count).toBe(0);
  });

  test('another account\'s starred list shows public repositories only', async () => {
    expect((await call('PUT', `/user/starred/${name.own}/priv`, 'own')).status).toBe(204);
    expect((await call('PUT', `/user/starred/${name.own}/pub`, 'own')).status).toBe(204);
    const own = await json<{ name: string }[]>(await call('GET', `/users/${name.own}/starred`, 'own'));
    expect(own.map((r) => r.name)).toEqual(['priv', 'pub']);
    for (const who of ['other', undefined]) {
      const res = await call('GET', `/users/${name.own}/starred`, who);
      expect((await json<{ name: string }[]>(res)).map((r) => r.name)).toEqual(['pub']);
      expect(res.headers.get('x-total-count')).toBe('1');
    }
    // The stargazers of a private repository: 404 to those who cannot see it.
    await expectApiError(await call('GET', `/repos/${name.own}/priv/stargazers`, 'other'), 404, s.url);
  });

  test('watch state table: creating a repository watches it; GET needs a token; counts follow', async () => {
    const sub = `/repos/${name.own}/pub/subscription`;
    const owned = await call('GET', sub, 'own');
    expect(owned.status).toBe(200);
    const info = await json(owned);
    expect(matchesSchema(WatchInfoSchema, info), schemaErrors(WatchInfoSchema, info).join('\n')).toBe(true);
    expect(info).toMatchObject({ subscribed: true, ignored: false, reason: null, url: `${s.url}api/v1${sub}`, repository_url: `${s.url}api/v1/repos/${name.own}/pub` });
    expect((await repoJson('pub')).watchers_count).toBe(1);

    await expectApiError(await call('GET', sub), 401, s.url);
    await expectApiError(await call('GET', sub, 'fan'), 404, s.url);
    const put = await call('PUT', sub, 'fan');
    expect(put.status).toBe(200);
    expect(await json(put)).toMatchObject({ subscribed: true });
    expect((await call('PUT', sub, 'fan')).status).toBe(200);
    expect((await call('GET', sub, 'fan')).status).toBe(200);
    expect((await repoJson('pub')).watchers_count).toBe(2);

    const subscribers = await call('GET', `/repos/${name.own}/pub/subscribers`);
    const subscriberNames = (await json<{ login: string }[]>(subscribers)).map((u) => u.login);
    expect(subscriberNames).toEqual([name.own, name.fan]);
    expect(subscribers.headers.get('x-total-count')).toBe('2');

    const watched = await json<{ name: string }[]>(await call('GET', '/user/subscriptions', 'fan'));
    expect(watched.map((r) => r.name)).toEqual(['pub']);
    const ownWatched = await call('GET', `/users/${name.own}/subscriptions`, 'own');
    expect((await json<{ name: string }[]>(ownWatched)).map((r) => r.name)).toEqual(['pub', 'priv']);
    const seenByOther = await call('GET', `/users/${name.own}/subscriptions`, 'other');
    expect((await json<{ name: string }[]>(seenByOther)).map((r) => r.name)).toEqual(['pub']);
    expect(seenByOther.headers.get('x-total-count')).toBe('1');

    expect((await call('DELETE', sub, 'fan')).status).toBe(204);
    expect((await call('DELETE', sub, 'fan')).status).toBe(204);
    await expectApiError(await call('GET', sub, 'fan'), 404, s.url);
    expect((await repoJson('pub')).watchers_count).toBe(1);
    await expectApiError(await call('PUT', `/repos/${name.own}/priv/subscription`, 'fan'), 404, s.url);
    await expectApiError(await call('PUT', sub), 401, s.url);
  });
});
