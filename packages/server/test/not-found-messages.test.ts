/**
 * Operations once measured as answering the unknown route's 404 while their object existed (issue 32): each answers
 * what Forgejo answers when its object exists, and a missing object answers 404 with the message Forgejo gives it.
 * For all of these Forgejo's handler calls `ctx.NotFound()` with nothing to name (release, asset, tag protection,
 * merged state, scheduled merge, review comment, pending transfer, public membership), so the message is its
 * generic one, the same words as an unknown route; only an unknown user names what is missing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonInit, startTestServer, type TestServer } from '@repohost/test-support';
import { account, expectApiError, json, uniq, type Account } from './helpers';

let s: TestServer;
let owner: Account;
let other: Account;

const b64 = (text: string) => Buffer.from(text).toString('base64');

async function call(method: string, path: string, who: Account | undefined, body?: unknown): Promise<Response> {
  if (body !== undefined) return s.fetch(`/api/v1${path}`, jsonInit(method, body, who?.h ?? {}));
  return s.fetch(`/api/v1${path}`, { method, headers: who?.h ?? {} });
}

async function created<T = any>(res: Response, status = 201): Promise<T> {
  const body = await json<T>(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body;
}

async function newRepo(who: Account = owner): Promise<string> {
  const name = uniq('nf');
  await created(await call('POST', '/user/repos', who, { name, auto_init: true }));
  return `${who.name}/${name}`;
}

/** The body an unknown route answers, to compare the operations' answers with. */
let unknownRoute: { message: string; url: string };

beforeAll(async () => {
  s = await startTestServer();
  owner = await account(s, 'own');
  other = await account(s, 'oth');
  const res = await s.fetch('/api/v1/no/such/route', { headers: owner.h });
  expect(res.status).toBe(404);
  unknownRoute = await json(res);
});
afterAll(async () => {
  await s?.cleanup();
});

/** Forgejo's `ctx.NotFound()` with nothing to name: the locale's `error.not_found`. */
const TARGET = "The target couldn't be found.";

async function notFound(res: Response): Promise<string> {
  return expectApiError(res, 404, s.url);
}

async function release(full: string, tag: string): Promise<any> {
  return created(await call('POST', `/repos/${full}/releases`, owner, { tag_name: tag, name: tag }));
}

async function asset(full: string, releaseId: number, name: string): Promise<any> {
  const data = new FormData();
  data.append('attachment', new Blob(['asset bytes']), name);
  return created(await s.fetch(`/api/v1/repos/${full}/releases/${releaseId}/assets`, { method: 'POST', headers: owner.h, body: data }));
}

/** A pull request #n of `owner` from branch `feature` (one new file) into main. */
async function pullRequest(full: string): Promise<{ index: number; head: string }> {
  await created(await call('POST', `/repos/${full}/contents/new.txt`, owner, { content: b64('one\ntwo\n'), branch: 'main', new_branch: 'feature', message: 'add' }));
  const pull = await created(await call('POST', `/repos/${full}/pulls`, owner, { base: 'main', head: 'feature', title: 'feature' }));
  return { index: pull.number, head: pull.head.sha };
}

describe('the unknown route', () => {
  test('answers 404 with the generic message', () => {
    expect(unknownRoute).toEqual({ message: TARGET, url: `${s.url}api/swagger` });
  });
});

