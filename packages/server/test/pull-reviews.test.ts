/**
 * Pull request reviews over HTTP: create (comment, approve, request changes, pending with line comments), submit,
 * get, list, delete, line comments (list, add, get, delete, reply, resolve), dismissals, review requests for users,
 * stale reviews after a push, and who may do what (anonymous, strangers, the poster, private repositories).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import { PullReviewCommentSchema, PullReviewSchema, cutDiffAroundLine, matchesSchema, schemaErrors, type Pull } from '@repohost/core';
import { PASSWORD, createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const b64 = (text: string) => Buffer.from(text).toString('base64');

interface Account {
  name: string;
  id: number;
  h: Record<string, string>;
}

let s: TestServer;
let admin: Account;

async function account(prefix: string, options: { admin?: boolean } = {}): Promise<Account> {
  const name = uniq(prefix);
  const user = await createUser(s.host, name, options);
  return { name, id: user.id, h: tokenHeader(await createToken(s.host, name)) };
}

/** A repository of `owner` with `poster` as a writer, who put WOW-file on branch new_file and opened pull #1. */
interface Scene {
  full: string;
  owner: Account;
  poster: Account;
  pullUrl: string;
  index: number;
}

async function scene(options: { private?: boolean } = {}): Promise<Scene> {
  const owner = await account('own');
  const poster = await account('pst');
  const name = uniq('rv');
  const full = `${owner.name}/${name}`;
  expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true, private: options.private ?? false }, owner.h))).status).toBe(201);
  expect((await s.fetch(`/api/v1/repos/${full}/collaborators/${poster.name}`, jsonInit('PUT', { permission: 'write' }, owner.h))).status).toBe(204);
  const file = await s.fetch(
    `/api/v1/repos/${full}/contents/WOW-file`,
    jsonInit('POST', { content: b64('A new File\n\nand some lines\n'), branch: 'main', new_branch: 'new_file', message: 'add' }, poster.h),
  );
  expect(file.status, await file.clone().text()).toBe(201);
  const res = await s.fetch(`/api/v1/repos/${full}/pulls`, jsonInit('POST', { base: 'main', head: 'new_file', title: 'Creat a NewFile' }, poster.h));
  const pull = await json(res);
  expect(res.status, JSON.stringify(pull)).toBe(201);
  return { full, owner, poster, pullUrl: pull.html_url, index: pull.number };
}

function reviewsPath(sc: Scene, rest = ''): string {
  return `/api/v1/repos/${sc.full}/pulls/${sc.index}/reviews${rest}`;
}

async function expectReview(res: Response, status = 200): Promise<any> {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(matchesSchema(PullReviewSchema, body), schemaErrors(PullReviewSchema, body).join('\n')).toBe(true);
  return body;
}

async function expectList(res: Response, schema: typeof PullReviewSchema | typeof PullReviewCommentSchema): Promise<any[]> {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(matchesSchema(Type.Array(schema), body), schemaErrors(Type.Array(schema), body).join('\n')).toBe(true);
  return body;
}

function review(sc: Scene, who: Account, body: Record<string, unknown>): Promise<Response> {
  return s.fetch(reviewsPath(sc), jsonInit('POST', body, who.h));
}

async function loadPull(sc: Scene): Promise<{ pull: Pull; access: Awaited<ReturnType<TestServer['host']['repos']['resolve']>> }> {
  const [ownerName, repoName] = sc.full.split('/') as [string, string];
  const access = await s.host.repos.resolve({ kind: 'system' }, ownerName, repoName);
  return { access, pull: await s.host.pulls.resolve({ kind: 'system' }, access, sc.index) };
}

beforeAll(async () => {
  s = await startTestServer();
  admin = await account('adm', { admin: true });
});
afterAll(async () => {
  await s?.cleanup();
});

