/**
 * Blocking over HTTP (`/user/block/{username}`, `/user/unblock/{username}`, `/user/list_blocked`) and what a block
 * stops: follows either way, and the blocked account's stars and watches of the blocker's repositories.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BlockedUserSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { account, expectApiError, json, uniq, type Account } from './helpers';

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

  describe('what a blocked account may not do in its blocker\'s places', () => {
    const BLOCKED = 'user is blocked by the poster or repository owner';
    let owner: Account;
    let poster: Account;
    let nag: Account;
    let other: Account;
    let repoPath: string;
    const as = (who: Account, method: string, path: string, body?: unknown) =>
      s.fetch(`/api/v1${path}`, body === undefined ? { method, headers: who.h } : jsonInit(method, body, who.h));
    const openIssue = (who: Account, path: string, title: string) => as(who, 'POST', `/repos/${path}/issues`, { title });
    const openPull = (who: Account, path: string, title: string) => as(who, 'POST', `/repos/${path}/pulls`, { head: 'feature', base: 'main', title });
    const count = async (path: string, kind: 'issues' | 'pulls') => {
      const res = await as(owner, 'GET', kind === 'issues' ? `/repos/${path}/issues?type=issues&state=all` : `/repos/${path}/pulls?state=all`);
      expect(res.status).toBe(200);
      return Number(res.headers.get('x-total-count'));
    };
    /** A public repository of `who` (or of the organization `org`) with a branch `feature` one commit ahead of main. */
    async function repoWithBranch(who: Account, org?: string): Promise<string> {
      const name = uniq('desk');
      const created = await as(who, 'POST', org ? `/orgs/${org}/repos` : '/user/repos', { name, auto_init: true });
      expect(created.status).toBe(201);
      const path = `${org ?? who.name}/${name}`;
      const file = await as(who, 'POST', `/repos/${path}/contents/note.txt`, { content: Buffer.from('note\n').toString('base64'), new_branch: 'feature', message: 'Note' });
      expect(file.status).toBe(201);
      return path;
    }

    beforeAll(async () => {
      owner = await account(s, 'own');
      poster = await account(s, 'post');
      nag = await account(s, 'nag');
      other = await account(s, 'oth');
      repoPath = await repoWithBranch(owner);
    });

    test('the owner\'s block refuses the blocked account\'s issues, pull requests, comments and reactions (403); others go on', async () => {
      const issue = await json<{ number: number }>(await openIssue(poster, repoPath, 'by the poster'));
      expect((await as(owner, 'PUT', `/user/block/${nag.name}`)).status).toBe(204);

      const issuesBefore = await count(repoPath, 'issues');
      expect(await expectApiError(await openIssue(nag, repoPath, 'from the blocked'), 403, s.url)).toBe(BLOCKED);
      expect(await count(repoPath, 'issues')).toBe(issuesBefore);
      expect(await expectApiError(await openPull(nag, repoPath, 'from the blocked'), 403, s.url)).toBe(BLOCKED);
      expect(await count(repoPath, 'pulls')).toBe(0);
      expect(await expectApiError(await as(nag, 'POST', `/repos/${repoPath}/issues/${issue.number}/comments`, { body: 'hi' }), 403, s.url)).toBe(BLOCKED);
      expect(await expectApiError(await as(nag, 'POST', `/repos/${repoPath}/issues/${issue.number}/reactions`, { content: 'heart' }), 403, s.url)).toBe(BLOCKED);
      const comments = await json<unknown[]>(await as(owner, 'GET', `/repos/${repoPath}/issues/${issue.number}/comments`));
      expect(comments).toEqual([]);

      // Nobody else is affected.
      expect((await openIssue(other, repoPath, 'from another')).status).toBe(201);
      expect((await as(other, 'POST', `/repos/${repoPath}/issues/${issue.number}/comments`, { body: 'hi' })).status).toBe(201);

      // Lifted, the account opens both again.
      expect((await as(owner, 'PUT', `/user/unblock/${nag.name}`)).status).toBe(204);
      expect((await openIssue(nag, repoPath, 'after the block')).status).toBe(201);
      expect((await openPull(nag, repoPath, 'after the block')).status).toBe(201);
      expect(await count(repoPath, 'pulls')).toBe(1);
    });

    test('a poster\'s block refuses comments on their issues, not new issues beside them', async () => {
      const issue = await json<{ number: number }>(await openIssue(poster, repoPath, 'the poster\'s own'));
      const elsewhere = await json<{ number: number }>(await openIssue(other, repoPath, 'someone else\'s'));
      expect((await as(poster, 'PUT', `/user/block/${nag.name}`)).status).toBe(204);
      expect(await expectApiError(await as(nag, 'POST', `/repos/${repoPath}/issues/${issue.number}/comments`, { body: 'hi' }), 403, s.url)).toBe(BLOCKED);
      expect(await expectApiError(await as(nag, 'POST', `/repos/${repoPath}/issues/${issue.number}/reactions`, { content: '+1' }), 403, s.url)).toBe(BLOCKED);
      expect((await as(nag, 'POST', `/repos/${repoPath}/issues/${elsewhere.number}/comments`, { body: 'hi' })).status).toBe(201);
      expect((await openIssue(nag, repoPath, 'the owner did not block')).status).toBe(201);
      expect((await as(poster, 'PUT', `/user/unblock/${nag.name}`)).status).toBe(204);
    });

    test('an organization\'s block refuses issues and pull requests in its repositories', async () => {
      const org = uniq('blockedin');
      expect((await as(owner, 'POST', '/orgs', { username: org })).status).toBe(201);
      const orgRepo = await repoWithBranch(owner, org);
      expect((await as(owner, 'PUT', `/orgs/${org}/block/${nag.name}`)).status).toBe(204);
      expect(await expectApiError(await openIssue(nag, orgRepo, 'into the organization'), 403, s.url)).toBe(BLOCKED);
      expect(await expectApiError(await openPull(nag, orgRepo, 'into the organization'), 403, s.url)).toBe(BLOCKED);
      expect(await count(orgRepo, 'pulls')).toBe(0);
      // The organization's block reaches its own repositories only.
      expect((await openIssue(nag, repoPath, 'the user did not block')).status).toBe(201);
      expect((await openIssue(other, orgRepo, 'from another')).status).toBe(201);
    });
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
