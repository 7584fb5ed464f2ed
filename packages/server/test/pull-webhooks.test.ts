/**
 * Pull request webhooks end to end: a real receiver on 127.0.0.1 gets Forgejo's `PullRequestPayload` for opened,
 * edited (title, base), synchronized, closed and reopened, `pull_request_assign` and `pull_request_label`, and
 * `IssueCommentPayload` (`is_pull`) for comments; a hook that chose only issues hears none of it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createToken, createUser, jsonInit, tokenHeader, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';
import { startHookedServer, type HookedServer, type ReceivedRequest, type Receiver } from './webhook-receiver';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('pull request webhooks', () => {
  let hooked: HookedServer | undefined;
  let s: TestServer;
  let receiver: Receiver;
  let name: string;
  let h: Record<string, string>;

  beforeAll(async () => {
    hooked = await startHookedServer('ph');
    ({ s, receiver, name, h } = hooked);
  });
  afterAll(async () => hooked?.close());

  test('pull request events reach a hook that chose them', async () => {
    const repo = uniq('r');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo, auto_init: true }, h))).status).toBe(201);
    const full = `${name}/${repo}`;
    const write = (file: string, branch: string, from?: string) =>
      s.fetch(`/api/v1/repos/${full}/contents/${file}`, jsonInit('POST', { content: b64(`${file}\n`), ...(from ? { branch: from, new_branch: branch } : { branch }) }, h));
    expect((await write('a.txt', 'topic', 'main')).status).toBe(201);
    expect((await write('b.txt', 'release', 'main')).status).toBe(201);

    const pullsPath = `/pulls-${uniq('p')}`;
    const issuesPath = `/issues-${uniq('p')}`;
    for (const [path, events] of [
      [pullsPath, ['pull_request', 'pull_request_comment', 'pull_request_review', 'pull_request_review_request']],
      [issuesPath, ['issues', 'issue_comment']],
    ] as const) {
      const res = await s.fetch(`/api/v1/repos/${full}/hooks`, jsonInit('POST', { type: 'gitea', config: { url: `${receiver.url}${path}`, content_type: 'json' }, events, active: true }, h));
      expect(res.status).toBe(201);
    }
    const at = (event: string, n = 1) => receiver.waitFor((r: ReceivedRequest) => r.url === pullsPath && r.headers['x-gitea-event-type'] === event, n, 15_000);

    let res = await s.fetch(`/api/v1/repos/${full}/pulls`, jsonInit('POST', { head: 'topic', base: 'main', title: 'Hooked', assignees: [name] }, h));
    expect(res.status).toBe(201);
    const pr = await json(res);
    const opened = await at('pull_request');
    expect(opened.headers['x-gitea-event']).toBe('pull_request');
    expect(JSON.parse(opened.body)).toMatchObject({
      action: 'opened',
      number: pr.number,
      pull_request: { id: pr.id, title: 'Hooked', state: 'open', head: { ref: 'topic' }, base: { ref: 'main' }, merged: false },
      repository: { full_name: full },
      sender: { login: name },
      requested_reviewer: null,
    });
    expect(JSON.parse((await at('pull_request_assign')).body)).toMatchObject({ action: 'assigned', number: pr.number });

    res = await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, jsonInit('PATCH', { title: 'Renamed', base: 'release' }, h));
    expect(res.status).toBe(201);
    expect(JSON.parse((await at('pull_request', 2)).body)).toMatchObject({ action: 'edited', changes: { title: { from: 'Hooked' } } });
    expect(JSON.parse((await at('pull_request', 3)).body)).toMatchObject({ action: 'edited', changes: { ref: { from: 'main' } }, pull_request: { base: { ref: 'release' } } });

    // A commit to the head branch synchronizes.
    expect((await write('c.txt', 'topic')).status).toBe(201);
    const synced = JSON.parse((await at('pull_request_sync')).body);
    expect(synced).toMatchObject({ action: 'synchronized', number: pr.number });
    expect(synced.pull_request.head.sha).not.toBe(pr.head.sha);

    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, jsonInit('PATCH', { state: 'closed' }, h))).status).toBe(201);
    expect(JSON.parse((await at('pull_request', 4)).body)).toMatchObject({ action: 'closed', pull_request: { state: 'closed', merged: false } });
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, jsonInit('PATCH', { state: 'open' }, h))).status).toBe(201);
    expect(JSON.parse((await at('pull_request', 5)).body)).toMatchObject({ action: 'reopened' });

    const label = await json(await s.fetch(`/api/v1/repos/${full}/labels`, jsonInit('POST', { name: 'bug', color: '#ff0000' }, h)));
    expect((await s.fetch(`/api/v1/repos/${full}/issues/${pr.number}/labels`, jsonInit('POST', { labels: [label.id] }, h))).status).toBe(200);
    expect(JSON.parse((await at('pull_request_label')).body)).toMatchObject({ action: 'label_updated', pull_request: { labels: [{ name: 'bug' }] } });

    expect((await s.fetch(`/api/v1/repos/${full}/issues/${pr.number}/comments`, jsonInit('POST', { body: 'looks good' }, h))).status).toBe(201);
    const commented = await at('pull_request_comment');
    expect(commented.headers['x-gitea-event']).toBe('issue_comment');
    expect(JSON.parse(commented.body)).toMatchObject({ action: 'created', is_pull: true, comment: { body: 'looks good' } });

    // A review asked of a collaborator, then given.
    const reviewer = uniq('rv');
    await createUser(s.host, reviewer);
    const reviewerH = tokenHeader(await createToken(s.host, reviewer));
    expect((await s.fetch(`/api/v1/repos/${full}/collaborators/${reviewer}`, jsonInit('PUT', { permission: 'write' }, h))).status).toBe(204);
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}/requested_reviewers`, jsonInit('POST', { reviewers: [reviewer] }, h))).status).toBe(201);
    expect(JSON.parse((await at('pull_request_review_request')).body)).toMatchObject({ action: 'review_requested', requested_reviewer: { login: reviewer } });
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}/reviews`, jsonInit('POST', { event: 'APPROVED', body: 'ship it' }, reviewerH))).status).toBe(200);
    const approved = await at('pull_request_review_approved');
    expect(approved.headers['x-gitea-event']).toBe('pull_request_approved');
    expect(JSON.parse(approved.body)).toMatchObject({ action: 'reviewed', review: { type: 'pull_request_review_approved', content: 'ship it' }, sender: { login: reviewer } });

    // The issues-only hook heard nothing of the pull request.
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests.filter((r: ReceivedRequest) => r.url === issuesPath)).toEqual([]);
  });
});
