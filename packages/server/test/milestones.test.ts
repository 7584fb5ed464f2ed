/**
 * Milestones over HTTP: create, read by id or by name, list (state, name, pages), edit (state and closed_at, due
 * date), delete (its issues keep no milestone), issue counts, and who may do what.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { IssueSchema, MilestoneSchema, SYSTEM, matchesSchema, parseGoInt, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

interface Account {
  name: string;
  h: Record<string, string>;
}

let s: TestServer;

async function account(prefix = 'm', options: { admin?: boolean } = {}): Promise<Account> {
  const name = uniq(prefix);
  await createUser(s.host, name, options);
  return { name, h: tokenHeader(await createToken(s.host, name)) };
}

async function repoOf(who: Account, body: Record<string, unknown> = {}): Promise<string> {
  const name = uniq('repo');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, ...body }, who.h));
  expect(res.status).toBe(201);
  return `${who.name}/${name}`;
}

async function expectMilestone(res: Response, status = 200): Promise<any> {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(matchesSchema(MilestoneSchema, body), schemaErrors(MilestoneSchema, body).join('\n')).toBe(true);
  return body;
}

function create(full: string, who: Account, body: Record<string, unknown>): Promise<Response> {
  return s.fetch(`/api/v1/repos/${full}/milestones`, jsonInit('POST', body, who.h));
}

async function titles(full: string, query = '', headers: Record<string, string> = {}): Promise<string[]> {
  const res = await s.fetch(`/api/v1/repos/${full}/milestones${query}`, { headers });
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  for (const m of body) expect(matchesSchema(MilestoneSchema, m), schemaErrors(MilestoneSchema, m).join('\n')).toBe(true);
  return body.map((m: { title: string }) => m.title);
}

async function addCollaborator(full: string, owner: Account, who: Account, permission: string): Promise<void> {
  const res = await s.fetch(`/api/v1/repos/${full}/collaborators/${who.name}`, jsonInit('PUT', { permission }, owner.h));
  expect(res.status).toBe(204);
}

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.cleanup();
});

describe('create and read', () => {
  test('POST makes an open milestone (201); due_on, description and a trimmed title are kept; GET by id and by name', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const due = '2030-02-01T00:00:00Z';
    const m = await expectMilestone(await create(full, alice, { title: '  v1.0 ', description: 'First Version', due_on: due }), 201);
    expect(m).toMatchObject({ title: 'v1.0', description: 'First Version', state: 'open', open_issues: 0, closed_issues: 0, closed_at: null, due_on: due });
    expect(Date.parse(m.created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(m.updated_at).toBe(m.created_at);

    expect(await expectMilestone(await s.fetch(`/api/v1/repos/${full}/milestones/${m.id}`))).toEqual(m);
    expect(await expectMilestone(await s.fetch(`/api/v1/repos/${full}/milestones/v1.0`))).toEqual(m);
    // Go's ParseInt with base 0: a hexadecimal id names the milestone too.
    expect((await expectMilestone(await s.fetch(`/api/v1/repos/${full}/milestones/0x${m.id.toString(16)}`))).id).toBe(m.id);
  });

  test('no due date is null; state closed on create closes it with closed_at; an empty body still creates one', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const open = await expectMilestone(await create(full, alice, { title: 'nodue' }), 201);
    expect(open.due_on).toBeNull();
    const closed = await expectMilestone(await create(full, alice, { title: 'done', state: 'closed' }), 201);
    expect(closed.state).toBe('closed');
    expect(closed.closed_at).not.toBeNull();
    // Forgejo requires nothing of the body: an empty title is stored as it is.
    const empty = await expectMilestone(await create(full, alice, {}), 201);
    expect(empty.title).toBe('');
  });

  test('unknown id or name is 404; a numeric name is found when no milestone has that id', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/milestones/999999`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/milestones/NoEvidenceOfExist`), 404, s.url);
    const numeric = await expectMilestone(await create(full, alice, { title: '424242' }), 201);
    expect((await expectMilestone(await s.fetch(`/api/v1/repos/${full}/milestones/424242`))).id).toBe(numeric.id);
    // Names match exactly, in their case.
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/milestones/V1`), 404, s.url);
  });

  test('a milestone of another repository is not found through this one', async () => {
    const alice = await account('alice');
    const one = await repoOf(alice);
    const two = await repoOf(alice);
    const m = await expectMilestone(await create(one, alice, { title: 'only-here' }), 201);
    await expectApiError(await s.fetch(`/api/v1/repos/${two}/milestones/${m.id}`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${two}/milestones/${m.id}`, jsonInit('PATCH', { title: 'x' }, alice.h)), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${two}/milestones/${m.id}`, { method: 'DELETE', headers: alice.h }), 404, s.url);
  });

  test('bad input: a due date that is not RFC 3339, a state outside the enum, a non-object body', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    await expectApiError(await create(full, alice, { title: 'x', due_on: 'tomorrow' }), 422, s.url);
    await expectApiError(await create(full, alice, { title: 'x', state: 'half' }), 422, s.url);
    const res = await s.fetch(`/api/v1/repos/${full}/milestones`, { method: 'POST', headers: { ...alice.h, 'content-type': 'application/json' }, body: '[1,2]' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await titles(full, '?state=all')).toEqual([]);
  });
});

describe('list', () => {
  test('state: open by default, closed, all (any other text: open); name matches part of it in any case', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const m1 = await expectMilestone(await create(full, alice, { title: 'v1.0', description: 'First Version', due_on: now }), 201);
    await create(full, alice, { title: 'v2.0', description: 'Second Version', due_on: '2030-02-01T00:00:00Z' });
    await create(full, alice, { title: 'v3.0', description: 'Third Version' });
    const temp = await expectMilestone(await create(full, alice, { title: 'temp' }), 201);
    await expectMilestone(await s.fetch(`/api/v1/repos/${full}/milestones/${m1.id}`, jsonInit('PATCH', { description: 'closed', state: 'closed' }, alice.h)));
    expect((await s.fetch(`/api/v1/repos/${full}/milestones/${temp.id}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);

    expect(await titles(full)).toEqual(['v2.0', 'v3.0']);
    expect(await titles(full, '?state=open')).toEqual(['v2.0', 'v3.0']);
    expect(await titles(full, '?state=weird')).toEqual(['v2.0', 'v3.0']);
    expect(await titles(full, '?state=closed')).toEqual(['v1.0']);
    // By due date, those without one last.
    expect(await titles(full, '?state=all')).toEqual(['v1.0', 'v2.0', 'v3.0']);
    expect(await titles(full, '?state=all&name=V3.0')).toEqual(['v3.0']);
    expect(await titles(full, '?state=all&name=v')).toEqual(['v1.0', 'v2.0', 'v3.0']);
    expect(await titles(full, '?state=all&name=%25')).toEqual([]);
  });

  test('pages with X-Total-Count and Link', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    for (const title of ['a', 'b', 'c']) await create(full, alice, { title });
    const res = await s.fetch(`/api/v1/repos/${full}/milestones?limit=2&page=2`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.headers.get('link')).toContain('rel="first"');
    expect((await json(res)).map((m: { title: string }) => m.title)).toEqual(['c']);
  });
});

describe('edit', () => {
  test('title (empty keeps it), description, due_on; closing sets closed_at, any other state reopens', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const m = await expectMilestone(await create(full, alice, { title: 'v1', description: 'd', due_on: '2030-01-01T10:00:00Z' }), 201);
    const patch = (body: unknown) => s.fetch(`/api/v1/repos/${full}/milestones/${m.id}`, jsonInit('PATCH', body, alice.h));

    let edited = await expectMilestone(await patch({ title: '', description: '', due_on: '2031-05-06T07:08:09Z' }));
    expect(edited).toMatchObject({ title: 'v1', description: '', due_on: '2031-05-06T07:08:09Z', state: 'open', closed_at: null });

    edited = await expectMilestone(await patch({ state: 'closed' }));
    expect(edited.state).toBe('closed');
    const closedAt = edited.closed_at;
    expect(closedAt).not.toBeNull();
    // Closing again keeps the first closing time; a zero due date changes nothing.
    edited = await expectMilestone(await patch({ state: 'closed', due_on: '0001-01-01T00:00:00Z' }));
    expect(edited.closed_at).toBe(closedAt);
    expect(edited.due_on).toBe('2031-05-06T07:08:09Z');

    edited = await expectMilestone(await patch({ state: 'whatever' }));
    expect(edited).toMatchObject({ state: 'open', closed_at: null });

    edited = await expectMilestone(await s.fetch(`/api/v1/repos/${full}/milestones/v1`, jsonInit('PATCH', { title: 'v1-final' }, alice.h)));
    expect(edited.title).toBe('v1-final');
    expect(await expectMilestone(await s.fetch(`/api/v1/repos/${full}/milestones/${m.id}`))).toEqual(edited);
  });
});

describe('issues of a milestone', () => {
  test('open/closed counts follow its issues; deleting it takes it off them', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const m = await expectMilestone(await create(full, alice, { title: 'm' }), 201);
    const issues: number[] = [];
    for (const title of ['one', 'two', 'three']) {
      const res = await s.fetch(`/api/v1/repos/${full}/issues`, jsonInit('POST', { title, milestone: m.id }, alice.h));
      const issue = await json(res);
      expect(res.status, JSON.stringify(issue)).toBe(201);
      expect(matchesSchema(IssueSchema, issue), schemaErrors(IssueSchema, issue).join('\n')).toBe(true);
      expect(issue.milestone.id).toBe(m.id);
      issues.push(issue.number);
    }
    expect((await s.fetch(`/api/v1/repos/${full}/issues/${issues[0]}`, jsonInit('PATCH', { state: 'closed' }, alice.h))).status).toBe(201);
    expect(await expectMilestone(await s.fetch(`/api/v1/repos/${full}/milestones/${m.id}`))).toMatchObject({ open_issues: 2, closed_issues: 1 });

    expect((await s.fetch(`/api/v1/repos/${full}/milestones/m`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/milestones/${m.id}`), 404, s.url);
    for (const index of issues) {
      const issue = await json(await s.fetch(`/api/v1/repos/${full}/issues/${index}`));
      expect(issue.milestone).toBeNull();
    }
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/milestones/${m.id}`, { method: 'DELETE', headers: alice.h }), 404, s.url);
  });
});

describe('path ids', () => {
  test("read as Go's ParseInt(s, 0, 64) reads them", () => {
    const cases: [string, number][] = [
      ['12', 12], ['+12', 12], ['-3', -3], ['0x1f', 31], ['0X1F', 31], ['0o17', 15], ['017', 15], ['0b101', 5],
      ['0x_1f', 31], ['1_000', 0], ['0x1__f', 0], ['0x1f_', 0], ['08', 0], ['1e3', 0], ['v1.0', 0], ['', 0],
      ['9'.repeat(30), 0], ['0'.repeat(500), 0],
    ];
    for (const [text, value] of cases) expect(parseGoInt(text), text).toBe(value);
  });
});

describe('lifecycle', () => {
  test('milestones go with their repository', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    await expectMilestone(await create(full, alice, { title: 'gone' }), 201);
    const [owner, name] = full.split('/') as [string, string];
    const access = await s.host.repos.resolve(SYSTEM, owner, name);
    expect((await s.host.milestones.list(SYSTEM, access, { state: 'all' })).total).toBe(1);
    expect((await s.fetch(`/api/v1/repos/${full}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    expect(await s.host.milestones.list(SYSTEM, access, { state: 'all' })).toEqual({ items: [], total: 0 });
  });
});

describe('who may', () => {
  test('anonymous: reads a public repository, writes nothing (401)', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const m = await expectMilestone(await create(full, alice, { title: 'pub' }), 201);
    expect(await titles(full)).toEqual(['pub']);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/milestones`, jsonInit('POST', { title: 'x' })), 401, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/milestones/${m.id}`, jsonInit('PATCH', { title: 'x' })), 401, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/milestones/${m.id}`, { method: 'DELETE' }), 401, s.url);
  });

  test('another user: reads a public repository, 403 on writes; a read collaborator too; a write collaborator may', async () => {
    const alice = await account('alice');
    const bob = await account('bob');
    const carol = await account('carol');
    const full = await repoOf(alice);
    const m = await expectMilestone(await create(full, alice, { title: 'shared' }), 201);
    expect(await titles(full, '', bob.h)).toEqual(['shared']);
    const message = await expectApiError(await create(full, bob, { title: 'x' }), 403, s.url);
    expect(message).toBe('user should have a permission to write to a repo');
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/milestones/${m.id}`, jsonInit('PATCH', { title: 'x' }, bob.h)), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/milestones/${m.id}`, { method: 'DELETE', headers: bob.h }), 403, s.url);

    await addCollaborator(full, alice, bob, 'read');
    await expectApiError(await create(full, bob, { title: 'x' }), 403, s.url);
    await addCollaborator(full, alice, carol, 'write');
    await expectMilestone(await create(full, carol, { title: 'by-carol' }), 201);
    await expectMilestone(await s.fetch(`/api/v1/repos/${full}/milestones/${m.id}`, jsonInit('PATCH', { state: 'closed' }, carol.h)));
    expect(await titles(full, '?state=all')).toEqual(['by-carol', 'shared']);
  });

  test('a private repository: 404 for anonymous and strangers, whatever the milestone; a site admin may write', async () => {
    const alice = await account('alice');
    const bob = await account('bob');
    const admin = await account('root', { admin: true });
    const full = await repoOf(alice, { private: true });
    const m = await expectMilestone(await create(full, alice, { title: 'secret' }), 201);
    for (const headers of [{}, bob.h]) {
      await expectApiError(await s.fetch(`/api/v1/repos/${full}/milestones`, { headers }), 404, s.url);
      await expectApiError(await s.fetch(`/api/v1/repos/${full}/milestones/${m.id}`, { headers }), 404, s.url);
      await expectApiError(await s.fetch(`/api/v1/repos/${full}/milestones/nope`, { headers }), 404, s.url);
    }
    await expectApiError(await create(full, bob, { title: 'x' }), 404, s.url);
    await expectMilestone(await create(full, admin, { title: 'by-admin' }), 201);
    expect(await titles(full, '', admin.h)).toEqual(['by-admin', 'secret']);
  });

  test('a token without the issue scope cannot write milestones', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const readOnly = tokenHeader(await createToken(s.host, alice.name, ['read:issue']));
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/milestones`, jsonInit('POST', { title: 'x' }, readOnly)), 403, s.url);
    expect(await titles(full, '', readOnly)).toEqual([]);
  });
});
