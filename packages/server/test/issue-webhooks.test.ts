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
    const editedTitle = JSON.parse((await at('issues', 2)).body);
    expect(editedTitle).toMatchObject({ action: 'edited', changes: { title: { from: 'Hooked' } }, issue: { title: 'Renamed' } });
    const editedBody = JSON.parse((await at('issues', 3)).body);
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
});
