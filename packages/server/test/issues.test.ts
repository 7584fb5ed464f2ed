/**
 * The issue core over HTTP: create, get, edit, delete, list with filters, search across repositories; who may do
 * each (anonymous, other users, the poster, writers, administrators), private repositories, bad input, and dense
 * unique numbering under concurrency.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import { IssueSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const IssueListSchema = Type.Array(IssueSchema);

interface Account {
  name: string;
  id: number;
  h: Record<string, string>;
}

describe('issues', () => {
  let s: TestServer;
  let owner: Account;
  let writer: Account;
  let reader: Account;
  let stranger: Account;

  async function account(prefix: string, options: { admin?: boolean } = {}): Promise<Account> {
    const name = uniq(prefix);
    const user = await createUser(s.host, name, { admin: options.admin });
    return { name, id: user.id, h: tokenHeader(await createToken(s.host, name)) };
  }

  async function repo(isPrivate = false): Promise<string> {
    const name = uniq('r');
    const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, private: isPrivate }, owner.h));
    expect(res.status).toBe(201);
    const path = `${owner.name}/${name}`;
    expect((await s.fetch(`/api/v1/repos/${path}/collaborators/${writer.name}`, jsonInit('PUT', { permission: 'write' }, owner.h))).status).toBe(204);
    if (isPrivate) expect((await s.fetch(`/api/v1/repos/${path}/collaborators/${reader.name}`, jsonInit('PUT', { permission: 'read' }, owner.h))).status).toBe(204);
    return path;
  }

  const call = (method: string, path: string, who?: Account, body?: unknown) =>
    s.fetch(`/api/v1/repos/${path}`, body === undefined ? { method, headers: who?.h ?? {} } : jsonInit(method, body, who?.h));

  async function create(path: string, who: Account, body: Record<string, unknown>): Promise<any> {
    const res = await call('POST', `${path}/issues`, who, body);
    const issue = await json(res);
    expect(res.status, JSON.stringify(issue)).toBe(201);
    expect(schemaErrors(IssueSchema, issue)).toEqual([]);
    return issue;
  }

  beforeAll(async () => {
    s = await startTestServer();
    owner = await account('own');
    writer = await account('wri');
    reader = await account('rea');
    stranger = await account('str');
  });
  afterAll(async () => s?.cleanup());

  test('create and get: the view is complete, numbered from 1, and counted on the repository', async () => {
    const path = await repo();
    const first = await create(path, owner, { title: '  First  ', body: 'hello', ref: 'main' });
    expect(first).toMatchObject({
      number: 1,
      title: 'First',
      body: 'hello',
      ref: 'main',
      state: 'open',
      closed_at: null,
      due_date: null,
      assignee: null,
      assignees: null,
      labels: [],
      milestone: null,
      comments: 0,
      is_locked: false,
      pull_request: null,
      pin_order: 0,
      user: { login: owner.name },
      repository: { name: path.split('/')[1], owner: owner.name, full_name: path },
    });
    expect(first.url).toBe(`${s.url}api/v1/repos/${path}/issues/1`);
    expect(first.html_url).toBe(`${s.url}${path}/issues/1`);

    const due = '2030-05-06T10:00:00Z';
    const second = await create(path, owner, { title: 'Second', assignees: [writer.name], due_date: due, closed: true });
    expect(second.number).toBe(2);
    expect(second.state).toBe('closed');
    expect(second.closed_at).not.toBeNull();
    expect(second.due_date).toBe(due);
    expect(second.assignees.map((u: { login: string }) => u.login)).toEqual([writer.name]);
    expect(second.assignee.login).toBe(writer.name);

    const got = await call('GET', `${path}/issues/2`, stranger);
    expect(got.status).toBe(200);
    expect(await json(got)).toMatchObject({ id: second.id, number: 2, state: 'closed' });
    const repoView = await json(await call('GET', path, owner));
    expect(repoView.open_issues_count).toBe(1);
  });

  test('bad input and missing rights: 422 names the field, readers set nothing reserved for writers', async () => {
    const path = await repo();
    for (const body of [{ title: '' }, { title: '   ' }, {}, { title: 'x'.repeat(256) }]) {
      const res = await call('POST', `${path}/issues`, owner, body);
      expect((await expectApiError(res, 422, s.url)).toLowerCase()).toContain('title');
    }
    expect(await expectApiError(await call('POST', `${path}/issues`, owner, { title: 'a', assignees: ['nobody-here'] }), 422, s.url)).toContain('nobody-here');
    // A user who cannot write to the repository cannot be assigned.
    expect(await expectApiError(await call('POST', `${path}/issues`, owner, { title: 'a', assignees: [stranger.name] }), 422, s.url)).toContain('access');
    expect(await expectApiError(await call('POST', `${path}/issues`, owner, { title: 'a', milestone: 999999 }), 422, s.url)).toContain('milestone');
    expect(await expectApiError(await call('POST', `${path}/issues`, owner, { title: 'a', due_date: 'tomorrow' }), 422, s.url)).toContain('due_date');
    // Anonymous callers need a token.
    await expectApiError(await call('POST', `${path}/issues`, undefined, { title: 'a' }), 401, s.url);
    // A stranger may open an issue on a public repository; what only writers set is ignored (Forgejo).
    const theirs = await create(path, stranger, { title: 'From outside', assignees: [writer.name], due_date: '2030-01-01T00:00:00Z', labels: [1, 2] });
    expect(theirs.assignees).toBeNull();
    expect(theirs.due_date).toBeNull();
    expect(theirs.labels).toEqual([]);
    // The SDK sends null for the lists it leaves out: null is absent.
    const nulls = await create(path, owner, { title: 'nulls', assignees: null, labels: null, due_date: null, milestone: null });
    expect(nulls.assignees).toBeNull();
    // Paths naming no issue.
    for (const index of ['0', '999', 'abc', '-1', '99999999999999999999']) {
      await expectApiError(await call('GET', `${path}/issues/${index}`, owner), 404, s.url);
    }
  });

  test('private repositories: strangers and anonymous callers get 404 everywhere; readers read', async () => {
    const path = await repo(true);
    const issue = await create(path, owner, { title: 'secret' });
    await expectApiError(await call('GET', `${path}/issues/${issue.number}`, stranger), 404, s.url);
    await expectApiError(await call('GET', `${path}/issues/${issue.number}`), 404, s.url);
    await expectApiError(await call('GET', `${path}/issues`, stranger), 404, s.url);
    await expectApiError(await call('POST', `${path}/issues`, stranger, { title: 'x' }), 404, s.url);
    await expectApiError(await call('PATCH', `${path}/issues/${issue.number}`, stranger, { title: 'x' }), 404, s.url);
    expect((await call('GET', `${path}/issues/${issue.number}`, reader)).status).toBe(200);
    // Search never shows it to those who may not see the repository.
    const found = await json(await s.fetch(`/api/v1/repos/issues/search?q=secret&state=all`, { headers: stranger.h }));
    expect(found.map((i: { id: number }) => i.id)).not.toContain(issue.id);
    const mine = await json(await s.fetch(`/api/v1/repos/issues/search?q=secret&state=all`, { headers: reader.h }));
    expect(mine.map((i: { id: number }) => i.id)).toContain(issue.id);
  });

  test('team units: a team that reads code but not issues sees no issue; one with issue write edits them', async () => {
    const org = uniq('org');
    expect((await s.fetch('/api/v1/orgs', jsonInit('POST', { username: org, visibility: 'private' }, owner.h))).status).toBe(201);
    const name = uniq('r');
    expect((await s.fetch(`/api/v1/orgs/${org}/repos`, jsonInit('POST', { name, private: true }, owner.h))).status).toBe(201);
    const path = `${org}/${name}`;
    const issue = await create(path, owner, { title: 'org issue' });
    const team = async (units: Record<string, string>, member: Account) => {
      const res = await s.fetch(`/api/v1/orgs/${org}/teams`, jsonInit('POST', { name: uniq('t'), permission: 'read', units_map: units }, owner.h));
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect((await s.fetch(`/api/v1/teams/${body.id}/members/${member.name}`, { method: 'PUT', headers: owner.h })).status).toBe(204);
      expect((await s.fetch(`/api/v1/teams/${body.id}/repos/${path}`, { method: 'PUT', headers: owner.h })).status).toBe(204);
    };
    await team({ 'repo.code': 'read' }, reader);
    await team({ 'repo.code': 'read', 'repo.issues': 'write' }, stranger);
    // The repository is visible to the code reader, its issues are not.
    expect((await call('GET', path, reader)).status).toBe(200);
    await expectApiError(await call('GET', `${path}/issues/${issue.number}`, reader), 404, s.url);
    await expectApiError(await call('GET', `${path}/issues`, reader), 404, s.url);
    await expectApiError(await call('POST', `${path}/issues`, reader, { title: 'x' }), 404, s.url);
    const edited = await json(await call('PATCH', `${path}/issues/${issue.number}`, stranger, { title: 'by the issue team', state: 'closed' }));
    expect(edited).toMatchObject({ title: 'by the issue team', state: 'closed' });
    // Search follows the same rule.
    const found = async (who: Account, query = '') =>
      (await json(await s.fetch(`/api/v1/repos/issues/search?state=all&owner=${org}${query}`, { headers: who.h }))).map((i: { id: number }) => i.id);
    expect(await found(reader)).toEqual([]);
    expect(await found(reader, '&type=issues')).toEqual([]);
    expect(await found(stranger)).toEqual([issue.id]);
    expect(await found(stranger, '&type=issues')).toEqual([issue.id]);
    expect(await found(stranger, '&type=pulls')).toEqual([]);
    expect(await found(owner)).toEqual([issue.id]);
  });

  test('edit: the poster edits title, body and state; writers also assignees, milestone and due date; others 403', async () => {
    const path = await repo();
    const issue = await create(path, stranger, { title: 'Mine' });
    await expectApiError(await call('PATCH', `${path}/issues/${issue.number}`, reader, { title: 'theirs' }), 403, s.url);

    let res = await call('PATCH', `${path}/issues/${issue.number}`, stranger, { title: 'Renamed', body: 'new body', state: 'closed', assignees: [writer.name] });
    let edited = await json(res);
    expect(res.status).toBe(201);
    expect(matchesSchema(IssueSchema, edited)).toBe(true);
    expect(edited).toMatchObject({ title: 'Renamed', body: 'new body', state: 'closed', assignees: null });
    expect(edited.closed_at).not.toBeNull();

    res = await call('PATCH', `${path}/issues/${issue.number}`, writer, { state: 'open', assignees: [writer.name, owner.name], due_date: '2031-02-03T08:00:00Z' });
    edited = await json(res);
    expect(res.status).toBe(201);
    expect(edited.state).toBe('open');
    expect(edited.closed_at).toBeNull();
    expect(edited.assignees.map((u: { login: string }) => u.login).sort()).toEqual([writer.name, owner.name].sort());
    // Forgejo keeps the day and ends it at its last second.
    expect(edited.due_date).toBe('2031-02-03T23:59:59Z');

    // null lists are absent (nothing changes); an empty list clears.
    edited = await json(await call('PATCH', `${path}/issues/${issue.number}`, writer, { assignees: null, due_date: null }));
    expect(edited.assignees).toHaveLength(2);
    edited = await json(await call('PATCH', `${path}/issues/${issue.number}`, writer, { assignees: [], unset_due_date: true }));
    expect(edited.assignees).toBeNull();
    expect(edited.due_date).toBeNull();
    // An empty title leaves the title (Forgejo changes it only when one is given); unknown states change nothing.
    edited = await json(await call('PATCH', `${path}/issues/${issue.number}`, writer, { title: '', state: 'sideways' }));
    expect(edited.title).toBe('Renamed');
    expect(edited.state).toBe('open');

    // Every change is one event on the timeline, in order.
    const timeline = await json(await call('GET', `${path}/issues/${issue.number}/timeline`, reader));
    expect(timeline.map((e: { type: string }) => e.type)).toEqual([
      'change_title',
      'close',
      'added_deadline',
      'assignees',
      'assignees',
      'reopen',
      'removed_deadline',
      'assignees',
      'assignees',
    ]);
    expect(timeline[0]).toMatchObject({ old_title: 'Mine', new_title: 'Renamed', user: { login: stranger.name } });
  });

  test('activity feeds: opening, closing and reopening an issue are in the feeds, as Forgejo writes them', async () => {
    const path = await repo();
    const issue = await create(path, writer, { title: 'Fed' });
    expect((await call('PATCH', `${path}/issues/${issue.number}`, writer, { state: 'closed' })).status).toBe(201);
    expect((await call('PATCH', `${path}/issues/${issue.number}`, writer, { state: 'open' })).status).toBe(201);
    const res = await s.fetch(`/api/v1/users/${writer.name}/activities/feeds?only-performed-by=true`, { headers: writer.h });
    expect(res.status).toBe(200);
    const feed = (await json(res)).filter((a: { repo: { full_name: string } }) => a.repo.full_name === path);
    expect(feed.map((a: { op_type: string; content: string }) => [a.op_type, a.content])).toEqual([
      ['reopen_issue', `${issue.number}|Fed`],
      ['close_issue', `${issue.number}|Fed`],
      ['create_issue', `${issue.number}|Fed`],
    ]);
  });

  test('delete: repository administrators only; the number is not reused', async () => {
    const path = await repo();
    const issue = await create(path, writer, { title: 'doomed' });
    await expectApiError(await call('DELETE', `${path}/issues/${issue.number}`, writer), 403, s.url);
    await expectApiError(await call('DELETE', `${path}/issues/${issue.number}`), 401, s.url);
    expect((await call('DELETE', `${path}/issues/${issue.number}`, owner)).status).toBe(204);
    await expectApiError(await call('GET', `${path}/issues/${issue.number}`, owner), 404, s.url);
    const next = await create(path, owner, { title: 'after' });
    expect(next.number).toBe(issue.number + 1);
    const repoView = await json(await call('GET', path, owner));
    expect(repoView.open_issues_count).toBe(1);
  });

  test('concurrent creation: numbers are unique and dense', async () => {
    const path = await repo();
    const created = await Promise.all(Array.from({ length: 25 }, (_, i) => create(path, i % 2 ? owner : writer, { title: `n${i}` })));
    const numbers = created.map((i) => i.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    const res = await call('GET', `${path}/issues?limit=10`, owner);
    expect(res.headers.get('x-total-count')).toBe('25');
    expect(res.headers.get('link')).toContain('rel="next"');
    expect(await json(res)).toHaveLength(10);
  });

  test('list filters: state, q (words and #index), created_by, assigned_by, mentioned_by, since and before, type, sort', async () => {
    const path = await repo();
    const a = await create(path, owner, { title: 'Alpha bug', body: 'ping @' + writer.name });
    const b = await create(path, writer, { title: 'Beta', assignees: [owner.name] });
    const c = await create(path, owner, { title: 'Gamma bug', closed: true });
    const list = async (query: string, who: Account = owner) => {
      const res = await call('GET', `${path}/issues?${query}`, who);
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(matchesSchema(IssueListSchema, body)).toBe(true);
      expect(res.headers.get('x-total-count')).toBe(String(body.length));
      return body.map((i: { number: number }) => i.number).sort();
    };
    expect(await list('')).toEqual([a.number, b.number].sort());
    expect(await list('state=closed')).toEqual([c.number]);
    expect(await list('state=all')).toEqual([a.number, b.number, c.number].sort());
    expect(await list('state=all&q=bug')).toEqual([a.number, c.number].sort());
    expect(await list('state=all&q=BUG')).toEqual([a.number, c.number].sort());
    expect(await list(`state=all&q=%23${b.number}`)).toEqual([b.number]);
    expect(await list(`state=all&created_by=${writer.name}`)).toEqual([b.number]);
    expect(await list(`state=all&assigned_by=${owner.name}`)).toEqual([b.number]);
    expect(await list(`state=all&mentioned_by=${writer.name}`)).toEqual([a.number]);
    expect(await list(`state=all&created_by=nobody-${uniq()}`)).toEqual([]);
    expect(await list('state=all&type=pulls')).toEqual([]);
    expect(await list('state=all&type=issues')).toHaveLength(3);
    expect(await list('state=all&since=2000-01-01T00:00:00Z&before=2999-01-01T00:00:00Z')).toHaveLength(3);
    expect(await list('state=all&before=2000-01-01T00:00:00Z')).toEqual([]);
    const oldest = await json(await call('GET', `${path}/issues?state=all&sort=oldest`, owner));
    expect(oldest.map((i: { number: number }) => i.number)).toEqual([a.number, b.number, c.number]);
    await expectApiError(await call('GET', `${path}/issues?since=yesterday`, owner), 422, s.url);
    await expectApiError(await call('GET', `${path}/issues?state=sideways`, owner), 422, s.url);
  });

  test('search across repositories: keyword, owner, created/assigned flags; flags about the caller need a token', async () => {
    const one = await repo();
    const two = await repo();
    const word = uniq('needle');
    const x = await create(one, owner, { title: `${word} one` });
    const y = await create(two, writer, { title: `${word} two`, assignees: [writer.name] });
    const search = async (query: string, who?: Account) => {
      const res = await s.fetch(`/api/v1/repos/issues/search?${query}`, { headers: who?.h ?? {} });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(matchesSchema(IssueListSchema, body)).toBe(true);
      return body.map((i: { id: number }) => i.id).sort();
    };
    expect(await search(`q=${word}`)).toEqual([x.id, y.id].sort());
    expect(await search(`q=${word}`, stranger)).toEqual([x.id, y.id].sort());
    expect(await search(`q=${word}&owner=${owner.name}`, stranger)).toEqual([x.id, y.id].sort());
    expect(await search(`q=${word}&owner=nobody-${uniq()}`, stranger)).toEqual([]);
    expect(await search(`q=${word}&created=true`, writer)).toEqual([y.id]);
    expect(await search(`q=${word}&assigned=true`, writer)).toEqual([y.id]);
    await expectApiError(await s.fetch(`/api/v1/repos/issues/search?created=true`), 401, s.url);
  });
});
