/**
 * Blocking over HTTP (`/user/block/{username}`, `/user/unblock/{username}`, `/user/list_blocked`) and what a block
 * stops: follows either way, and the blocked account's stars and watches of the blocker's repositories.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BlockedUserSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

describe('blocks', () => {
  let s: TestServer;
  const name: Record<string, string> = {};
  const id: Record<string, number> = {};
  const auth: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    s = await startTestServer();
    for (const who of ['boss', 'pest', 'pal'] as const) {
      name[who] = uniq(who);
      const user = await createUser(s.host, name[who]);
      id[who] = user.id;
      auth[who] = tokenHeader(await createToken(s.host, name[who]));
    }
    name.hidden = uniq('hid');
    await createUser(s.host, name.hidden, { visibility: 'private' });
    const boss = (await s.host.users.findByName(name.boss!))!;
    await s.host.repos.create({ kind: 'user', user: boss, publicOnly: false }, { name: 'site' });
  });
  afterAll(async () => s?.cleanup());

  const call = (method: string, path: string, who?: string) => s.fetch(`/api/v1${path}`, { method, headers: who ? auth[who] : {} });
  const counts = async (who: string) => json<{ followers_count: number; following_count: number }>(await call('GET', `/users/${name[who]}`, who));

  test('a block ends follows both ways, lists the account, and unblocking lifts it', async () => {
    expect((await call('PUT', `/user/following/${name.boss}`, 'pest')).status).toBe(204);
    expect((await call('PUT', `/user/following/${name.pest}`, 'boss')).status).toBe(204);
    expect((await call('PUT', `/repos/${name.boss}/site/subscription`, 'pest')).status).toBe(200);
    expect((await call('PUT', `/user/starred/${name.boss}/site`, 'pest')).status).toBe(204);

    expect((await call('PUT', `/user/block/${name.pest}`, 'boss')).status).toBe(204);
    expect((await call('PUT', `/user/block/${name.pest}`, 'boss')).status).toBe(204);

    expect(await counts('boss')).toMatchObject({ followers_count: 0, following_count: 0 });
    expect(await counts('pest')).toMatchObject({ followers_count: 0, following_count: 0 });
    const site = await json<{ watchers_count: number; stars_count: number }>(await call('GET', `/repos/${name.boss}/site`, 'boss'));
    // The watch went with the block; the star stays, as on Forgejo.
    expect(site).toMatchObject({ watchers_count: 1, stars_count: 1 });
    expect((await call('GET', `/repos/${name.boss}/site/subscription`, 'pest')).status).toBe(404);

    const listed = await call('GET', '/user/list_blocked', 'boss');
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-total-count')).toBe('1');
    const body = await json<unknown[]>(listed);
    for (const item of body) expect(matchesSchema(BlockedUserSchema, item), schemaErrors(BlockedUserSchema, item).join('\n')).toBe(true);
    expect(body).toEqual([{ block_id: id.pest, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) }]);
    expect(await json(await call('GET', '/user/list_blocked', 'pest'))).toEqual([]);

    // Neither may follow the other; the blocked account may not star or watch the blocker's repositories.
    await expectApiError(await call('PUT', `/user/following/${name.boss}`, 'pest'), 403, s.url);
    await expectApiError(await call('PUT', `/user/following/${name.pest}`, 'boss'), 403, s.url);
    await expectApiError(await call('PUT', `/repos/${name.boss}/site/subscription`, 'pest'), 403, s.url);
    expect((await call('DELETE', `/user/starred/${name.boss}/site`, 'pest')).status).toBe(204);
    await expectApiError(await call('PUT', `/user/starred/${name.boss}/site`, 'pest'), 403, s.url);
    // Others are not affected.
    expect((await call('PUT', `/user/starred/${name.boss}/site`, 'pal')).status).toBe(204);
    expect((await call('PUT', `/user/following/${name.boss}`, 'pal')).status).toBe(204);

    expect((await call('PUT', `/user/unblock/${name.pest}`, 'boss')).status).toBe(204);
    expect((await call('PUT', `/user/unblock/${name.pest}`, 'boss')).status).toBe(204);
    expect(await json(await call('GET', '/user/list_blocked', 'boss'))).toEqual([]);
    expect((await call('PUT', `/user/following/${name.boss}`, 'pest')).status).toBe(204);
    expect((await call('PUT', `/user/starred/${name.boss}/site`, 'pest')).status).toBe(204);
  });

  test('a block withdraws transfers pending between the two, either way, and a blocker is offered nothing', async () => {
    const [giver, taker] = [uniq('giver'), uniq('taker')];
    // Each owns a repository named after themself, so either may be offered to the other.
    for (const who of [giver, taker]) {
      await createUser(s.host, who);
      auth[who] = tokenHeader(await createToken(s.host, who));
      expect((await s.fetch('/api/v1/user/repos', { method: 'POST', headers: { ...auth[who], 'content-type': 'application/json' }, body: JSON.stringify({ name: `${who}-gift` }) })).status).toBe(201);
    }
    const offer = (from: string, to: string) =>
      s.fetch(`/api/v1/repos/${from}/${from}-gift/transfer`, { method: 'POST', headers: { ...auth[from], 'content-type': 'application/json' }, body: JSON.stringify({ new_owner: to }) });
    const pending = async (owner: string) => (await json<{ repo_transfer: unknown }>(await call('GET', `/repos/${owner}/${owner}-gift`, owner))).repo_transfer;
    expect((await offer(giver, taker)).status).toBe(201);
    expect((await offer(taker, giver)).status).toBe(201);
    expect(await pending(giver)).not.toBeNull();

    expect((await call('PUT', `/user/block/${giver}`, taker)).status).toBe(204);
    // Both offers are gone; the repositories are ready and stay with their owners.
    expect(await pending(giver)).toBeNull();
    expect(await pending(taker)).toBeNull();
    await expectApiError(await call('POST', `/repos/${giver}/${giver}-gift/transfer/accept`, taker), 404, s.url);
    // The blocked account cannot offer the blocker a repository; the blocker still may offer theirs.
    expect(await expectApiError(await offer(giver, taker), 403, s.url)).toMatch(/blocked/);
    expect((await offer(taker, giver)).status).toBe(201);
  });

  test('blocking oneself records nothing; unknown and invisible accounts are 404; anonymous callers 401', async () => {
    expect((await call('PUT', `/user/block/${name.pal}`, 'pal')).status).toBe(204);
    expect(await json(await call('GET', '/user/list_blocked', 'pal'))).toEqual([]);
    await expectApiError(await call('PUT', `/user/block/${uniq('nobody')}`, 'pal'), 404, s.url);
    await expectApiError(await call('PUT', `/user/block/${name.hidden}`, 'pal'), 404, s.url);
    await expectApiError(await call('PUT', `/user/unblock/${name.hidden}`, 'pal'), 404, s.url);
    await expectApiError(await call('PUT', `/user/block/${name.pest}`), 401, s.url);
    await expectApiError(await call('GET', '/user/list_blocked'), 401, s.url);
  });

  test('a block ends the blocked account\'s collaborations on the blocker\'s repositories', async () => {
    expect((await call('PUT', `/repos/${name.boss}/site/collaborators/${name.pal}`, 'boss')).status).toBe(204);
    expect((await call('PUT', `/user/block/${name.pal}`, 'boss')).status).toBe(204);
    expect((await call('GET', `/repos/${name.boss}/site/collaborators/${name.pal}`, 'boss')).status).toBe(404);
    expect((await call('PUT', `/user/unblock/${name.pal}`, 'boss')).status).toBe(204);
  });

  test('an organization\'s owners block for it: listed, lifted, refused to members and others', async () => {
    const orgName = uniq('blockorg');
    const created = await s.fetch('/api/v1/orgs', { method: 'POST', headers: { ...auth.boss, 'content-type': 'application/json' }, body: JSON.stringify({ username: orgName }) });
    expect(created.status).toBe(201);
    const repo = await s.fetch(`/api/v1/orgs/${orgName}/repos`, { method: 'POST', headers: { ...auth.boss, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'shared' }) });
    expect(repo.status).toBe(201);
    expect((await call('PUT', `/repos/${orgName}/shared/subscription`, 'pest')).status).toBe(200);

    await expectApiError(await call('PUT', `/orgs/${orgName}/block/${name.pest}`, 'pal'), 403, s.url);
    await expectApiError(await call('GET', `/orgs/${orgName}/list_blocked`, 'pal'), 403, s.url);
    await expectApiError(await call('PUT', `/orgs/${orgName}/block/${name.pest}`), 401, s.url);
    await expectApiError(await call('PUT', `/orgs/${orgName}/block/${orgName}`, 'boss'), 422, s.url);
    await expectApiError(await call('PUT', `/orgs/${orgName}/block/${uniq('nobody')}`, 'boss'), 404, s.url);

    expect((await call('PUT', `/orgs/${orgName}/block/${name.pest}`, 'boss')).status).toBe(204);
    const listed = await call('GET', `/orgs/${orgName}/list_blocked`, 'boss');
    expect(listed.headers.get('x-total-count')).toBe('1');
    expect(await json(listed)).toEqual([{ block_id: id.pest, created_at: expect.any(String) }]);
    // The block ended the watch, and keeps the account from watching again.
    expect((await call('GET', `/repos/${orgName}/shared/subscription`, 'pest')).status).toBe(404);
    await expectApiError(await call('PUT', `/repos/${orgName}/shared/subscription`, 'pest'), 403, s.url);

    expect((await call('PUT', `/orgs/${orgName}/unblock/${name.pest}`, 'boss')).status).toBe(204);
    expect(await json(await call('GET', `/orgs/${orgName}/list_blocked`, 'boss'))).toEqual([]);
  });
});