describe('creating reviews', () => {
  test('a comment review, an approval with a line comment, and the list and single reads agree', async () => {
    const sc = await scene();
    const reviewer = await account('rev');
    const r1 = await expectReview(await review(sc, sc.owner, { event: 'COMMENT', body: "I'll have a look at it later" }));
    expect(r1).toMatchObject({ state: 'COMMENT', body: "I'll have a look at it later", official: false, stale: false, dismissed: false, comments_count: 0, team: null });
    expect(r1.user.login).toBe(sc.owner.name);
    expect(r1.pull_request_url).toBe(sc.pullUrl);
    expect(r1.html_url).toMatch(new RegExp(`^${sc.pullUrl}#issuecomment-\\d+$`));
    expect(r1.commit_id).toMatch(/^[0-9a-f]{40}$/);

    const r3 = await expectReview(
      await review(sc, reviewer, { event: 'APPROVED', body: 'lgtm', comments: [{ path: 'WOW-file', body: 'no better name - really?', new_position: 1 }] }),
    );
    expect(r3).toMatchObject({ state: 'APPROVED', comments_count: 1, official: false });
    const comments = await expectList(await s.fetch(reviewsPath(sc, `/${r3.id}/comments`)), PullReviewCommentSchema);
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({ pull_request_review_id: r3.id, body: 'no better name - really?', path: 'WOW-file', position: 1, original_position: 0, resolver: null });
    expect(comments[0].diff_hunk).toBe('@@ -0,0 +1,3 @@\n+A new File');
    expect(comments[0].html_url).toBe(`${sc.pullUrl}#issuecomment-${comments[0].id}`);
    expect(comments[0].user.login).toBe(reviewer.name);

    // The owner's approval counts (write on code): official.
    const r4 = await expectReview(await review(sc, sc.owner, { event: 'APPROVED', body: '' }));
    expect(r4.official).toBe(true);

    const res = await s.fetch(reviewsPath(sc));
    const list = await expectList(res, PullReviewSchema);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(list.map((r) => r.id)).toEqual([r1.id, r3.id, r4.id]);
    expect(await expectReview(await s.fetch(reviewsPath(sc, `/${r3.id}`), { headers: reviewer.h }))).toEqual(r3);
    // Pages.
    const second = await expectList(await s.fetch(reviewsPath(sc, '?limit=2&page=2')), PullReviewSchema);
    expect(second.map((r) => r.id)).toEqual([r4.id]);

    // What the merge code asks.
    const { pull } = await loadPull(sc);
    expect(await s.host.reviews.approvals(pull, { official: true })).toBe(1);
    expect(await s.host.reviews.approvals(pull, {})).toBe(2);
    expect(await s.host.reviews.hasRejection(pull)).toBe(false);
    const summary = (await s.host.reviews.reviewSummaries([pull.issue.id])).get(pull.issue.id);
    expect(summary).toMatchObject({ requestedReviewers: [], requestedTeams: [], reviewComments: 3 });
    // Submitted reviews count in the conversation, as Forgejo recounts it.
    expect((await json(await s.fetch(`/api/v1/repos/${sc.full}/issues/${sc.index}`))).comments).toBe(3);
  });

  test('the poster may not approve or reject their own pull request; bodies are required where Forgejo requires them', async () => {
    const sc = await scene();
    expect(await expectApiError(await review(sc, sc.poster, { event: 'APPROVED', body: 'lgtm it myself' }), 422, s.url)).toBe('approve your own pull is not allowed');
    expect(await expectApiError(await review(sc, sc.poster, { event: 'REQUEST_CHANGES', body: 'hm' }), 422, s.url)).toBe('reject your own pull is not allowed');
    const other = await account('oth');
    expect(await expectApiError(await review(sc, other, { event: 'COMMENT', body: '  ' }), 422, s.url)).toBe('review event COMMENT requires a body or a comment');
    expect(await expectApiError(await review(sc, other, { event: 'REQUEST_CHANGES' }), 422, s.url)).toBe('review event REQUEST_CHANGES requires a body');
    expect(await expectApiError(await review(sc, other, {}), 422, s.url)).toBe('review event  requires a body');
    // A comment review with only line comments is fine; a line comment needs a path and a body.
    await expectReview(await review(sc, other, { event: 'COMMENT', comments: [{ path: 'WOW-file', body: 'x', old_position: 0, new_position: 3 }] }));
    await expectApiError(await review(sc, other, { event: 'COMMENT', body: 'b', comments: [{ body: 'x', new_position: 1 }] }), 422, s.url);
    await expectApiError(await review(sc, other, { event: 'COMMENT', body: 'b', commit_id: 'x'.repeat(100) }), 422, s.url);
    await expectApiError(await review(sc, other, { event: 'COMMENT', body: 'b', comments: [{ path: 'WOW-file', body: 'x', new_position: 1e30 }] }), 422, s.url);
    await expectApiError(await review(sc, other, { event: 'COMMENT', body: 'b', comments: 'none' }), 422, s.url);
    await expectApiError(await review(sc, other, { event: 'COMMENT', body: 'b', comments: [{ path: 'WOW-file', body: '', new_position: 1 }] }), 422, s.url);
    // The poster's own comment review is fine; nothing was written by the refused ones.
    await expectReview(await review(sc, sc.poster, { event: 'COMMENT', body: 'no seriously please have a look at it' }));
    const list = await expectList(await s.fetch(reviewsPath(sc)), PullReviewSchema);
    expect(list.map((r) => r.state)).toEqual(['COMMENT', 'COMMENT']);
  });

  test('anonymous callers may read but not review; a private repository is 404 to strangers', async () => {
    const sc = await scene({ private: true });
    const stranger = await account('str');
    await expectApiError(await s.fetch(reviewsPath(sc)), 404, s.url);
    await expectApiError(await s.fetch(reviewsPath(sc), { headers: stranger.h }), 404, s.url);
    await expectApiError(await review(sc, stranger, { event: 'COMMENT', body: 'x' }), 404, s.url);
    const pub = await scene();
    await expectApiError(await s.fetch(reviewsPath(pub), jsonInit('POST', { event: 'COMMENT', body: 'x' })), 401, s.url);
    await expectApiError(await s.fetch(reviewsPath(pub, '/abc')), 404, s.url);
    await expectApiError(await s.fetch(reviewsPath(pub, '/999999')), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${pub.full}/pulls/99/reviews`), 404, s.url);
    // A review of another pull request is not found under this one.
    const other = await scene();
    const r = await expectReview(await review(other, other.owner, { event: 'COMMENT', body: 'x' }));
    await expectApiError(await s.fetch(reviewsPath(pub, `/${r.id}`)), 404, s.url);
    // An archived repository takes no reviews.
    expect((await s.fetch(`/api/v1/repos/${pub.full}`, jsonInit('PATCH', { archived: true }, pub.owner.h))).status).toBe(200);
    await expectApiError(await review(pub, pub.owner, { event: 'COMMENT', body: 'x' }), 423, s.url);
  });
});

describe('pending reviews', () => {
  test('collect line comments, are seen by their author only, and are submitted once', async () => {
    const sc = await scene();
    const stranger = await account('str');
    const r4 = await expectReview(await review(sc, sc.owner, { body: '...', comments: [{ path: 'WOW-file', body: 'its ok', new_position: 1 }] }));
    expect(r4.state).toBe('PENDING');
    expect(r4.html_url).toBe('');
    const r5 = await expectReview(await review(sc, sc.owner, { body: '...', comments: [{ path: 'WOW-file', body: 'hehe and here it is', new_position: 3 }] }));
    expect(r5.id).toBe(r4.id);
    expect(r5.comments_count).toBe(2);

    // Others do not see it, in the list or alone.
    expect(await expectList(await s.fetch(reviewsPath(sc)), PullReviewSchema)).toEqual([]);
    expect((await s.fetch(reviewsPath(sc))).headers.get('x-total-count')).toBe('0');
    await expectApiError(await s.fetch(reviewsPath(sc, `/${r4.id}`), { headers: stranger.h }), 404, s.url);
    await expectApiError(await s.fetch(reviewsPath(sc, `/${r4.id}/comments`)), 404, s.url);
    expect((await expectList(await s.fetch(reviewsPath(sc), { headers: sc.owner.h }), PullReviewSchema)).map((r) => r.id)).toEqual([r4.id]);
    expect((await expectList(await s.fetch(reviewsPath(sc), { headers: admin.h }), PullReviewSchema)).map((r) => r.id)).toEqual([r4.id]);
    // Line comments of a pending review point at the files view.
    const pendingComments = await expectList(await s.fetch(reviewsPath(sc, `/${r4.id}/comments`), { headers: sc.owner.h }), PullReviewCommentSchema);
    expect(pendingComments[0].html_url).toContain('/files#issuecomment-');

    // Staying pending is refused; so is a body-less request for changes.
    expect(await expectApiError(await s.fetch(reviewsPath(sc, `/${r4.id}`), jsonInit('POST', { body: 'x' }, sc.owner.h)), 422, s.url)).toBe('review stay pending');
    await expectApiError(await s.fetch(reviewsPath(sc, `/${r4.id}`), jsonInit('POST', { event: 'REQUEST_CHANGES' }, sc.owner.h)), 422, s.url);
    const r = await expectReview(await s.fetch(reviewsPath(sc, `/${r4.id}`), jsonInit('POST', { event: 'REQUEST_CHANGES', body: 'one nit' }, sc.owner.h)));
    expect(r).toMatchObject({ id: r4.id, state: 'REQUEST_CHANGES', body: 'one nit', comments_count: 2, official: true });
    expect(r.html_url).toMatch(/#issuecomment-\d+$/);
    const comments = await expectList(await s.fetch(reviewsPath(sc, `/${r.id}/comments`)), PullReviewCommentSchema);
    expect(comments.map((c) => [c.position, c.body])).toEqual([
      [1, 'its ok'],
      [3, 'hehe and here it is'],
    ]);
    expect(comments[1].diff_hunk).toBe('@@ -0,0 +1,3 @@\n+A new File\n+\n+and some lines');
    expect(await expectApiError(await s.fetch(reviewsPath(sc, `/${r4.id}`), jsonInit('POST', { event: 'COMMENT', body: 'again' }, sc.owner.h)), 422, s.url)).toBe(
      'only a pending review can be submitted',
    );
    const { pull } = await loadPull(sc);
    expect(await s.host.reviews.hasRejection(pull)).toBe(true);
  });

  test('line comments sent at once all land in the one pending review; a review is submitted once', async () => {
    const sc = await scene();
    const sent = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => review(sc, sc.owner, { body: 'draft', comments: [{ path: 'WOW-file', body: `c${n}`, new_position: 1 }] })),
    );
    const ids = new Set<number>();
    for (const res of sent) ids.add((await expectReview(res)).id);
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect(await expectList(await s.fetch(reviewsPath(sc, `/${id}/comments`), { headers: sc.owner.h }), PullReviewCommentSchema)).toHaveLength(5);
    const submits = await Promise.all([1, 2, 3].map(() => s.fetch(reviewsPath(sc, `/${id}`), jsonInit('POST', { event: 'COMMENT', body: 'done' }, sc.owner.h))));
    expect(submits.map((r) => r.status).sort()).toEqual([200, 422, 422]);
    const timeline = await json(await s.fetch(`/api/v1/repos/${sc.full}/issues/${sc.index}/timeline`));
    expect(timeline.filter((e: { type: string }) => e.type === 'review')).toHaveLength(1);
  });

  test('line comments on the old side are stored negative and shown as original_position', async () => {
    const sc = await scene();
    const r = await expectReview(
      await review(sc, sc.owner, {
        event: 'COMMENT',
        comments: [
          { path: 'README.md', body: 'old side', old_position: 1, new_position: 0 },
          { path: 'WOW-file', body: 'new side', new_position: 3 },
          { path: 'WOW-file', body: 'whole file' },
        ],
      }),
    );
    const [c, d, e] = await expectList(await s.fetch(reviewsPath(sc, `/${r.id}/comments`)), PullReviewCommentSchema);
    // README.md is not part of the change: no hunk to quote.
    expect(c).toMatchObject({ position: 0, original_position: 1, path: 'README.md', diff_hunk: '' });
    expect(d).toMatchObject({ position: 3, path: 'WOW-file', diff_hunk: '@@ -0,0 +1,3 @@\n+A new File\n+\n+and some lines' });
    expect(e).toMatchObject({ position: 0, original_position: 0, diff_hunk: '' });
  });
});

describe('deleting, line comments, dismissals', () => {
  test('only the reviewer or a site administrator deletes a review; its comments go with it', async () => {
    const sc = await scene();
    const reviewer = await account('rev');
    const r2 = await expectReview(await review(sc, sc.poster, { event: 'COMMENT', body: 'mine' }));
    const r3 = await expectReview(await review(sc, reviewer, { event: 'APPROVED', body: 'lgtm', comments: [{ path: 'WOW-file', body: 'c', new_position: 1 }] }));
    expect((await s.fetch(reviewsPath(sc, `/${r2.id}`), { method: 'DELETE', headers: sc.poster.h })).status).toBe(204);
    expect(await expectApiError(await s.fetch(reviewsPath(sc, `/${r3.id}`), { method: 'DELETE', headers: sc.poster.h }), 403, s.url)).toBe(
      'only admin and user itself can delete a review',
    );
    await expectApiError(await s.fetch(reviewsPath(sc, `/${r3.id}`), { method: 'DELETE' }), 401, s.url);
    const [comment] = await expectList(await s.fetch(reviewsPath(sc, `/${r3.id}/comments`)), PullReviewCommentSchema);
    expect((await s.fetch(reviewsPath(sc, `/${r3.id}`), { method: 'DELETE', headers: admin.h })).status).toBe(204);
    await expectApiError(await s.fetch(reviewsPath(sc, `/${r3.id}`)), 404, s.url);
    await expectApiError(await s.fetch(reviewsPath(sc, `/${r3.id}/comments/${comment.id}`)), 404, s.url);
    expect(await expectList(await s.fetch(reviewsPath(sc)), PullReviewSchema)).toEqual([]);
    expect((await json(await s.fetch(`/api/v1/repos/${sc.full}/issues/${sc.index}`))).comments).toBe(0);
  });

  test('a line comment is added to a review, read alone, and deleted by its poster or a writer', async () => {
    const sc = await scene();
    const reviewer = await account('rev');
    const stranger = await account('str');
    const r = await expectReview(await review(sc, reviewer, { event: 'COMMENT', body: 'see inline' }));
    const res = await s.fetch(reviewsPath(sc, `/${r.id}/comments`), jsonInit('POST', { path: 'WOW-file', body: 'added later', new_position: 3 }, reviewer.h));
    const added = await json(res);
    expect(res.status, JSON.stringify(added)).toBe(200);
    expect(matchesSchema(PullReviewCommentSchema, added)).toBe(true);
    expect(added).toMatchObject({ pull_request_review_id: r.id, position: 3, body: 'added later' });
    const got = await json(await s.fetch(reviewsPath(sc, `/${r.id}/comments/${added.id}`), { headers: reviewer.h }));
    expect(got).toEqual(added);
    await expectApiError(await s.fetch(reviewsPath(sc, `/${r.id}/comments/${added.id}`), { method: 'DELETE', headers: stranger.h }), 403, s.url);
    expect((await s.fetch(reviewsPath(sc, `/${r.id}/comments/${added.id}`), { method: 'DELETE', headers: sc.poster.h })).status).toBe(204);
    await expectApiError(await s.fetch(reviewsPath(sc, `/${r.id}/comments/${added.id}`)), 404, s.url);
    await expectApiError(await s.fetch(reviewsPath(sc, `/${r.id}/comments`), jsonInit('POST', { path: 'WOW-file', body: ' ', new_position: 3 }, reviewer.h)), 422, s.url);
  });

  test('repository administrators dismiss approvals and rejections and take it back', async () => {
    const sc = await scene();
    const reviewer = await account('rev');
    const approval = await expectReview(await review(sc, reviewer, { event: 'APPROVED', body: 'ok' }));
    const comment = await expectReview(await review(sc, reviewer, { event: 'COMMENT', body: 'fyi' }));
    const dismissals = (id: number) => reviewsPath(sc, `/${id}/dismissals`);
    expect(await expectApiError(await s.fetch(dismissals(approval.id), jsonInit('POST', { message: 'stale' }, sc.poster.h)), 403, s.url)).toBe('Must be repo admin');
    expect(await expectApiError(await s.fetch(dismissals(comment.id), jsonInit('POST', { message: 'x' }, sc.owner.h)), 403, s.url)).toContain('not need to dismiss');
    const dismissed = await expectReview(await s.fetch(dismissals(approval.id), jsonInit('POST', { message: 'stale' }, sc.owner.h)));
    expect(dismissed).toMatchObject({ id: approval.id, dismissed: true, state: 'APPROVED' });
    expect((await expectReview(await s.fetch(reviewsPath(sc, `/${approval.id}`)))).dismissed).toBe(true);
    const { pull } = await loadPull(sc);
    expect(await s.host.reviews.approvals(pull, {})).toBe(0);
    const timeline = await json(await s.fetch(`/api/v1/repos/${sc.full}/issues/${sc.index}/timeline`));
    expect(timeline.some((e: { type: string; body: string }) => e.type === 'dismiss_review' && e.body === 'stale')).toBe(true);
    const back = await expectReview(await s.fetch(reviewsPath(sc, `/${approval.id}/undismissals`), jsonInit('POST', {}, sc.owner.h)));
    expect(back.dismissed).toBe(false);
    expect(await s.host.reviews.approvals(pull, {})).toBe(1);
  });
});

describe('review requests', () => {
  test('the poster asks a reader; the request shows as REQUEST_REVIEW until withdrawn by the reviewer', async () => {
    const sc = await scene();
    const reviewer = await account('rev');
    const stranger = await account('str');
    const requests = `/api/v1/repos/${sc.full}/pulls/${sc.index}/requested_reviewers`;
    await expectReview(await review(sc, reviewer, { event: 'APPROVED', body: 'lgtm' }));

    expect(await expectApiError(await s.fetch(requests, jsonInit('POST', { reviewers: ['nobody-here'] }, sc.poster.h)), 404, s.url)).toBe("User 'nobody-here' not exist");
    expect(await expectApiError(await s.fetch(requests, jsonInit('POST', { reviewers: [sc.poster.name] }, sc.owner.h)), 422, s.url)).toMatch(/^poster of pr can't be reviewer/);
    expect(await expectApiError(await s.fetch(requests, jsonInit('POST', { reviewers: [reviewer.name] }, stranger.h)), 422, s.url)).toMatch(/^Doer can't choose reviewer/);
    await expectApiError(await s.fetch(requests, jsonInit('POST', { reviewers: [reviewer.name] })), 401, s.url);

    const res = await s.fetch(requests, jsonInit('POST', { reviewers: [reviewer.name] }, sc.poster.h));
    const made = await json(res);
    expect(res.status, JSON.stringify(made)).toBe(201);
    expect(matchesSchema(Type.Array(PullReviewSchema), made)).toBe(true);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ state: 'REQUEST_REVIEW', official: false });
    expect(made[0].user.login).toBe(reviewer.name);
    // Asking again changes nothing.
    expect(await json(await s.fetch(requests, jsonInit('POST', { reviewers: [reviewer.name] }, sc.poster.h)))).toEqual([]);

    const list = await expectList(await s.fetch(reviewsPath(sc)), PullReviewSchema);
    expect(list.map((r) => r.state)).toEqual(['APPROVED', 'REQUEST_REVIEW']);
    const { pull } = await loadPull(sc);
    const summary = (await s.host.reviews.reviewSummaries([pull.issue.id])).get(pull.issue.id)!;
    expect(summary.requestedReviewers.map((u) => u.name)).toEqual([reviewer.name]);
    const timeline = await json(await s.fetch(`/api/v1/repos/${sc.full}/issues/${sc.index}/timeline`));
    expect(timeline.filter((e: { type: string }) => e.type === 'review_request')).toHaveLength(1);

    // A stranger may not withdraw it; the reviewer may.
    expect(await expectApiError(await s.fetch(requests, jsonInit('DELETE', { reviewers: [reviewer.name] }, stranger.h)), 422, s.url)).toMatch(/^Doer can't remove reviewer/);
    expect((await s.fetch(requests, jsonInit('DELETE', { reviewers: [reviewer.name] }, reviewer.h))).status).toBe(204);
    expect((await expectList(await s.fetch(reviewsPath(sc)), PullReviewSchema)).map((r) => r.state)).toEqual(['APPROVED']);
    expect((await s.host.reviews.reviewSummaries([pull.issue.id])).get(pull.issue.id)!.requestedReviewers).toEqual([]);
  });

  test('an official reviewer asked again loses the official flag on older reviews until the request goes', async () => {
    const sc = await scene();
    const writer = await account('wrt');
    expect((await s.fetch(`/api/v1/repos/${sc.full}/collaborators/${writer.name}`, jsonInit('PUT', { permission: 'write' }, sc.owner.h))).status).toBe(204);
    const approval = await expectReview(await review(sc, writer, { event: 'APPROVED', body: 'ok' }));
    expect(approval.official).toBe(true);
    const requests = `/api/v1/repos/${sc.full}/pulls/${sc.index}/requested_reviewers`;
    const [request] = await json(await s.fetch(requests, jsonInit('POST', { reviewers: [writer.name] }, sc.owner.h)));
    expect(request.official).toBe(true);
    expect((await expectReview(await s.fetch(reviewsPath(sc, `/${approval.id}`)))).official).toBe(false);
    expect((await s.fetch(requests, jsonInit('DELETE', { reviewers: [writer.name] }, sc.owner.h))).status).toBe(204);
    expect((await expectReview(await s.fetch(reviewsPath(sc, `/${approval.id}`)))).official).toBe(true);
  });
});

describe('team review requests', () => {
  test("an organization's team is asked; a member's approval takes the request away", async () => {
    const orgOwner = await account('oo');
    const poster = await account('pst');
    const member = await account('mbr');
    const org = uniq('org');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org }, orgOwner.h))).status).toBe(201);
    const name = uniq('rv');
    const full = `${org}/${name}`;
    expect((await s.fetch(`/api/v1/orgs/${org}/repos`, jsonInit('POST', { name, auto_init: true }, orgOwner.h))).status).toBe(201);
    expect((await s.fetch(`/api/v1/repos/${full}/collaborators/${poster.name}`, jsonInit('PUT', { permission: 'write' }, orgOwner.h))).status).toBe(204);
    const teamRes = await s.fetch(`/api/v1/orgs/${org}/teams`, jsonInit('POST', { name: 'Reviewers', permission: 'read', units: ['repo.code', 'repo.pulls'], includes_all_repositories: true }, orgOwner.h));
    const team = await json(teamRes);
    expect(teamRes.status, JSON.stringify(team)).toBe(201);
    expect((await s.fetch(`/api/v1/teams/${team.id}/members/${member.name}`, { method: 'PUT', headers: orgOwner.h })).status).toBe(204);
    const file = await s.fetch(`/api/v1/repos/${full}/contents/f.txt`, jsonInit('POST', { content: b64('x\n'), branch: 'main', new_branch: 'topic' }, poster.h));
    expect(file.status).toBe(201);
    const pullRes = await s.fetch(`/api/v1/repos/${full}/pulls`, jsonInit('POST', { base: 'main', head: 'topic', title: 't' }, poster.h));
    expect(pullRes.status).toBe(201);
    const index = (await json(pullRes)).number;
    const requests = `/api/v1/repos/${full}/pulls/${index}/requested_reviewers`;

    expect(await expectApiError(await s.fetch(requests, jsonInit('POST', { team_reviewers: ['nope'] }, poster.h)), 404, s.url)).toBe("Team 'nope' not exist");
    const res = await s.fetch(requests, jsonInit('POST', { team_reviewers: ['reviewers'] }, poster.h));
    const made = await json(res);
    expect(res.status, JSON.stringify(made)).toBe(201);
    expect(matchesSchema(Type.Array(PullReviewSchema), made)).toBe(true);
    expect(made[0]).toMatchObject({ state: 'REQUEST_REVIEW', user: null });
    expect(made[0].team).toMatchObject({ id: team.id, name: 'Reviewers' });
    const pullView = await json(await s.fetch(`/api/v1/repos/${full}/pulls/${index}`));
    expect(pullView.requested_reviewers_teams.map((t: { id: number }) => t.id)).toEqual([team.id]);

    await expectReview(await s.fetch(`/api/v1/repos/${full}/pulls/${index}/reviews`, jsonInit('POST', { event: 'APPROVED', body: 'ok' }, member.h)));
    const after = await json(await s.fetch(`/api/v1/repos/${full}/pulls/${index}`));
    expect(after.requested_reviewers_teams).toEqual([]);
    expect(after.review_comments).toBe(1);
    // Withdrawing a request that is no longer there changes nothing.
    expect((await s.fetch(requests, jsonInit('DELETE', { team_reviewers: ['Reviewers'] }, poster.h))).status).toBe(204);
  });

  test('team reviewers of a repository not owned by an organization are ignored', async () => {
    const sc = await scene();
    const res = await s.fetch(`/api/v1/repos/${sc.full}/pulls/${sc.index}/requested_reviewers`, jsonInit('POST', { team_reviewers: ['whatever'] }, sc.poster.h));
    expect(res.status).toBe(201);
    expect(await json(res)).toEqual([]);
  });
});

describe('conversations and staleness', () => {
  test('replies join a line comment, and its conversation is resolved and unresolved', async () => {
    const sc = await scene();
    const reviewer = await account('rev');
    const stranger = await account('str');
    const r = await expectReview(await review(sc, reviewer, { event: 'APPROVED', body: 'lgtm', comments: [{ path: 'WOW-file', body: 'really?', new_position: 1 }] }));
    const [c] = await expectList(await s.fetch(reviewsPath(sc, `/${r.id}/comments`)), PullReviewCommentSchema);
    const res = await s.fetch(`/api/v1/repos/${sc.full}/pulls/${sc.index}/comments/${c.id}/replies`, jsonInit('POST', { body: 'reply to the original review comment' }, sc.poster.h));
    const reply = await json(res);
    expect(res.status, JSON.stringify(reply)).toBe(201);
    expect(reply).toMatchObject({ pull_request_review_id: r.id, body: 'reply to the original review comment', path: 'WOW-file', position: 1, diff_hunk: c.diff_hunk });
    expect(await expectList(await s.fetch(reviewsPath(sc, `/${r.id}/comments`)), PullReviewCommentSchema)).toHaveLength(2);
    await expectApiError(await s.fetch(`/api/v1/repos/${sc.full}/pulls/${sc.index}/comments/999999/replies`, jsonInit('POST', { body: 'x' }, sc.poster.h)), 404, s.url);

    const resolve = (action: string, who?: Account) => s.fetch(`/api/v1/repos/${sc.full}/pulls/comments/${c.id}/${action}`, { method: 'POST', headers: who?.h });
    await expectApiError(await resolve('resolve'), 401, s.url);
    expect(await expectApiError(await resolve('resolve', stranger), 403, s.url)).toBe('user may not resolve this conversation');
    expect((await resolve('resolve', sc.owner)).status).toBe(204);
    let [first] = await expectList(await s.fetch(reviewsPath(sc, `/${r.id}/comments`)), PullReviewCommentSchema);
    expect(first.resolver?.login).toBe(sc.owner.name);
    // Resolving again keeps the first resolver.
    expect((await resolve('resolve', sc.poster)).status).toBe(204);
    [first] = await expectList(await s.fetch(reviewsPath(sc, `/${r.id}/comments`)), PullReviewCommentSchema);
    expect(first.resolver?.login).toBe(sc.owner.name);
    expect((await resolve('unresolve', sc.poster)).status).toBe(204);
    [first] = await expectList(await s.fetch(reviewsPath(sc, `/${r.id}/comments`)), PullReviewCommentSchema);
    expect(first.resolver).toBeNull();
    await expectApiError(await s.fetch(`/api/v1/repos/${sc.full}/pulls/comments/999999/resolve`, { method: 'POST', headers: sc.owner.h }), 404, s.url);
  });

  test('a push to the head makes earlier reviews stale; a review of an older commit is stale at once', async () => {
    const sc = await scene();
    const reviewer = await account('rev');
    const before = await expectReview(await review(sc, reviewer, { event: 'APPROVED', body: 'ok' }));
    expect(before.stale).toBe(false);
    const current = await json(await s.fetch(`/api/v1/repos/${sc.full}/contents/WOW-file?ref=new_file`));
    const put = await s.fetch(
      `/api/v1/repos/${sc.full}/contents/WOW-file`,
      jsonInit('PUT', { content: b64('changed\n'), sha: current.sha, branch: 'new_file', message: 'change' }, sc.poster.h),
    );
    expect(put.status, await put.clone().text()).toBe(200);
    await s.host.events.idle();
    expect((await expectReview(await s.fetch(reviewsPath(sc, `/${before.id}`)))).stale).toBe(true);
    const { pull } = await loadPull(sc);
    expect(await s.host.reviews.approvals(pull, { ignoreStale: true })).toBe(0);
    const fresh = await expectReview(await review(sc, reviewer, { event: 'APPROVED', body: 'still ok' }));
    expect(fresh.stale).toBe(false);
    const old = await expectReview(await review(sc, sc.owner, { event: 'APPROVED', body: 'old', commit_id: before.commit_id }));
    expect(old.stale).toBe(true);
  });

  test('a push that leaves the content as it was keeps reviews fresh, moved to the new head', async () => {
    const sc = await scene();
    const reviewer = await account('rev');
    const approval = await expectReview(await review(sc, reviewer, { event: 'APPROVED', body: 'ok' }));
    const scratch = await mkdtemp(path.join(tmpdir(), 'rv-'));
    try {
      const git = (args: string[], cwd: string) =>
        new Promise<string>((resolve, reject) => {
          const env = { PATH: process.env.PATH, HOME: scratch, LANG: 'C', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
          execFile('git', args, { cwd, env, timeout: 60_000 }, (error, stdout, stderr) => (error ? reject(new Error(`git ${args[0]}: ${stderr}`)) : resolve(String(stdout))));
        });
      const clone = path.join(scratch, 'c');
      await git(['clone', '-q', '-b', 'new_file', `http://${sc.poster.name}:${PASSWORD}@${s.url.replace(/^http:\/\//, '')}${sc.full}.git`, clone], scratch);
      await git(['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'nothing'], clone);
      await git(['push', '-q', 'origin', 'new_file'], clone);
      const tip = (await git(['rev-parse', 'HEAD'], clone)).trim();
      await s.host.events.idle();
      expect(await expectReview(await s.fetch(reviewsPath(sc, `/${approval.id}`)))).toMatchObject({ stale: false, commit_id: tip });
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});

describe('branch protection', () => {
  async function protect(sc: Scene, rule: Record<string, unknown>): Promise<void> {
    const res = await s.fetch(`/api/v1/repos/${sc.full}/branch_protections`, jsonInit('POST', { rule_name: 'main', ...rule }, sc.owner.h));
    expect(res.status, await res.clone().text()).toBe(201);
  }

  test('with an approvals whitelist only whitelisted reviewers are official', async () => {
    const sc = await scene();
    const writer = await account('wrt');
    const trusted = await account('tru');
    // Whitelisted accounts must be able to write.
    for (const who of [writer, trusted]) {
      expect((await s.fetch(`/api/v1/repos/${sc.full}/collaborators/${who.name}`, jsonInit('PUT', { permission: 'write' }, sc.owner.h))).status).toBe(204);
    }
    await protect(sc, { enable_approvals_whitelist: true, approvals_whitelist_username: [trusted.name] });
    expect((await expectReview(await review(sc, writer, { event: 'APPROVED', body: 'ok' }))).official).toBe(false);
    expect((await expectReview(await review(sc, trusted, { event: 'APPROVED', body: 'ok' }))).official).toBe(true);
    const { pull } = await loadPull(sc);
    expect(await s.host.reviews.approvals(pull, { official: true })).toBe(1);
  });

  test('dismiss_stale_approvals dismisses standing approvals when the head moves, with a timeline entry', async () => {
    const sc = await scene();
    const reviewer = await account('rev');
    await protect(sc, { dismiss_stale_approvals: true });
    const approval = await expectReview(await review(sc, sc.owner, { event: 'APPROVED', body: 'ok' }));
    const rejection = await expectReview(await review(sc, reviewer, { event: 'REQUEST_CHANGES', body: 'no' }));
    const current = await json(await s.fetch(`/api/v1/repos/${sc.full}/contents/WOW-file?ref=new_file`));
    const put = await s.fetch(
      `/api/v1/repos/${sc.full}/contents/WOW-file`,
      jsonInit('PUT', { content: b64('changed\n'), sha: current.sha, branch: 'new_file', message: 'change' }, sc.poster.h),
    );
    expect(put.status, await put.clone().text()).toBe(200);
    await s.host.events.idle();
    expect(await expectReview(await s.fetch(reviewsPath(sc, `/${approval.id}`)))).toMatchObject({ dismissed: true, stale: true });
    expect(await expectReview(await s.fetch(reviewsPath(sc, `/${rejection.id}`)))).toMatchObject({ dismissed: false, stale: true });
    const timeline = await json(await s.fetch(`/api/v1/repos/${sc.full}/issues/${sc.index}/timeline`));
    expect(timeline.filter((e: { type: string }) => e.type === 'dismiss_review')).toHaveLength(1);
  });
});

describe('diff excerpts', () => {
  test('cutDiffAroundLine keeps the hunk up to the line, at most four lines, under a recomputed header', () => {
    const diff = ['diff --git a/f b/f', 'index 1..2 100644', '--- a/f', '+++ b/f', '@@ -1,8 +1,8 @@', ' a', ' b', ' c', '-d', '+D', ' e', ' f', ' g', ' h', '@@ -20,3 +20,4 @@', ' x', '+y', ' z', ''].join('\n');
    expect(cutDiffAroundLine(diff, 2, false, 4)).toBe('diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,8 +1,8 @@\n a\n b');
    expect(cutDiffAroundLine(diff, 6, false, 4)).toBe('diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -4,3 +4,3 @@\n-d\n+D\n e\n f');
    expect(cutDiffAroundLine(diff, 4, true, 4)).toBe('diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,8 +1,8 @@\n a\n b\n c\n-d');
    expect(cutDiffAroundLine(diff, 21, false, 4)).toBe('diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -20,3 +20,4 @@\n x\n+y');
    expect(cutDiffAroundLine(diff, 15, false, 4)).toBe('');
    expect(cutDiffAroundLine(diff, 0, false, 4)).toBe('');
  });
});
