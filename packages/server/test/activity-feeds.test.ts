/**
 * Activity feeds and heatmaps over HTTP, for actions that need no git push: repository creation, rename,
 * transfer; who sees which rows (anonymous, another user, administrators, private repositories, private and
 * limited accounts, hidden activity); `only-performed-by`, `date`, paging; visibility changes and deletions.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ActivitySchema, SYSTEM, UserHeatmapDataSchema, matchesSchema, schemaErrors, userActor, type ApiActivity } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, userNamed, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

interface Account {
  name: string;
  h: Record<string, string>;
}

let s: TestServer;

async function account(prefix = 'a', options: { admin?: boolean; visibility?: 'public' | 'limited' | 'private' } = {}): Promise<Account> {
  const name = uniq(prefix);
  await createUser(s.host, name, options);
  return { name, h: tokenHeader(await createToken(s.host, name)) };
}

async function createRepo(who: Account, body: Record<string, unknown> = {}): Promise<{ id: number; name: string; full_name: string }> {
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: uniq('r'), ...body }, who.h));
  expect(res.status, await res.clone().text()).toBe(201);
  return json(res);
}

interface Feed {
  items: ApiActivity[];
  total: number;
  res: Response;
}

/** GETs a feed and checks its shape: 200, every item an Activity, X-Total-Count present. */
async function feed(path: string, headers: Record<string, string> = {}): Promise<Feed> {
  const res = await s.fetch(`/api/v1/${path}`, { headers });
  expect(res.status, await res.clone().text()).toBe(200);
  const items = await json<ApiActivity[]>(res);
  expect(Array.isArray(items)).toBe(true);
  for (const item of items) expect(matchesSchema(ActivitySchema, item), schemaErrors(ActivitySchema, item).join('\n')).toBe(true);
  const total = Number(res.headers.get('x-total-count'));
  expect(Number.isInteger(total)).toBe(true);
  return { items, total, res };
}

const userFeed = (who: string, headers: Record<string, string> = {}, query = '') => feed(`users/${who}/activities/feeds${query}`, headers);
const repoFeed = (full: string, headers: Record<string, string> = {}, query = '') => feed(`repos/${full}/activities/feeds${query}`, headers);

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.cleanup();
});

describe('recording', () => {
  test('creating a repository writes create_repo to the creator’s feed, shown with the account and the repository', async () => {
    const alice = await account('alice');
    const repo = await createRepo(alice, { description: 'first' });
    const { items, total, res } = await userFeed(alice.name);
    expect(total).toBe(1);
    expect(items).toHaveLength(1);
    const [entry] = items;
    expect(entry).toMatchObject({
      op_type: 'create_repo',
      act_user_id: entry!.act_user.id,
      repo_id: repo.id,
      ref_name: '',
      content: '',
      is_private: false,
      comment_id: 0,
      comment: null,
    });
    expect(entry!.act_user.login).toBe(alice.name);
    expect(entry!.user_id).toBe(entry!.act_user.id);
    expect(entry!.repo.full_name).toBe(repo.full_name);
    expect(Math.abs(Date.parse(entry!.created) - Date.now())).toBeLessThan(60_000);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);

    // The repository's feed lists it too.
    const byRepo = await repoFeed(repo.full_name);
    expect(byRepo.items.map((a) => [a.op_type, a.id])).toEqual([['create_repo', entry!.id]]);
  });

  test('renaming writes rename_repo with the old name as content; the feed shows the repository as it is now', async () => {
    const alice = await account('alice');
    const repo = await createRepo(alice);
    const renamed = uniq('renamed');
    const res = await s.fetch(`/api/v1/repos/${repo.full_name}`, jsonInit('PATCH', { name: renamed }, alice.h));
    expect(res.status).toBe(200);
    const { items } = await userFeed(alice.name);
    expect(items.map((a) => a.op_type)).toEqual(['rename_repo', 'create_repo']);
    expect(items[0]).toMatchObject({ content: repo.name, repo: { full_name: `${alice.name}/${renamed}` } });
    expect(items[1]!.repo.name).toBe(renamed);
  });

  test('a transfer writes transfer_repo (content: old owner/name) to the doer’s, the new owner’s and the watchers’ feeds', async () => {
    const alice = await account('alice');
    const bob = await account('bob');
    const admin = await account('admin', { admin: true });
    const repo = await createRepo(alice);
    const res = await s.fetch(`/api/v1/repos/${repo.full_name}/transfer`, jsonInit('POST', { new_owner: bob.name }, admin.h));
    expect(res.status).toBe(202);
    const expected = { op_type: 'transfer_repo', content: `${alice.name}/${repo.name}`, repo_id: repo.id };
    const doer = await userFeed(admin.name, admin.h);
    expect(doer.items[0]).toMatchObject({ ...expected, act_user: { login: admin.name } });
    const owner = await userFeed(bob.name, bob.h);
    expect(owner.items[0]).toMatchObject(expected);
    expect(owner.items[0]!.repo.full_name).toBe(`${bob.name}/${repo.name}`);
    // Alice watches what she created, so her feed has it too (one row each, the same action).
    const watcher = await userFeed(alice.name, alice.h);
    expect(watcher.items[0]).toMatchObject(expected);
    expect(new Set([doer.items[0]!.user_id, owner.items[0]!.user_id, watcher.items[0]!.user_id]).size).toBe(3);

    // only-performed-by keeps the feed's own deeds: Bob did nothing, Alice created the repository.
    expect((await userFeed(bob.name, bob.h, '?only-performed-by=true')).items).toEqual([]);
    expect((await userFeed(alice.name, alice.h, '?only-performed-by=true')).items.map((a) => a.op_type)).toEqual(['create_repo']);
    // A malformed boolean is ignored, as Forgejo's form helpers ignore it.
    expect((await userFeed(alice.name, alice.h, '?only-performed-by=maybe')).total).toBe(2);

    // The repository's feed lists each action once.
    expect((await repoFeed(`${bob.name}/${repo.name}`, bob.h)).items.map((a) => a.op_type)).toEqual(['transfer_repo', 'create_repo']);
  });
});