describe('releases and their assets', () => {
  test('DELETE /releases/{id}: 204 and gone; then, and for an id of another repository, 404', async () => {
    const full = await newRepo();
    const elsewhere = await newRepo();
    const rel = await release(full, 'v1');
    const foreign = await release(elsewhere, 'v1');
    expect(await notFound(await call('DELETE', `/repos/${full}/releases/${foreign.id}`, owner))).toBe(TARGET);
    expect((await call('GET', `/repos/${elsewhere}/releases/${foreign.id}`, owner)).status).toBe(200);
    // Who may not: anonymous 401, a reader 403; the release stays.
    expect((await call('DELETE', `/repos/${full}/releases/${rel.id}`, undefined)).status).toBe(401);
    expect((await call('DELETE', `/repos/${full}/releases/${rel.id}`, other)).status).toBe(403);
    expect((await call('GET', `/repos/${full}/releases/${rel.id}`, other)).status).toBe(200);
    const res = await call('DELETE', `/repos/${full}/releases/${rel.id}`, owner);
    expect(res.status, await res.clone().text()).toBe(204);
    expect(await res.text()).toBe('');
    expect(await notFound(await call('GET', `/repos/${full}/releases/${rel.id}`, owner))).toBe(TARGET);
    expect(await notFound(await call('DELETE', `/repos/${full}/releases/${rel.id}`, owner))).toBe(TARGET);
    // The tag stays.
    expect((await call('GET', `/repos/${full}/tags/v1`, owner)).status).toBe(200);
  });

  test('GET, PATCH, DELETE /releases/{id}/assets/{attachment_id}: the asset when it is the release\'s, else 404', async () => {
    const full = await newRepo();
    const rel = await release(full, 'v1');
    const second = await release(full, 'v2');
    const a = await asset(full, rel.id, 'a.bin');
    const b = await asset(full, second.id, 'b.bin');
    const path = `/repos/${full}/releases/${rel.id}/assets/${a.id}`;

    const got = await created(await call('GET', path, owner), 200);
    expect(got).toMatchObject({ id: a.id, name: 'a.bin', size: 11, uuid: a.uuid });
    const edited = await created(await call('PATCH', path, owner, { name: 'renamed.bin' }), 201);
    expect(edited).toMatchObject({ id: a.id, name: 'renamed.bin' });
    expect((await created(await call('GET', path, owner), 200)).name).toBe('renamed.bin');

    // Another release's asset, an asset that does not exist, a release that does not exist.
    for (const missing of [`/repos/${full}/releases/${rel.id}/assets/${b.id}`, `/repos/${full}/releases/${rel.id}/assets/${b.id + 1000}`, `/repos/${full}/releases/${second.id + 1000}/assets/${a.id}`]) {
      expect(await notFound(await call('GET', missing, owner)), missing).toBe(TARGET);
      expect(await notFound(await call('PATCH', missing, owner, { name: 'x' })), missing).toBe(TARGET);
      expect(await notFound(await call('DELETE', missing, owner)), missing).toBe(TARGET);
    }
    expect((await created(await call('GET', `/repos/${full}/releases/${second.id}/assets/${b.id}`, owner), 200)).name).toBe('b.bin');

    expect((await call('DELETE', path, other)).status).toBe(403);
    expect((await call('PATCH', path, other, { name: 'x' })).status).toBe(403);
    const deleted = await call('DELETE', path, owner);
    expect(deleted.status, await deleted.clone().text()).toBe(204);
    expect(await notFound(await call('GET', path, owner))).toBe(TARGET);
    expect(await created(await call('GET', `/repos/${full}/releases/${rel.id}/assets`, owner), 200)).toEqual([]);
  });
});

describe('tag protections', () => {
  test('GET, PATCH, DELETE /tag_protections/{id}: the rule, else 404', async () => {
    const full = await newRepo();
    const elsewhere = await newRepo();
    const rule = await created(await call('POST', `/repos/${full}/tag_protections`, owner, { name_pattern: 'v*', whitelist_usernames: [owner.name] }));
    const foreign = await created(await call('POST', `/repos/${elsewhere}/tag_protections`, owner, { name_pattern: 'v*', whitelist_usernames: [owner.name] }));
    const path = `/repos/${full}/tag_protections/${rule.id}`;
    expect(await created(await call('GET', path, owner), 200)).toMatchObject({ id: rule.id, name_pattern: 'v*' });
    expect(await created(await call('PATCH', path, owner, { name_pattern: 'release-*' }), 200)).toMatchObject({ id: rule.id, name_pattern: 'release-*' });
    for (const missing of [`/repos/${full}/tag_protections/${foreign.id}`, `/repos/${full}/tag_protections/${foreign.id + 1000}`]) {
      expect(await notFound(await call('GET', missing, owner)), missing).toBe(TARGET);
      expect(await notFound(await call('PATCH', missing, owner, { name_pattern: 'x' })), missing).toBe(TARGET);
      expect(await notFound(await call('DELETE', missing, owner)), missing).toBe(TARGET);
    }
    // Repository administrators only: another user is refused and the rule stays.
    expect((await call('DELETE', path, other)).status).toBe(403);
    expect((await call('GET', path, owner)).status).toBe(200);
    const deleted = await call('DELETE', path, owner);
    expect(deleted.status, await deleted.clone().text()).toBe(204);
    expect(await notFound(await call('GET', path, owner))).toBe(TARGET);
    expect((await call('GET', `/repos/${elsewhere}/tag_protections/${foreign.id}`, owner)).status).toBe(200);
  });
});

