/**
 * Issue due dates over HTTP (`POST /issues/{index}/deadline`): set (the day kept, ending at its last second),
 * change, remove (null or Go's zero time), each one timeline event and none when nothing changes; the issue's
 * `due_date` follows; writers only (anonymous 401, readers 403, a private repository 404 to strangers); bad input 422.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { IssueDeadlineSchema, IssueSchema, TimelineCommentSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

interface Account {
  name: string;
  id: number;
  h: Record<string, string>;
}

const ZERO = '0001-01-01T00:00:00Z';

describe('issue deadline', () => {
  let s: TestServer;
  let owner: Account;
  let writer: Account;
  let reader: Account;
  let stranger: Account;

  async function account(prefix: string): Promise<Account> {
    const name = uniq(prefix);
    const user = await createUser(s.host, name);
    return { name, id: user.id, h: tokenHeader(await createToken(s.host, name)) };
  }

  const call = (method: string, path: string, who?: Account, body?: unknown) =>
    s.fetch(`/api/v1/repos/${path}`, body === undefined ? { method, headers: who?.h ?? {} } : jsonInit(method, body, who?.h));

  async function repo(isPrivate = false): Promise<string> {
    const name = uniq('r');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, private: isPrivate }, owner.h))).status).toBe(201);
    const path = `${owner.name}/${name}`;
    expect((await call('PUT', `${path}/collaborators/${writer.name}`, owner, { permission: 'write' })).status).toBe(204);
    expect((await call('PUT', `${path}/collaborators/${reader.name}`, owner, { permission: 'read' })).status).toBe(204);
    return path;
  }

  async function issue(path: string, by = owner): Promise<number> {
    const res = await call('POST', `${path}/issues`, by, { title: 'due soon' });
    expect(res.status).toBe(201);
    return (await json(res)).number as number;
  }

  async function setDeadline(path: string, index: number, body: unknown, who = writer): Promise<string> {
    const res = await call('POST', `${path}/issues/${index}/deadline`, who, body);
    const answer = await json(res);
    expect(res.status, JSON.stringify(answer)).toBe(201);
    expect(schemaErrors(IssueDeadlineSchema, answer)).toEqual([]);
    return answer.due_date as string;
  }

  async function dueDate(path: string, index: number): Promise<string | null> {
    const body = await json(await call('GET', `${path}/issues/${index}`, owner));
    expect(schemaErrors(IssueSchema, body)).toEqual([]);
    return body.due_date as string | null;
  }

  async function deadlineEvents(path: string, index: number): Promise<{ type: string; body: string }[]> {
    const timeline = await json<any[]>(await call('GET', `${path}/issues/${index}/timeline`, owner));
    for (const entry of timeline) expect(schemaErrors(TimelineCommentSchema, entry)).toEqual([]);
    return timeline.filter((e) => /_deadline$/.test(e.type)).map((e) => ({ type: e.type, body: e.body }));
  }

  beforeAll(async () => {
    s = await startTestServer();
    owner = await account('own');
    writer = await account('wri');
    reader = await account('rea');
    stranger = await account('str');
  });
  afterAll(async () => s?.cleanup());

  test('set, change, keep, remove: the day is kept, the issue follows, one event per change', async () => {
    const path = await repo();
    const index = await issue(path);

    expect(await setDeadline(path, index, { due_date: '2026-12-24T10:00:00Z' })).toBe('2026-12-24T23:59:59Z');
    expect(await dueDate(path, index)).toBe('2026-12-24T23:59:59Z');
    // Another time of the same day changes nothing.
    expect(await setDeadline(path, index, { due_date: '2026-12-24T01:02:03Z' })).toBe('2026-12-24T23:59:59Z');
    // The day as written, whatever the offset.
    expect(await setDeadline(path, index, { due_date: '2027-01-01T23:30:00-05:00' })).toBe('2027-01-01T23:59:59Z');
    expect(await dueDate(path, index)).toBe('2027-01-01T23:59:59Z');
    // null removes (the SDK sends it); the answer is Go's zero time.
    expect(await setDeadline(path, index, { due_date: null })).toBe(ZERO);
    expect(await dueDate(path, index)).toBeNull();
    // Removing again, and an empty body, change nothing.
    expect(await setDeadline(path, index, {})).toBe(ZERO);
    expect(await setDeadline(path, index, { due_date: '2027-02-03T00:00:00.5+01:00' })).toBe('2027-02-03T23:59:59Z');
    // Go's zero time removes too.
    expect(await setDeadline(path, index, { due_date: ZERO })).toBe(ZERO);

    expect(await deadlineEvents(path, index)).toEqual([
      { type: 'added_deadline', body: '2026-12-24' },
      { type: 'modified_deadline', body: '2027-01-01|2026-12-24' },
      { type: 'removed_deadline', body: '2027-01-01' },
      { type: 'added_deadline', body: '2027-02-03' },
      { type: 'removed_deadline', body: '2027-02-03' },
    ]);
  });

  test('who may: writers only; anonymous 401; readers and the poster 403; private repositories 404 to strangers', async () => {
    const path = await repo();
    const index = await issue(path, reader);
    const body = { due_date: '2026-12-24T10:00:00Z' };
    await expectApiError(await call('POST', `${path}/issues/${index}/deadline`, undefined, body), 401, s.url);
    await expectApiError(await call('POST', `${path}/issues/${index}/deadline`, reader, body), 403, s.url);
    await expectApiError(await call('POST', `${path}/issues/${index}/deadline`, stranger, body), 403, s.url);
    expect(await dueDate(path, index)).toBeNull();
    expect(await setDeadline(path, index, body, owner)).toBe('2026-12-24T23:59:59Z');

    const hidden = await repo(true);
    const secret = await issue(hidden);
    await expectApiError(await call('POST', `${hidden}/issues/${secret}/deadline`, stranger, body), 404, s.url);
    // Without a token the router stops first (token routes answer 401 before loading anything).
    await expectApiError(await call('POST', `${hidden}/issues/${secret}/deadline`, undefined, body), 401, s.url);
    await expectApiError(await call('POST', `${hidden}/issues/${secret}/deadline`, reader, body), 403, s.url);
    expect(await setDeadline(hidden, secret, body)).toBe('2026-12-24T23:59:59Z');
  });

  test('bad input is 422; unknown issues 404', async () => {
    const path = await repo();
    const index = await issue(path);
    await expectApiError(await call('POST', `${path}/issues/${index}/deadline`, owner, { due_date: 'tomorrow' }), 422, s.url);
    await expectApiError(await call('POST', `${path}/issues/${index}/deadline`, owner, { due_date: '2026-13-45T00:00:00Z' }), 422, s.url);
    await expectApiError(await call('POST', `${path}/issues/${index}/deadline`, owner, { due_date: 1700000000 }), 422, s.url);
    await expectApiError(await call('POST', `${path}/issues/${index}/deadline`, owner, '['), 422, s.url);
    await expectApiError(await call('POST', `${path}/issues/424242/deadline`, owner, { due_date: '2026-12-24T10:00:00Z' }), 404, s.url);
    expect(await dueDate(path, index)).toBeNull();
    expect(await deadlineEvents(path, index)).toEqual([]);
  });
});
