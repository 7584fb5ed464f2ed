/**
 * Follows over HTTP: the state table (PUT/DELETE/GET `/user/following/{username}`), both sides' counts, the lists
 * with their paging headers, and who may see whom.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { UserSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

describe('follows', () => {
  let s: TestServer;
  const name: Record<string, string> = {};
  const auth: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    s = await startTestServer();
    for (const who of ['ann', 'ben', 'cat', 'dan'] as const) {
      name[who] = uniq(who);
      await createUser(s.host, name[who]);
      auth[who] = tokenHeader(await createToken(s.host, name[who]));
    }
    name.hidden = uniq('hid');
    await createUser(s.host, name.hidden, { visibility: 'private' });
    auth.hidden = tokenHeader(await createToken(s.host, name.hidden));
    name.limited = uniq('lim');
    await createUser(s.host, name.limited, { visibility: 'limited' });
    auth.limited = tokenHeader(await createToken(s.host, name.limited));
  });
  afterAll(async () => s?.cleanup());

  const call = (method: string, path: string, who?: string) => s.fetch(`/api/v1${path}`, { method, headers: who ? auth[who] : {} });

  async function profile(who: string) {
    const res = await call('GET', `/users/${name[who]}`, who);
    expect(res.status).toBe(200);
    return json<{ followers_count: number; following_count: number }>(res);
  }

  async function listNames(path: string, who?: string): Promise<{ names: string[]; total: string | null; link: string | null }> {
    const res = await call('GET', path, who);
    expect(res.status, path).toBe(200);
    const body = await json<unknown[]>(res);
    for (const item of body) expect(matchesSchema(UserSchema, item), schemaErrors(UserSchema, item).join('\n')).toBe(true);
    return { names: (body as { login: string }[]).map((u) => u.login), total: res.headers.get('x-total-count'), link: res.headers.get('link') };
  }

  test('the state table: not following → 404; PUT → 204 (twice: still one); GET → 204; DELETE → 204 (twice too); GET → 404', async () => {
    const target = `/user/following/${name.ben}`;
    expect((await call('GET', target, 'ann')).status).toBe(404);
    expect((await call('PUT', target, 'ann')).status).toBe(204);
    expect((await call('PUT', target, 'ann')).status).toBe(204);
    expect((await call('GET', target, 'ann')).status).toBe(204);
    expect((await call('GET', `/users/${name.ann}/following/${name.ben}`)).status).toBe(204);
    expect((await call('GET', `/users/${name.ben}/following/${name.ann}`)).status).toBe(404);
    expect(await profile('ann')).toMatchObject({ following_count: 1, followers_count: 0 });
    expect(await profile('ben')).toMatchObject({ following_count: 0, followers_count: 1 });

    expect((await call('DELETE', target, 'ann')).status).toBe(204);
    expect((await call('DELETE', target, 'ann')).status).toBe(204);
    expect((await call('GET', target, 'ann')).status).toBe(404);
    expect(await profile('ann')).toMatchObject({ following_count: 0 });
    expect(await profile('ben')).toMatchObject({ followers_count: 0 });
  });

  test('following oneself answers 204 and records nothing', async () => {
    expect((await call('PUT', `/user/following/${name.dan}`, 'dan')).status).toBe(204);
    expect((await call('GET', `/user/following/${name.dan}`, 'dan')).status).toBe(404);
    expect(await profile('dan')).toMatchObject({ following_count: 0, followers_count: 0 });
  });

  test('missing and invisible accounts are 404; anonymous callers 401', async () => {
    await expectApiError(await call('PUT', `/user/following/${uniq('nobody')}`, 'ann'), 404, s.url);
    await expectApiError(await call('PUT', `/user/following/${name.hidden}`, 'ann'), 404, s.url);
    await expectApiError(await call('GET', `/users/${name.ann}/following/${name.hidden}`, 'ann'), 404, s.url);
    await expectApiError(await call('PUT', `/user/following/${name.ann}`), 401, s.url);
    await expectApiError(await call('GET', '/user/followers'), 401, s.url);
    // A token without the user scope may not follow.
    const repoOnly = tokenHeader(await createToken(s.host, name.ann!, ['write:repository']));
    expect((await s.fetch(`/api/v1/user/following/${name.ben}`, { method: 'PUT', headers: repoOnly })).status).toBe(403);
  });

  test('lists: in follow order, paged with X-Total-Count and Link, showing only accounts the caller may see', async () => {
    // cat is followed by ann, ben, limited and hidden.
    for (const who of ['ann', 'ben', 'limited', 'hidden']) expect((await call('PUT', `/user/following/${name.cat}`, who)).status).toBe(204);
    expect((await call('PUT', `/user/following/${name.ann}`, 'cat')).status).toBe(204);

    const all = [name.ann, name.ben, name.limited, name.hidden];
    expect(await listNames(`/users/${name.cat}/followers`, 'hidden')).toMatchObject({ names: all, total: '4' });
    // Others see the private follower nowhere; anonymous callers neither the limited one.
    expect(await listNames(`/users/${name.cat}/followers`, 'dan')).toMatchObject({ names: [name.ann, name.ben, name.limited], total: '3' });
    expect(await listNames(`/users/${name.cat}/followers`)).toMatchObject({ names: [name.ann, name.ben], total: '2' });
    const page2 = await listNames(`/users/${name.cat}/followers?limit=1&page=2`, 'dan');
    expect(page2).toMatchObject({ names: [name.ben], total: '3' });
    expect(page2.link).toContain('rel="next"');
    expect(page2.link).toContain('rel="prev"');

    // Even the followed account does not see a private follower (the canSeeUser rules); its count still counts it.
    expect(await listNames('/user/followers', 'cat')).toMatchObject({ names: [name.ann, name.ben, name.limited], total: '3' });
    expect(await listNames('/user/following', 'cat')).toMatchObject({ names: [name.ann], total: '1' });
    expect(await listNames(`/users/${name.hidden}/following`, 'hidden')).toMatchObject({ names: [name.cat], total: '1' });
    await expectApiError(await call('GET', `/users/${name.hidden}/following`, 'dan'), 404, s.url);

    expect(await profile('cat')).toMatchObject({ followers_count: 4, following_count: 1 });
  });
});