describe('who sees what', () => {
  let alice: Account;
  let bob: Account;
  let admin: Account;
  let open: { full_name: string; id: number };
  let closed: { full_name: string; id: number };
  beforeAll(async () => {
    alice = await account('alice');
    bob = await account('bob');
    admin = await account('admin', { admin: true });
    open = await createRepo(alice);
    closed = await createRepo(alice, { private: true });
  });

  test('actions on a private repository: listed to the account itself and administrators, with is_private', async () => {
    const own = await userFeed(alice.name, alice.h);
    expect(own.items.map((a) => [a.repo_id, a.is_private])).toEqual([
      [closed.id, true],
      [open.id, false],
    ]);
    expect((await userFeed(alice.name, admin.h)).items.map((a) => a.repo_id)).toEqual([closed.id, open.id]);
    for (const headers of [{}, bob.h]) {
      const other = await userFeed(alice.name, headers);
      expect(other.items.map((a) => a.repo_id)).toEqual([open.id]);
      expect(other.total).toBe(1);
    }
  });

  test('the feed of a private repository is 404 to those who may not read it', async () => {
    expect((await repoFeed(closed.full_name, alice.h)).items.map((a) => a.op_type)).toEqual(['create_repo']);
    expect((await repoFeed(closed.full_name, admin.h)).total).toBe(1);
    await expectApiError(await s.fetch(`/api/v1/repos/${closed.full_name}/activities/feeds`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${closed.full_name}/activities/feeds`, { headers: bob.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${alice.name}/${uniq('missing')}/activities/feeds`, { headers: alice.h }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/users/${uniq('nobody')}/activities/feeds`), 404, s.url);
  });

  test('a private account’s feed and heatmap are 404 to others; a limited one’s to anonymous callers only', async () => {
    const hidden = await account('priv', { visibility: 'private' });
    await createRepo(hidden);
    const limited = await account('lim', { visibility: 'limited' });
    await createRepo(limited);
    for (const path of ['activities/feeds', 'heatmap']) {
      await expectApiError(await s.fetch(`/api/v1/users/${hidden.name}/${path}`), 404, s.url);
      await expectApiError(await s.fetch(`/api/v1/users/${hidden.name}/${path}`, { headers: bob.h }), 404, s.url);
      await expectApiError(await s.fetch(`/api/v1/users/${limited.name}/${path}`), 404, s.url);
    }
    expect((await userFeed(hidden.name, hidden.h)).total).toBe(1);
    expect((await userFeed(hidden.name, admin.h)).total).toBe(1);
    // Bob, signed in, sees the limited account's public repository's creation.
    expect((await userFeed(limited.name, bob.h)).items.map((a) => a.op_type)).toEqual(['create_repo']);
  });

  test('hide_activity: the account’s actions leave others’ views of feeds and the heatmap is empty, but not for itself or administrators', async () => {
    const carol = await account('carol');
    const repo = await createRepo(carol);
    const user = await userNamed(s.host, carol.name);
    await s.host.users.updateSettings(userActor(user), user, { hide_activity: true });
    expect((await userFeed(carol.name, carol.h)).total).toBe(1);
    expect((await userFeed(carol.name, admin.h)).total).toBe(1);
    expect((await repoFeed(repo.full_name, admin.h)).total).toBe(1);
    for (const headers of [{}, bob.h]) {
      expect((await userFeed(carol.name, headers)).total).toBe(0);
      expect((await repoFeed(repo.full_name, headers)).items).toEqual([]);
      const heat = await s.fetch(`/api/v1/users/${carol.name}/heatmap`, { headers });
      expect(heat.status).toBe(200);
      expect(await json(heat)).toEqual([]);
    }
    expect(await json(await s.fetch(`/api/v1/users/${carol.name}/heatmap`, { headers: carol.h }))).toHaveLength(1);
  });

  test('making a repository private marks its actions private; public again, public', async () => {
    const dave = await account('dave');
    const repo = await createRepo(dave);
    const edit = (isPrivate: boolean) => s.fetch(`/api/v1/repos/${repo.full_name}`, jsonInit('PATCH', { private: isPrivate }, dave.h));
    expect((await edit(true)).status).toBe(200);
    expect((await userFeed(dave.name, dave.h)).items.map((a) => a.is_private)).toEqual([true]);
    expect((await userFeed(dave.name)).total).toBe(0);
    expect((await edit(false)).status).toBe(200);
    expect((await userFeed(dave.name)).items.map((a) => a.is_private)).toEqual([false]);
  });
});

describe('query parameters', () => {
  let erin: Account;
  beforeAll(async () => {
    erin = await account('erin');
    for (let i = 0; i < 3; i++) await createRepo(erin);
  });

  test('page and limit, with X-Total-Count and Link; bad numbers fall back to the defaults', async () => {
    const all = await userFeed(erin.name);
    expect(all.total).toBe(3);
    const second = await userFeed(erin.name, {}, '?limit=1&page=2');
    expect(second.total).toBe(3);
    expect(second.items.map((a) => a.id)).toEqual([all.items[1]!.id]);
    expect(second.res.headers.get('link')).toContain('rel="next"');
    expect((await userFeed(erin.name, {}, '?limit=1&page=9')).items).toEqual([]);
    expect((await userFeed(erin.name, {}, '?limit=-1&page=abc')).items).toHaveLength(3);
    // Newest first.
    const ids = all.items.map((a) => a.id);
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);
  });

  test('date narrows to one UTC day; a date that is no day is ignored, as Forgejo ignores it', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect((await userFeed(erin.name, {}, `?date=${today}`)).total).toBe(3);
    expect((await userFeed(erin.name, {}, '?date=2001-02-03')).total).toBe(0);
    for (const bad of ['garbage', '2024-02-30', '2024-13-01', '']) expect((await userFeed(erin.name, {}, `?date=${bad}`)).total).toBe(3);
    const repo = (await userFeed(erin.name)).items[0]!.repo.full_name;
    expect((await repoFeed(repo, {}, `?date=${today}`)).total).toBe(1);
    expect((await repoFeed(repo, {}, '?date=1999-12-31')).total).toBe(0);
  });
});

describe('heatmap', () => {
  test('counts the account’s own actions per 15 minutes of the last year', async () => {
    const frank = await account('frank');
    const other = await account('other');
    const repo = await createRepo(frank);
    await createRepo(frank, { private: true });
    // Someone else's action in Frank's feed does not count for Frank.
    const admin = await account('admin', { admin: true });
    expect((await s.fetch(`/api/v1/repos/${repo.full_name}/transfer`, jsonInit('POST', { new_owner: other.name }, admin.h))).status).toBe(202);
    const res = await s.fetch(`/api/v1/users/${frank.name}/heatmap`);
    expect(res.status).toBe(200);
    const body = await json<{ timestamp: number; contributions: number }[]>(res);
    for (const bucket of body) expect(matchesSchema(UserHeatmapDataSchema, bucket), schemaErrors(UserHeatmapDataSchema, bucket).join('\n')).toBe(true);
    // Anonymous callers count only what they could read: the public repository's creation.
    expect(body.reduce((n, b) => n + b.contributions, 0)).toBe(1);
    for (const { timestamp } of body) {
      expect(timestamp % 900).toBe(0);
      expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(1000);
    }
    const own = await json<{ timestamp: number; contributions: number }[]>(await s.fetch(`/api/v1/users/${frank.name}/heatmap`, { headers: frank.h }));
    expect(own.reduce((n, b) => n + b.contributions, 0)).toBe(2);
    // Buckets are ordered, oldest first.
    expect(own.map((b) => b.timestamp)).toEqual([...own.map((b) => b.timestamp)].sort((x, y) => x - y));
    // An account with no actions: an empty list.
    expect(await json(await s.fetch(`/api/v1/users/${(await account('idle')).name}/heatmap`))).toEqual([]);
  });
});

describe('deletions', () => {
  test('deleting a repository removes its actions from every feed', async () => {
    const gina = await account('gina');
    const keep = await createRepo(gina);
    const gone = await createRepo(gina);
    expect((await userFeed(gina.name)).total).toBe(2);
    expect((await s.fetch(`/api/v1/repos/${gone.full_name}`, { method: 'DELETE', headers: gina.h })).status).toBe(204);
    const after = await userFeed(gina.name);
    expect(after.items.map((a) => a.repo_id)).toEqual([keep.id]);
  });

  test('deleting an account removes the actions it did and those of its feed', async () => {
    const hank = await account('hank');
    const ivy = await account('ivy');
    const admin = await account('admin', { admin: true });
    const repo = await createRepo(ivy);
    // Admin transfers Ivy's repository to Hank: the action is in Admin's, Hank's and Ivy's feeds.
    expect((await s.fetch(`/api/v1/repos/${repo.full_name}/transfer`, jsonInit('POST', { new_owner: hank.name }, admin.h))).status).toBe(202);
    expect((await userFeed(ivy.name)).items.map((a) => a.op_type)).toEqual(['transfer_repo', 'create_repo']);
    // The account that acted goes (it owns nothing): its action leaves the feeds it reached.
    await s.host.accounts.deleteUser(SYSTEM, await userNamed(s.host, admin.name));
    expect((await userFeed(ivy.name)).items.map((a) => a.op_type)).toEqual(['create_repo']);
    expect((await userFeed(hank.name)).items.map((a) => a.op_type)).toEqual([]);
  });
});

describe('the swagger document', () => {
  test('describes the three operations with Forgejo’s names, parameters and responses', async () => {
    const doc = await json(await s.fetch('/swagger.v1.json'));
    const userFeeds = doc.paths['/users/{username}/activities/feeds'].get;
    expect(userFeeds.operationId).toBe('userListActivityFeeds');
    expect(userFeeds.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name).sort()).toEqual(['date', 'limit', 'only-performed-by', 'page']);
    expect(userFeeds.responses['200'].schema).toEqual({ type: 'array', items: { $ref: '#/definitions/Activity' } });
    const repoFeeds = doc.paths['/repos/{owner}/{repo}/activities/feeds'].get;
    expect(repoFeeds.operationId).toBe('repoListActivityFeeds');
    expect(repoFeeds.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name).sort()).toEqual(['date', 'limit', 'page']);
    const heatmap = doc.paths['/users/{username}/heatmap'].get;
    expect(heatmap.operationId).toBe('userGetHeatmapData');
    expect(heatmap.responses['200'].schema).toEqual({ type: 'array', items: { $ref: '#/definitions/UserHeatmapData' } });
    expect(doc.definitions.Activity.properties.op_type.enum).toContain('commit_repo');
    expect(doc.definitions.Activity.properties.act_user).toEqual({ $ref: '#/definitions/User' });
  });
});

describe('organization and team feeds', () => {
  test('an organization feed shows its repositories’ actions, private ones to members only; a team feed narrows to its repositories', async () => {
    const owner = await account('orgowner');
    const outsider = await account('outsider');
    const orgName = uniq('feedorg');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: orgName }, owner.h))).status).toBe(201);
    const create = async (name: string, isPrivate: boolean) => {
      const res = await s.fetch(`/api/v1/orgs/${orgName}/repos`, jsonInit('POST', { name, private: isPrivate }, owner.h));
      expect(res.status, await res.clone().text()).toBe(201);
    };
    await create('open', false);
    await create('closed', true);
    const names = (f: Feed) => f.items.map((i) => i.repo.name).sort();

    const asOwner = await feed(`orgs/${orgName}/activities/feeds`, owner.h);
    expect(names(asOwner)).toEqual(['closed', 'open']);
    expect(asOwner.total).toBe(2);
    const asOutsider = await feed(`orgs/${orgName}/activities/feeds`, outsider.h);
    expect(names(asOutsider)).toEqual(['open']);
    expect(asOutsider.total).toBe(1);
    expect(names(await feed(`orgs/${orgName}/activities/feeds`))).toEqual(['open']);

    const teamRes = await s.fetch(`/api/v1/orgs/${orgName}/teams`, jsonInit('POST', { name: 'closers', permission: 'read', units: ['repo.code'] }, owner.h));
    expect(teamRes.status, await teamRes.clone().text()).toBe(201);
    const team = await json<{ id: number }>(teamRes);
    expect((await s.fetch(`/api/v1/teams/${team.id}/repos/${orgName}/closed`, { method: 'PUT', headers: owner.h })).status).toBe(204);
    const teamFeed = await feed(`teams/${team.id}/activities/feeds`, owner.h);
    expect(names(teamFeed)).toEqual(['closed']);
    expect(teamFeed.total).toBe(1);
    // Not a member of the team nor of the organization: the team does not exist for them.
    await expectApiError(await s.fetch(`/api/v1/teams/${team.id}/activities/feeds`, { headers: outsider.h }), 404, s.url);
  });
});
