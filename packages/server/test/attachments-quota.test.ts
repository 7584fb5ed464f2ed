/**
 * Attachments count toward the quota of the repository's owner (`size:assets:attachments:issues`): the usage and
 * the listing of `/user/quota`, and uploads refused with Forgejo's 413 once the owner is over its limit.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { QuotaInfoSchema, QuotaUsedAttachmentSchema, SYSTEM, matchesSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ quota: { ENABLED: true } });
});
afterAll(async () => {
  await s?.cleanup();
});

function upload(where: string, headers: Record<string, string>, content: string, name = 'a.txt'): Promise<Response> {
  const body = new FormData();
  body.append('attachment', new Blob([content]), name);
  return s.fetch(`/api/v1/repos/${where}/assets`, { method: 'POST', headers, body });
}

test('uploads count toward the owner and are refused once the owner is over quota', async () => {
  const name = uniq('quota');
  const user = await createUser(s.host, name);
  const h = tokenHeader(await createToken(s.host, name));
  const repoName = uniq('repo');
  expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repoName }, h))).status).toBe(201);
  const full = `${name}/${repoName}`;
  const issue = await json(await s.fetch(`/api/v1/repos/${full}/issues`, jsonInit('POST', { title: 'files' }, h)));
  const comment = await json(await s.fetch(`/api/v1/repos/${full}/issues/${issue.number}/comments`, jsonInit('POST', { body: 'c' }, h)));
  const group = uniq('g');
  await s.host.quota.createGroup(SYSTEM, { name: group, rules: [{ name: uniq('r'), limit: 20, subjects: ['size:assets:attachments:all'] }] });
  await s.host.quota.addMember(SYSTEM, group, user);


  // Below the limit before the upload: accepted, even though it ends past it (Forgejo checks before).
  expect((await upload(`${full}/issues/${issue.number}`, h, 'x'.repeat(15))).status).toBe(201);
  expect((await upload(`${full}/issues/comments/${comment.id}`, h, 'y'.repeat(10), 'b.txt')).status).toBe(201);

  const info = await json(await s.fetch('/api/v1/user/quota', { headers: h }));
  expect(matchesSchema(QuotaInfoSchema, info), schemaErrors(QuotaInfoSchema, info).join('\n')).toBe(true);
  expect(info.used.size.assets.attachments).toEqual({ issues: 25, releases: 0 });

  const listed = await s.fetch('/api/v1/user/quota/attachments', { headers: h });
  expect(listed.status).toBe(200);
  expect(listed.headers.get('x-total-count')).toBe('2');
  const items = await json(listed);
  for (const item of items) expect(matchesSchema(QuotaUsedAttachmentSchema, item), schemaErrors(QuotaUsedAttachmentSchema, item).join('\n')).toBe(true);
  expect(items.map((i: { name: string; size: number }) => [i.name, i.size])).toEqual([
    ['a.txt', 15],
    ['b.txt', 10],
  ]);
  expect(items[0].contained_in.api_url).toBe(`${s.url}api/v1/repos/${full}/issues/${issue.number}`);
  expect(items[0].api_url).toMatch(new RegExp(`^${s.url}api/v1/repos/${full}/issues/${issue.number}/assets/\\d+$`));
  expect(items[1].contained_in.html_url).toBe(`${s.url}${full}/issues/${issue.number}#issuecomment-${comment.id}`);

  const refused = await upload(`${full}/issues/${issue.number}`, h, 'z');
  expect(refused.status).toBe(413);
  expect(await json(refused)).toEqual({ message: 'quota exceeded', user_id: user.id, username: name });
  const onComment = await upload(`${full}/issues/comments/${comment.id}`, h, 'z');
  expect(onComment.status).toBe(413);
});
