/**
 * Locking issues over HTTP (`PUT/DELETE /issues/{index}/lock`): writers lock and unlock, with the reason in the
 * timeline; a locked issue takes comments from writers only; locking twice or unlocking an unlocked issue is 409;
 * anonymous callers, readers and strangers are refused; a private repository stays invisible; bad input is 422.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { IssueSchema, TimelineCommentSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

interface Account {
  name: string;
  id: number;
  h: Record<string, string>;
}

describe('issue lock', () => {
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
    const res = await call('POST', `${path}/issues`, by, { title: 'to lock' });
    expect(res.status).toBe(201);
    return (await json(res)).number as number;
  }

  async function read(path: string, index: number): Promise<any> {
    const res = await call('GET', `${path}/issues/${index}`, owner);
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(schemaErrors(IssueSchema, body)).toEqual([]);
    return body;
  }

  beforeAll(async () => {
    s = await startTestServer();
    owner = await account('own');
    writer = await account('wri');
    reader = await account('rea');
    stranger = await account('str');
  });
  afterAll(async () => s?.cleanup());

  test('lock and unlock: is_locked follows, the timeline records both with the reason, repeats are 409', async () => {
    const path = await repo();
    const index = await issue(path, reader);
    const before = await read(path, index);

    let res = await call('PUT', `${path}/issues/${index}/lock`, writer, { reason: 'Too heated' });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const locked = await read(path, index);
    expect(locked.is_locked).toBe(true);
    expect(Date.parse(locked.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
    expect(await expectApiError(await call('PUT', `${path}/issues/${index}/lock`, owner, { reason: 'Spam' }), 409, s.url)).toMatch(/already locked/);

    // Locked: the poster, a reader, may no longer comment; a writer still may.
    await expectApiError(await call('POST', `${path}/issues/${index}/comments`, reader, { body: 'hello?' }), 403, s.url);
    expect((await call('POST', `${path}/issues/${index}/comments`, writer, { body: 'calm down' })).status).toBe(201);

    res = await call('DELETE', `${path}/issues/${index}/lock`, owner);
    expect(res.status).toBe(204);
    expect((await read(path, index)).is_locked).toBe(false);
    expect(await expectApiError(await call('DELETE', `${path}/issues/${index}/lock`, owner), 409, s.url)).toMatch(/not locked/);
    expect((await call('POST', `${path}/issues/${index}/comments`, reader, { body: 'thanks' })).status).toBe(201);

    const timeline = await json<any[]>(await call('GET', `${path}/issues/${index}/timeline`, owner));
    for (const entry of timeline) expect(schemaErrors(TimelineCommentSchema, entry)).toEqual([]);
    const events = timeline.filter((e) => e.type === 'lock' || e.type === 'unlock');
    expect(events).toMatchObject([
      { type: 'lock', body: 'Too heated', user: { login: writer.name } },
      { type: 'unlock', body: '', user: { login: owner.name } },
    ]);
  });

  test('who may: writers only; anonymous 401; readers and strangers 403; a private repository is 404 to strangers', async () => {
    const path = await repo();
    const index = await issue(path);
    await expectApiError(await call('PUT', `${path}/issues/${index}/lock`, undefined, { reason: 'Spam' }), 401, s.url);
    await expectApiError(await call('PUT', `${path}/issues/${index}/lock`, reader, { reason: 'Spam' }), 403, s.url);
    await expectApiError(await call('PUT', `${path}/issues/${index}/lock`, stranger, { reason: 'Spam' }), 403, s.url);
    expect((await read(path, index)).is_locked).toBe(false);
    expect((await call('PUT', `${path}/issues/${index}/lock`, owner, { reason: 'Spam' })).status).toBe(204);
    await expectApiError(await call('DELETE', `${path}/issues/${index}/lock`, reader), 403, s.url);
    await expectApiError(await call('DELETE', `${path}/issues/${index}/lock`), 401, s.url);
    expect((await read(path, index)).is_locked).toBe(true);

    const hidden = await repo(true);
    const secret = await issue(hidden);
    await expectApiError(await call('PUT', `${hidden}/issues/${secret}/lock`, stranger, { reason: 'Spam' }), 404, s.url);
    await expectApiError(await call('DELETE', `${hidden}/issues/${secret}/lock`, stranger), 404, s.url);
    await expectApiError(await call('PUT', `${hidden}/issues/${secret}/lock`, reader, { reason: 'Spam' }), 403, s.url);
    expect((await call('PUT', `${hidden}/issues/${secret}/lock`, writer, { reason: 'Resolved' })).status).toBe(204);
  });

  test('bad input: a reason is required; unknown issues are 404', async () => {
    const path = await repo();
    const index = await issue(path);
    await expectApiError(await call('PUT', `${path}/issues/${index}/lock`, owner, {}), 422, s.url);
    await expectApiError(await call('PUT', `${path}/issues/${index}/lock`, owner, { reason: '' }), 422, s.url);
    await expectApiError(await call('PUT', `${path}/issues/${index}/lock`, owner, { reason: 7 }), 422, s.url);
    await expectApiError(await call('PUT', `${path}/issues/${index}/lock`, owner, '{'), 422, s.url);
    await expectApiError(await call('PUT', `${path}/issues/999/lock`, owner, { reason: 'Spam' }), 404, s.url);
    await expectApiError(await call('DELETE', `${path}/issues/x/lock`, owner), 404, s.url);
    expect((await read(path, index)).is_locked).toBe(false);
  });

  test('concurrent locks: exactly one succeeds, one lock event', async () => {
    const path = await repo();
    const index = await issue(path);
    const statuses = (await Promise.all([1, 2, 3].map(() => call('PUT', `${path}/issues/${index}/lock`, owner, { reason: 'Off-topic' })))).map((r) => r.status).sort();
    expect(statuses).toEqual([204, 409, 409]);
    const timeline = await json<any[]>(await call('GET', `${path}/issues/${index}/timeline`, owner));
    expect(timeline.filter((e) => e.type === 'lock')).toHaveLength(1);
  });
});
