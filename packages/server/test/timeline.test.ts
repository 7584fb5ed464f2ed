/**
 * An issue's timeline over HTTP: every change recorded as an event with the objects its type names (label,
 * milestones, assignee, titles, dependent issue, tracked time, references), in order, paged and windowed; who may
 * read it, and issues of other repositories shown only to who may read them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import { IssueSchema, LabelSchema, MilestoneSchema, TimelineCommentSchema, TrackedTimeSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const TimelineSchema = Type.Array(TimelineCommentSchema);

interface Account {
  name: string;
  id: number;
  h: Record<string, string>;
}

describe('issue timeline', () => {
  let s: TestServer;
  let owner: Account;
  let reader: Account;
  let stranger: Account;

  async function account(prefix: string): Promise<Account> {
    const name = uniq(prefix);
    const user = await createUser(s.host, name);
    return { name, id: user.id, h: tokenHeader(await createToken(s.host, name)) };
  }

  async function repo(isPrivate = false): Promise<string> {
    const name = uniq('r');
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, private: isPrivate }, owner.h));
    expect(res.status).toBe(201);
    const path = `${owner.name}/${name}`;
    if (isPrivate) expect((await s.fetch(`/api/v1/repos/${path}/collaborators/${reader.name}`, jsonInit('PUT', { permission: 'read' }, owner.h))).status).toBe(204);
    return path;
  }

  const call = (method: string, path: string, who?: Account, body?: unknown) =>
    s.fetch(`/api/v1/repos/${path}`, body === undefined ? { method, headers: who?.h ?? {} } : jsonInit(method, body, who?.h));

  async function ok(res: Promise<Response>, status = [200, 201, 204]): Promise<any> {
    const r = await res;
    const text = await r.text();
    expect(status, `${r.status}: ${text}`).toContain(r.status);
    return text ? JSON.parse(text) : undefined;
  }

  async function issue(path: string, body: Record<string, unknown> = {}): Promise<any> {
    return ok(call('POST', `${path}/issues`, owner, { title: uniq('t'), ...body }), [201]);
  }

  async function timeline(path: string, index: number, who: Account | undefined = owner, query = ''): Promise<{ res: Response; items: any[] }> {
    const res = await call('GET', `${path}/issues/${index}/timeline${query}`, who);
    const items = await json(res);
    expect(res.status, JSON.stringify(items)).toBe(200);
    expect(schemaErrors(TimelineSchema, items)).toEqual([]);
    return { res, items };
  }

  beforeAll(async () => {
    s = await startTestServer();
    owner = await account('own');
    reader = await account('rea');
    stranger = await account('str');
  });
  afterAll(async () => s?.cleanup());

  test('each change is an event with what it names, in order', async () => {
    const path = await repo();
    const label = await ok(call('POST', `${path}/labels`, owner, { name: 'bug', color: '#ff0000' }), [201]);
    const m1 = await ok(call('POST', `${path}/milestones`, owner, { title: 'v1' }), [201]);
    const m2 = await ok(call('POST', `${path}/milestones`, owner, { title: 'v2' }), [201]);
    const other = await issue(path);
    const target = await issue(path, { title: 'before' });
    const n = target.number;

    await ok(call('POST', `${path}/issues/${n}/labels`, owner, { labels: [label.id] }));
    await ok(call('DELETE', `${path}/issues/${n}/labels/${label.id}`, owner));
    await ok(call('PATCH', `${path}/issues/${n}`, owner, { milestone: m1.id }));
    await ok(call('PATCH', `${path}/issues/${n}`, owner, { milestone: m2.id }));
    await ok(call('PATCH', `${path}/issues/${n}`, owner, { assignees: [owner.name] }));
    await ok(call('PATCH', `${path}/issues/${n}`, owner, { assignees: [] }));
    await ok(call('PATCH', `${path}/issues/${n}`, owner, { title: 'after' }));
    await ok(call('PATCH', `${path}/issues/${n}`, owner, { state: 'closed' }));
    await ok(call('PATCH', `${path}/issues/${n}`, owner, { state: 'open' }));
    await ok(call('POST', `${path}/issues/${n}/comments`, owner, { body: 'a comment' }), [201]);
    await ok(call('POST', `${path}/issues/${n}/dependencies`, owner, { owner: owner.name, repo: path.split('/')[1], index: other.number }), [201]);
    const time = await ok(call('POST', `${path}/issues/${n}/times`, owner, { time: 3600 }), [200]);

    const { items } = await timeline(path, n, undefined);
    const byType = (type: string) => items.filter((e) => e.type === type);
    for (const e of items) {
      expect(e.issue_url).toBe(`${s.url}${path}/issues/${n}`);
      expect(e.html_url).toBe(`${s.url}${path}/issues/${n}#issuecomment-${e.id}`);
      expect(e.pull_request_url).toBe('');
      expect(e.user.login).toBe(owner.name);
    }
    expect(items.map((e) => e.id)).toEqual([...items.map((e) => e.id)].sort((a, b) => a - b));

    const labels = byType('label');
    expect(labels.map((e) => e.body)).toEqual(['1', '']);
    for (const e of labels) {
      expect(schemaErrors(LabelSchema, e.label)).toEqual([]);
      expect(e.label).toMatchObject({ id: label.id, name: 'bug', url: `${s.url}api/v1/repos/${path}/labels/${label.id}` });
    }

    const milestones = byType('milestone');
    expect(milestones.map((e) => [e.old_milestone?.id ?? 0, e.milestone?.id ?? 0])).toEqual([[0, m1.id], [m1.id, m2.id]]);
    expect(schemaErrors(MilestoneSchema, milestones[1].old_milestone)).toEqual([]);

    const assignees = byType('assignees');
    expect(assignees.map((e) => [e.assignee?.login, e.removed_assignee])).toEqual([[owner.name, false], [owner.name, true]]);

    expect(byType('change_title').map((e) => [e.old_title, e.new_title])).toEqual([['before', 'after']]);
    expect(byType('close')).toHaveLength(1);
    expect(byType('reopen')).toHaveLength(1);
    expect(byType('close')[0].ref_commit_sha).toBe('');
    expect(byType('comment').map((e) => e.body)).toEqual(['a comment']);

    const dependency = byType('add_dependency');
    expect(dependency).toHaveLength(1);
    expect(schemaErrors(IssueSchema, dependency[0].dependent_issue)).toEqual([]);
    expect(dependency[0].dependent_issue.number).toBe(other.number);
    // The other side of the dependency records it too.
    const otherSide = (await timeline(path, other.number)).items.filter((e) => e.type === 'add_dependency');
    expect(otherSide.map((e) => e.dependent_issue.number)).toEqual([n]);

    const tracked = byType('add_time_manual');
    expect(tracked).toHaveLength(1);
    expect(schemaErrors(TrackedTimeSchema, tracked[0].tracked_time)).toEqual([]);
    expect(tracked[0].tracked_time).toMatchObject({ id: time.id, time: 3600, user_name: owner.name });
    // Times are stored as seconds and shown as words.
    expect(tracked[0].body).toBe('1 hour');

    // Objects a type does not name are null; fields it does not fill are empty.
    const comment = byType('comment')[0];
    expect(comment).toMatchObject({ label: null, milestone: null, old_milestone: null, assignee: null, dependent_issue: null, tracked_time: null, ref_issue: null, ref_comment: null, ref_action: 'none', assignee_team: null, resolve_doer: null });
  });

  test('paging and the since/before window', async () => {
    const path = await repo();
    const target = await issue(path);
    for (let i = 0; i < 5; i++) await ok(call('POST', `${path}/issues/${target.number}/comments`, owner, { body: `c${i}` }), [201]);
    const { res, items } = await timeline(path, target.number, owner, '?limit=2&page=2');
    expect(items.map((e) => e.body)).toEqual(['c2', 'c3']);
    expect(res.headers.get('x-total-count')).toBe('5');
    expect(res.headers.get('link')).toContain('rel="next"');
    const future = encodeURIComponent(new Date(Date.now() + 3600_000).toISOString());
    const past = encodeURIComponent(new Date(Date.now() - 3600_000).toISOString());
    expect((await timeline(path, target.number, owner, `?since=${future}`)).items).toEqual([]);
    expect((await timeline(path, target.number, owner, `?since=${past}&before=${future}`)).items).toHaveLength(5);
    await expectApiError(await call('GET', `${path}/issues/${target.number}/timeline?since=soon`, owner), 422, s.url);
  });

  test('who may read it: anyone on a public repository, readers of a private one; 404 else', async () => {
    const open = await repo();
    const openIssue = await issue(open);
    expect((await timeline(open, openIssue.number, undefined)).items).toEqual([]);
    const secret = await repo(true);
    const secretIssue = await issue(secret);
    await timeline(secret, secretIssue.number, reader);
    await expectApiError(await call('GET', `${secret}/issues/${secretIssue.number}/timeline`, stranger), 404, s.url);
    await expectApiError(await call('GET', `${secret}/issues/${secretIssue.number}/timeline`), 404, s.url);
    await expectApiError(await call('GET', `${open}/issues/9999/timeline`), 404, s.url);
    await expectApiError(await call('GET', `${open}/issues/x/timeline`), 404, s.url);
  });

  test('an issue body naming another issue records issue_ref on it', async () => {
    const path = await repo();
    const first = await issue(path);
    const second = await issue(path, { body: `depends on #${first.number}` });
    const refs = (await timeline(path, first.number)).items.filter((e) => e.type === 'issue_ref');
    expect(refs).toHaveLength(1);
    expect(refs[0]).toMatchObject({ ref_issue: { number: second.number }, ref_comment: null, ref_action: 'none' });
    // Editing the body to drop the reference neuters it (Forgejo keeps the event, marked).
    expect((await call('PATCH', `${path}/issues/${second.number}`, owner, { body: 'nothing now' })).status).toBe(201);
    const after = (await timeline(path, first.number)).items.filter((e) => e.type === 'issue_ref');
    expect(after.map((e) => e.ref_action)).toEqual(['neutered']);
  });
});
