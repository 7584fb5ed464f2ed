/**
 * Release assets count toward the quota of the repository's owner (`size:assets:attachments:releases`): the usage
 * and listing of `/user/quota`, and uploads refused with Forgejo's 413 once the owner is over its limit.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SYSTEM } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ quota: { ENABLED: true } });
});
afterAll(async () => {
  await s?.cleanup();
});

test('release assets count toward the owner and are refused once the owner is over quota', async () => {
  const name = uniq('rq');
  const user = await createUser(s.host, name);
  const h = tokenHeader(await createToken(s.host, name));
  const repoName = uniq('repo');
  expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repoName, auto_init: true }, h))).status).toBe(201);
  const full = `${name}/${repoName}`;
  const created = await s.fetch(`/api/v1/repos/${full}/releases`, jsonInit('POST', { tag_name: 'v1' }, h));
  expect(created.status).toBe(201);
  const release = await json(created);
  const group = uniq('g');
  await s.host.quota.createGroup(SYSTEM, { name: group, rules: [{ name: uniq('r'), limit: 20, subjects: ['size:assets:attachments:releases'] }] });
  await s.host.quota.addMember(SYSTEM, group, user);
  const upload = (content: string) => {
    const body = new FormData();
    body.append('attachment', new Blob([content]), 'asset.txt');
    return s.fetch(`/api/v1/repos/${full}/releases/${release.id}/assets`, { method: 'POST', headers: h, body });
  };

  expect((await upload('x'.repeat(25))).status).toBe(201);
  const info = await json(await s.fetch('/api/v1/user/quota', { headers: h }));
  expect(info.used.size.assets.attachments).toEqual({ issues: 0, releases: 25 });
  const items = await json(await s.fetch('/api/v1/user/quota/attachments', { headers: h }));
  expect(items[0].contained_in.api_url).toBe(`${s.url}api/v1/repos/${full}/releases/${release.id}`);

  const refused = await upload('y');
  expect(refused.status).toBe(413);
  await refused.text();
  expect(await json(await s.fetch(`/api/v1/repos/${full}/releases/${release.id}/assets`, { headers: h }))).toHaveLength(1);
});
