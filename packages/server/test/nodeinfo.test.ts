/**
 * `GET /api/v1/nodeinfo`: absent unless `[federation] ENABLED` (as Forgejo mounts it); then Forgejo's NodeInfo 2.1
 * document, its usage counted from the accounts (individuals, and those signed in within a month and six months),
 * the issues and pull requests, and the plain comments, kept for a while; without `SHARE_USER_STATISTICS`, no counts.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NodeInfoSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, expectApiError, json, uniq } from './helpers';

const DAY = 24 * 60 * 60;

async function nodeInfo(s: TestServer): Promise<any> {
  const res = await s.fetch('/api/v1/nodeinfo');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = await json(res);
  expect(matchesSchema(NodeInfoSchema, body), schemaErrors(NodeInfoSchema, body).join('\n')).toBe(true);
  return body;
}

describe('nodeinfo, federation enabled', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ federation: { ENABLED: true } });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test("Forgejo's document, with the instance's counts, kept once counted", async () => {
    const owner = await account(s, 'no');
    const recent = await account(s, 'nr');
    const older = await account(s, 'nl');
    await account(s, 'nn');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: uniq('org') }, owner.h))).status).toBe(201);
    const db = (s.host as unknown as { storage: { db: Kysely<any> } }).storage.db;
    const now = Math.floor(Date.now() / 1000);
    await db.updateTable('user').set({ last_login_unix: now - 10 * DAY }).where('lower_name', '=', recent.name).execute();
    await db.updateTable('user').set({ last_login_unix: now - 100 * DAY }).where('lower_name', '=', older.name).execute();

    const repo = uniq('repo');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo }, owner.h))).status).toBe(201);
    for (const title of ['one', 'two']) {
      expect((await s.fetch(`/api/v1/repos/${owner.name}/${repo}/issues`, jsonInit('POST', { title }, owner.h))).status).toBe(201);
    }
    for (const body of ['a', 'b', 'c']) {
      expect((await s.fetch(`/api/v1/repos/${owner.name}/${repo}/issues/1/comments`, jsonInit('POST', { body }, owner.h))).status).toBe(201);
    }
    // Closing adds a timeline event, which is no comment.
    expect((await s.fetch(`/api/v1/repos/${owner.name}/${repo}/issues/2`, jsonInit('PATCH', { state: 'closed' }, owner.h))).status).toBe(201);

    const body = await nodeInfo(s);
    expect(body).toEqual({
      version: '2.1',
      software: { name: 'forgejo', version: s.host.settings.repohost.REPORTED_VERSION, repository: 'https://codeberg.org/forgejo/forgejo.git', homepage: 'https://forgejo.org/' },
      protocols: ['activitypub'],
      services: { inbound: [], outbound: ['rss2.0'] },
      openRegistrations: false,
      usage: { users: { total: 4, activeMonth: 1, activeHalfyear: 2 }, localPosts: 2, localComments: 3 },
      metadata: {},
    });

    // Counted once for a while: a new issue shows later, not now.
    expect((await s.fetch(`/api/v1/repos/${owner.name}/${repo}/issues`, jsonInit('POST', { title: 'three' }, owner.h))).status).toBe(201);
    expect((await nodeInfo(s)).usage.localPosts).toBe(2);
  });
});

describe('nodeinfo without user statistics', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ federation: { ENABLED: true, SHARE_USER_STATISTICS: false } });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('the document has no counts', async () => {
    await account(s, 'nu');
    expect((await nodeInfo(s)).usage).toEqual({ users: {} });
  });
});

describe('nodeinfo, federation disabled (the default)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  test('there is nothing at /nodeinfo', async () => {
    await expectApiError(await s.fetch('/api/v1/nodeinfo'), 404, s.url);
  });
});
