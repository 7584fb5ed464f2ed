/**
 * Issue webhooks end to end: a real receiver on 127.0.0.1 gets Forgejo's `IssuePayload` for opened, edited,
 * closed, reopened, assigned and unassigned, and `IssueCommentPayload` for comments; a hook that chose only
 * pushes hears none of it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonInit, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';
import { startHookedServer, type HookedServer, type ReceivedRequest, type Receiver } from './webhook-receiver';

describe('issue webhooks', () => {
  let hooked: HookedServer | undefined;
  let s: TestServer;
  let receiver: Receiver;
  let name: string;
  let h: Record<string, string>;

  beforeAll(async () => {
    hooked = await startHookedServer('ih');
    ({ s, receiver, name, h } = hooked);
  });
  afterAll(async () => hooked?.close());

  test('issue events reach a hook that chose them, in order, with the issue as it was', async () => {
    const repo = uniq('r');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo }, h))).status).toBe(201);
    const full = `${name}/${repo}`;
    const issuesPath = `/issues-${uniq('p')}`;
    const pushPath = `/push-${uniq('p')}`;
    for (const [path, events] of [
      [issuesPath, ['issues', 'issue_comment']],
      [pushPath, ['push']],
    ] as const) {
      const res = await s.fetch(`/api/v1/repos/${full}/hooks`, jsonInit('POST', { type: 'gitea', config: { url: `${receiver.url}${path}`, content_type: 'json' }, events, active: true }, h));
      expect(res.status).toBe(201);
    }
    const at = (event: string, n = 1) => receiver.waitFor((r: ReceivedRequest) => r.url === issuesPath && r.headers['x-gitea-event-type'] === event, n, 15_000);

    let res = await s.fetch(`/api/v1/repos/${full}/issues`, jsonInit('POST', { title: 'Hooked', body: 'first', assignees: [name] }, h));
    const issue = await json(res);
    expect(res.status).toBe(201);
    const opened = JSON.parse((await at('issues')).body);
    expect(opened).toMatchObject({ action: 'opened', number: issue.number, issue: { id: issue.id, title: 'Hooked', state: 'open' }, repository: { full_name: full }, sender: { login: name } });
    const assigned = await at('issue_assign');
    expect(assigned.headers['x-gitea-event']).toBe('issues');
    expect(JSON.parse(assigned.body)).toMatchObject({ action: 'assigned', number: issue.number });

    res = await s.fetch(`/api/v1/repos/${full}/issues/${issue.number}`, jsonInit('PATCH', { title: 'Renamed', body: 'second', assignees: [] }, h));
    expect(res.status).toBe(201);
    // One change, two events (title and body): delivered concurrently, so they may arrive in either order.
    const edits = await Promise.all([at('issues', 2), at('issues', 3)]).then((r) => r.map((x) => JSON.parse(x.body)));
    const editedTitle = edits.find((e) => e.changes?.title);
    expect(editedTitle).toMatchObject({ action: 'edited', changes: { title: { from: 'Hooked' } }, issue: { title: 'Renamed' } });
    const editedBody = edits.find((e) => e.changes?.body);
    expect(editedBody).toMatchObject({ action: 'edited', changes: { body: { from: 'first' } } });
    expect(JSON.parse((await at('issue_assign', 2)).body)).toMatchObject({ action: 'unassigned' });

    expect((await s.fetch(`/api/v1/repos/${full}/issues/${issue.number}`, jsonInit('PATCH', { state: 'closed' }, h))).status).toBe(201);
    expect(JSON.parse((await at('issues', 4)).body)).toMatchObject({ action: 'closed', issue: { state: 'closed' } });
    expect((await s.fetch(`/api/v1/repos/${full}/issues/${issue.number}`, jsonInit('PATCH', { state: 'open' }, h))).status).toBe(201);
    expect(JSON.parse((await at('issues', 5)).body)).toMatchObject({ action: 'reopened', issue: { state: 'open' } });

    res = await s.fetch(`/api/v1/repos/${full}/issues/${issue.number}/comments`, jsonInit('POST', { body: 'a comment' }, h));
    expect(res.status).toBe(201);
    const comment = await json(res);
    const commented = JSON.parse((await at('issue_comment')).body);
    expect(commented).toMatchObject({ action: 'created', is_pull: false, issue: { number: issue.number }, comment: { id: comment.id, body: 'a comment' } });

    // The push-only hook heard nothing.
    expect(receiver.requests.filter((r) => r.url === pushPath)).toEqual([]);
  });

  test('closed and reopened carry commit_id: the commit that did it (a pushed keyword, a merge), else ""', async () => {
    const repo = uniq('r');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo, auto_init: true }, h))).status).toBe(201);
    const full = `${name}/${repo}`;
    const hookPath = `/state-${uniq('p')}`;
    const hook = { type: 'gitea', config: { url: `${receiver.url}${hookPath}`, content_type: 'json' }, events: ['issues', 'pull_request'], active: true };
    expect((await s.fetch(`/api/v1/repos/${full}/hooks`, jsonInit('POST', hook, h))).status).toBe(201);
    /** The `n`-th `event` delivery that is a close or reopen. */
    const at = (event: string, n: number) =>
      receiver.waitFor((r: ReceivedRequest) => r.url === hookPath && r.headers['x-gitea-event-type'] === event && ['closed', 'reopened'].includes(JSON.parse(r.body).action), n, 15_000);
    for (const title of ['by commits', 'by a merge']) {
      expect((await s.fetch(`/api/v1/repos/${full}/issues`, jsonInit('POST', { title }, h))).status).toBe(201);
    }
    /** A commit on `branch` through the contents API (a push as far as issues are concerned); its id. */
    const commitFile = async (message: string, extra: Record<string, unknown> = {}) => {
      const res = await s.fetch(`/api/v1/repos/${full}/contents/${uniq('f')}.txt`, jsonInit('POST', { content: Buffer.from(message).toString('base64'), message, ...extra }, h));
      expect(res.status).toBe(201);
      return (await json<{ commit: { sha: string } }>(res)).commit.sha;
    };
    const stateEvents = () =>
      receiver.requests
        .filter((r) => r.url === hookPath && r.headers['x-gitea-event-type'] === 'issues')
        .map((r) => JSON.parse(r.body))
        .filter((e) => e.action !== 'opened');

    // By hand: no commit.
    expect((await s.fetch(`/api/v1/repos/${full}/issues/1`, jsonInit('PATCH', { state: 'closed' }, h))).status).toBe(201);
    expect(JSON.parse((await at('issues', 1)).body)).toMatchObject({ action: 'closed', number: 1, commit_id: '' });
    expect((await s.fetch(`/api/v1/repos/${full}/issues/1`, jsonInit('PATCH', { state: 'open' }, h))).status).toBe(201);
    expect(JSON.parse((await at('issues', 2)).body)).toMatchObject({ action: 'reopened', number: 1, commit_id: '' });

    // By pushed keywords on the default branch.
    const fixing = await commitFile('Fixes #1');
    expect(JSON.parse((await at('issues', 3)).body)).toMatchObject({ action: 'closed', number: 1, issue: { state: 'closed' }, commit_id: fixing });
    const reopening = await commitFile('Reopens #1');
    expect(JSON.parse((await at('issues', 4)).body)).toMatchObject({ action: 'reopened', number: 1, issue: { state: 'open' }, commit_id: reopening });

    // By merging a pull request that says it closes the issue: the merge commit. The pull request's own
    // deliveries (closed by hand, reopened) carry no commit.
    await commitFile('a change', { new_branch: 'topic' });
    let res = await s.fetch(`/api/v1/repos/${full}/pulls`, jsonInit('POST', { head: 'topic', base: 'main', title: 'PR', body: 'closes #2' }, h));
    expect(res.status).toBe(201);
    const pr = await json<{ number: number }>(res);
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, jsonInit('PATCH', { state: 'closed' }, h))).status).toBe(201);
    expect(JSON.parse((await at('pull_request', 1)).body)).toMatchObject({ action: 'closed', number: pr.number, commit_id: '' });
    expect((await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, jsonInit('PATCH', { state: 'open' }, h))).status).toBe(201);
    expect(JSON.parse((await at('pull_request', 2)).body)).toMatchObject({ action: 'reopened', number: pr.number, commit_id: '' });
    res = await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}/merge`, jsonInit('POST', { Do: 'merge' }, h));
    expect(res.status).toBe(200);
    const merged = await json<{ merge_commit_sha: string }>(await s.fetch(`/api/v1/repos/${full}/pulls/${pr.number}`, { headers: h }));
    expect(merged.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(JSON.parse((await at('issues', 5)).body)).toMatchObject({ action: 'closed', number: 2, commit_id: merged.merge_commit_sha });
    expect(stateEvents().map((e) => `${e.number}:${e.action}:${e.commit_id}`)).toEqual([
      '1:closed:',
      '1:reopened:',
      `1:closed:${fixing}`,
      `1:reopened:${reopening}`,
      `2:closed:${merged.merge_commit_sha}`,
    ]);
  });
});
