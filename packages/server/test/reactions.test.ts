/**
 * Reactions over HTTP, on issues and on comments: add (201, or 200 when already there), list, remove (200);
 * kinds `[ui] REACTIONS` does not allow (403), locked issues (writers only), blocked users, anonymous callers,
 * private repositories, comments of other repositories, and what deleting a comment does to its reactions.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import { ReactionSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const ReactionListSchema = Type.Array(ReactionSchema);

interface Account {
  name: string;
  id: number;
  h: Record<string, string>;
}

describe('reactions', () => {
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

  async function issue(path: string, who: Account = owner): Promise<any> {
    const res = await call('POST', `${path}/issues`, who, { title: uniq('t') });
    expect(res.status).toBe(201);
    return json(res);
  }

  async function comment(path: string, index: number, who: Account = owner): Promise<any> {
    const res = await call('POST', `${path}/issues/${index}/comments`, who, { body: 'hi' });
    expect(res.status).toBe(201);
    return json(res);
  }

  async function react(url: string, who: Account, content: unknown, status: number): Promise<any> {
    const res = await call('POST', url, who, { content });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(status);
    expect(schemaErrors(ReactionSchema, body)).toEqual([]);
    return body;
  }

  async function list(url: string, who?: Account): Promise<{ res: Response; items: any[] }> {
    const res = await call('GET', url, who);
    const items = await json(res);
    expect(res.status, JSON.stringify(items)).toBe(200);
    expect(schemaErrors(ReactionListSchema, items)).toEqual([]);
    return { res, items };
  }

  beforeAll(async () => {
    s = await startTestServer();
    owner = await account('own');
    writer = await account('wri');
    reader = await account('rea');
    stranger = await account('str');
  });
  afterAll(async () => s?.cleanup());

  for (const target of ['issue', 'comment'] as const) {
    describe(`on an ${target}`, () => {
      async function place(path: string): Promise<string> {
        const i = await issue(path);
        if (target === 'issue') return `${path}/issues/${i.number}/reactions`;
        const c = await comment(path, i.number);
        return `${path}/issues/comments/${c.id}/reactions`;
      }

      test('add: 201, then 200 for the same again; list in order; remove: 200 and gone', async () => {
        const path = await repo();
        const url = await place(path);
        const first = await react(url, reader, 'heart', 201);
        expect(first).toMatchObject({ content: 'heart', user: { login: reader.name } });
        const again = await react(url, reader, 'heart', 200);
        expect(again).toEqual(first);
        await react(url, writer, '+1', 201);
        await react(url, reader, 'eyes', 201);

        const { items } = await list(url);
        expect(items.map((r) => [r.user.login, r.content])).toEqual([[reader.name, 'heart'], [writer.name, '+1'], [reader.name, 'eyes']]);

        const removed = await call('DELETE', url, reader, { content: 'heart' });
        expect(removed.status).toBe(200);
        expect(await removed.text()).toBe('');
        // Removing what is not there is no error.
        expect((await call('DELETE', url, reader, { content: 'heart' })).status).toBe(200);
        expect((await list(url, reader)).items.map((r) => r.content)).toEqual(['+1', 'eyes']);
      });

      test('kinds outside [ui] REACTIONS are refused with 403; anonymous 401; private repositories 404', async () => {
        const path = await repo(true);
        const url = await place(path);
        expect(await expectApiError(await call('POST', url, reader, { content: 'thumbsup' }), 403, s.url)).toBe("'thumbsup' is not an allowed reaction");
        expect(await expectApiError(await call('POST', url, reader, {}), 403, s.url)).toBe("'' is not an allowed reaction");
        await expectApiError(await call('POST', url, undefined, { content: 'heart' }), 401, s.url);
        await expectApiError(await call('DELETE', url, undefined, { content: 'heart' }), 401, s.url);
        await expectApiError(await call('POST', url, stranger, { content: 'heart' }), 404, s.url);
        await expectApiError(await call('GET', url, stranger), 404, s.url);
        await expectApiError(await call('GET', url), 404, s.url);
        await react(url, reader, 'rocket', 201);
        expect((await list(url, reader)).items).toHaveLength(1);
      });

      test('a locked issue takes reactions from writers only; blocked users may not react', async () => {
        const path = await repo();
        const url = await place(path);
        const index = url.split('/issues/')[1]!.split('/')[0];
        if (target === 'issue') {
          expect((await call('PUT', `${path}/issues/${index}/lock`, owner, { reason: 'Spam' })).status).toBe(204);
          expect(await expectApiError(await call('POST', url, reader, { content: 'heart' }), 403, s.url)).toBe('no permission to change reaction');
          expect(await expectApiError(await call('DELETE', url, reader, { content: 'heart' }), 403, s.url)).toBe('no permission to change reaction');
          await react(url, writer, 'heart', 201);
        }
        // The lock is looked at first; on an open place, a blocked user is refused for the block.
        const open = await place(path);
        expect((await s.fetch(`/api/v1/user/block/${stranger.name}`, { method: 'PUT', headers: owner.h })).status).toBe(204);
        expect(await expectApiError(await call('POST', open, stranger, { content: 'heart' }), 403, s.url)).toBe('user is blocked by the poster or repository owner');
        expect((await s.fetch(`/api/v1/user/unblock/${stranger.name}`, { method: 'PUT', headers: owner.h })).status).toBe(204);
      });
    });
  }

  test('the same reaction sent at once is stored once: one 201, the others 200', async () => {
    const path = await repo();
    const i = await issue(path);
    const url = `${path}/issues/${i.number}/reactions`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => call('POST', url, reader, { content: 'rocket' })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect((await list(url)).items).toHaveLength(1);
  });

  test('issue reactions page; comment reactions stay apart from the issue\'s', async () => {
    const path = await repo();
    const i = await issue(path);
    const c = await comment(path, i.number);
    for (const kind of ['+1', '-1', 'laugh']) await react(`${path}/issues/${i.number}/reactions`, reader, kind, 201);
    await react(`${path}/issues/comments/${c.id}/reactions`, reader, 'hooray', 201);
    const { res, items } = await list(`${path}/issues/${i.number}/reactions?limit=2&page=2`);
    expect(items.map((r) => r.content)).toEqual(['laugh']);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect((await list(`${path}/issues/comments/${c.id}/reactions`)).items.map((r) => r.content)).toEqual(['hooray']);
  });

  test('a comment of another repository is not found; deleting a comment takes its reactions', async () => {
    const path = await repo();
    const other = await repo();
    const i = await issue(other);
    const c = await comment(other, i.number);
    await react(`${other}/issues/comments/${c.id}/reactions`, reader, 'heart', 201);
    await expectApiError(await call('GET', `${path}/issues/comments/${c.id}/reactions`), 404, s.url);
    await expectApiError(await call('POST', `${path}/issues/comments/${c.id}/reactions`, reader, { content: 'heart' }), 404, s.url);
    expect((await call('DELETE', `${other}/issues/comments/${c.id}`, owner)).status).toBe(204);
    await expectApiError(await call('GET', `${other}/issues/comments/${c.id}/reactions`), 404, s.url);
    // A comment with the same kind and user later starts from nothing.
    const next = await comment(other, i.number);
    await react(`${other}/issues/comments/${next.id}/reactions`, reader, 'heart', 201);
  });
});