describe('pull requests', () => {
  test('GET /pulls/{index}/merge: 404 until merged, then 204', async () => {
    const full = await newRepo();
    const { index } = await pullRequest(full);
    const path = `/repos/${full}/pulls/${index}/merge`;
    expect(await notFound(await call('GET', path, owner))).toBe(TARGET);
    const merged = await call('POST', path, owner, { Do: 'merge' });
    expect(merged.status, await merged.clone().text()).toBe(200);
    const res = await call('GET', path, owner);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  test('DELETE /pulls/{index}/merge: 204 for a scheduled merge, 404 when none is', async () => {
    const full = await newRepo();
    const { index, head } = await pullRequest(full);
    const path = `/repos/${full}/pulls/${index}/merge`;
    expect(await notFound(await call('DELETE', path, owner))).toBe(TARGET);
    await created(await call('POST', `/repos/${full}/statuses/${head}`, owner, { state: 'pending', context: 'ci' }));
    expect((await call('POST', path, owner, { Do: 'merge', merge_when_checks_succeed: true })).status).toBe(201);
    // Neither the one who scheduled it nor an administrator: 403, Forgejo's words, and it stays scheduled.
    expect(await expectApiError(await call('DELETE', path, other), 403, s.url)).toBe('user has no permission to cancel the scheduled auto merge');
    const res = await call('DELETE', path, owner);
    expect(res.status, await res.clone().text()).toBe(204);
    expect(await notFound(await call('DELETE', path, owner))).toBe(TARGET);
    expect((await call('GET', path, owner)).status).toBe(404);
  });

  test('GET, DELETE /pulls/{index}/reviews/{id}/comments/{comment}: the comment, else 404', async () => {
    const full = await newRepo();
    const { index } = await pullRequest(full);
    const reviews = `/repos/${full}/pulls/${index}/reviews`;
    const review = await created(await call('POST', reviews, other, { event: 'COMMENT', body: 'see', comments: [{ path: 'new.txt', body: 'line one', new_position: 1 }] }), 200);
    const second = await created(await call('POST', reviews, other, { event: 'COMMENT', body: 'more', comments: [{ path: 'new.txt', body: 'line two', new_position: 2 }] }), 200);
    const [comment] = await created<any[]>(await call('GET', `${reviews}/${review.id}/comments`, owner), 200);
    const [foreign] = await created<any[]>(await call('GET', `${reviews}/${second.id}/comments`, owner), 200);
    const path = `${reviews}/${review.id}/comments/${comment.id}`;
    expect(await created(await call('GET', path, owner), 200)).toMatchObject({ id: comment.id, body: 'line one', path: 'new.txt', pull_request_review_id: review.id });
    for (const missing of [`${reviews}/${review.id}/comments/${foreign.id}`, `${reviews}/${review.id}/comments/${foreign.id + 1000}`]) {
      expect(await notFound(await call('GET', missing, owner)), missing).toBe(TARGET);
      expect(await notFound(await call('DELETE', missing, other)), missing).toBe(TARGET);
    }
    const deleted = await call('DELETE', path, other);
    expect(deleted.status, await deleted.clone().text()).toBe(204);
    expect(await notFound(await call('GET', path, owner))).toBe(TARGET);
    expect(await created(await call('GET', `${reviews}/${review.id}/comments`, owner), 200)).toEqual([]);
  });
});

describe('transfers', () => {
  test('POST /transfer/accept and /transfer/reject: the recipient\'s answer; 404 with no transfer pending', async () => {
    const full = await newRepo();
    const name = full.split('/')[1]!;
    for (const answer of ['accept', 'reject']) {
      expect(await notFound(await call('POST', `/repos/${full}/transfer/${answer}`, other)), answer).toBe(TARGET);
    }
    await created(await call('POST', `/repos/${full}/transfer`, owner, { new_owner: other.name }));
    // Only the recipient answers.
    expect((await call('POST', `/repos/${full}/transfer/accept`, owner)).status).toBe(403);
    expect((await call('POST', `/repos/${full}/transfer/reject`, undefined)).status).toBe(401);
    const rejected = await created(await call('POST', `/repos/${full}/transfer/reject`, other), 200);
    expect(rejected).toMatchObject({ full_name: full, repo_transfer: null });
    expect(await notFound(await call('POST', `/repos/${full}/transfer/accept`, other))).toBe(TARGET);

    await created(await call('POST', `/repos/${full}/transfer`, owner, { new_owner: other.name }));
    const accepted = await created(await call('POST', `/repos/${full}/transfer/accept`, other), 202);
    expect(accepted).toMatchObject({ full_name: `${other.name}/${name}`, repo_transfer: null });
    expect((await call('GET', `/repos/${other.name}/${name}`, other)).status).toBe(200);
  });
});

describe('organizations', () => {
  test('GET /orgs/{org}/public_members/{username}: 204 for a public member, 404 otherwise, naming an unknown user', async () => {
    const org = uniq('org');
    await created(await call('POST', '/orgs', owner, { username: org }));
    const path = `/orgs/${org}/public_members/${owner.name}`;
    expect(await notFound(await call('GET', path, other))).toBe(TARGET);
    expect((await call('PUT', path, owner)).status).toBe(204);
    const res = await call('GET', path, other);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await notFound(await call('GET', `/orgs/${org}/public_members/${other.name}`, other))).toBe(TARGET);
    const ghost = uniq('ghost');
    expect(await notFound(await call('GET', `/orgs/${org}/public_members/${ghost}`, other))).toBe(`user redirect does not exist [name: ${ghost}]`);
  });
});
