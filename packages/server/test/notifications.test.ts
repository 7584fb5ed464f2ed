/**
 * Notification threads over HTTP: who an issue event notifies (repository watchers, subscribers, participants,
 * assignees, `@mentions`; never the actor, nor who unsubscribed or blocked the actor, nor who may not read the
 * issue), one thread per account and issue coming back to unread, and the endpoints that list and mark them, with
 * their tokens, scopes and someone else's threads.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import { NotificationCountSchema, NotificationThreadSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const ThreadList = Type.Array(NotificationThreadSchema);

interface Account {
  name: string;
  id: number;
  h: Record<string, string>;
}

interface Thread {
  id: number;
  unread: boolean;
  pinned: boolean;
  url: string;
  updated_at: string;
  repository: { full_name: string; permissions?: unknown };
  subject: { title: string; type: string; state: string; url: string; html_url: string; latest_comment_url: string; latest_comment_html_url: string };
}

describe('notifications', () => {
  let s: TestServer;
  let owner: Account;
  let watcher: Account;
  let reader: Account;
  let stranger: Account;
  let admin: Account;

  async function account(prefix: string, options: { admin?: boolean } = {}): Promise<Account> {
    const name = uniq(prefix);
    const user = await createUser(s.host, name, { admin: options.admin });
    return { name, id: user.id, h: tokenHeader(await createToken(s.host, name)) };
  }

  const api = (method: string, path: string, who?: Account, body?: unknown) =>
    s.fetch(`/api/v1${path}`, body === undefined ? { method, headers: who?.h ?? {} } : jsonInit(method, body, who?.h));

  /**
   * A request whose answer is read off the wire: fetch drops the body of a 205 (a "null body status" to it),
   * which Forgejo sends, and Go clients read.
   */
  function raw(method: string, path: string, who: Account): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const req = request(new URL(`api/v1${path}`, s.url), { method, headers: who.h }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }

  async function repo(options: { private?: boolean; readers?: Account[]; watchers?: Account[] } = {}): Promise<string> {
    const name = uniq('r');
    expect((await api('POST', '/user/repos', owner, { name, private: options.private ?? false })).status).toBe(201);
    const path = `${owner.name}/${name}`;
    for (const who of options.readers ?? []) expect((await api('PUT', `/repos/${path}/collaborators/${who.name}`, owner, { permission: 'read' })).status).toBe(204);
    for (const who of options.watchers ?? []) expect((await api('PUT', `/repos/${path}/subscription`, who)).status).toBe(200);
    return path;
  }

  async function issue(path: string, who: Account, body: Record<string, unknown>): Promise<{ number: number; id: number }> {
    const res = await api('POST', `/repos/${path}/issues`, who, body);
    const created = await json(res);
    expect(res.status, JSON.stringify(created)).toBe(201);
    return created;
  }

  async function comment(path: string, index: number, who: Account, body: string): Promise<{ id: number }> {
    const res = await api('POST', `/repos/${path}/issues/${index}/comments`, who, { body });
    const created = await json(res);
    expect(res.status, JSON.stringify(created)).toBe(201);
    return created;
  }

  /** The threads of `who` (after the events in flight were handled). */
  async function threads(who: Account, query = ''): Promise<Thread[]> {
    await s.host.events.idle();
    const res = await api('GET', `/notifications${query}`, who);
    const body = await json<Thread[]>(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(schemaErrors(ThreadList, body)).toEqual([]);
    expect(res.headers.get('x-total-count')).toBe(String(body.length));
    return body;
  }

  async function unreadCount(who: Account): Promise<number> {
    await s.host.events.idle();
    const res = await api('GET', '/notifications/new', who);
    const body = await json(res);
    expect(res.status).toBe(200);
    expect(schemaErrors(NotificationCountSchema, body)).toEqual([]);
    return body.new;
  }

  async function readAll(who: Account) {
    expect((await api('PUT', '/notifications?all=true', who)).status).toBe(205);
  }

  beforeAll(async () => {
    s = await startTestServer();
    owner = await account('own');
    watcher = await account('wat');
    reader = await account('rea');
    stranger = await account('str');
    admin = await account('adm', { admin: true });
  });
  afterAll(async () => s?.cleanup());

  test('a new issue notifies the repository watchers, not its poster; the thread shows the issue', async () => {
    const path = await repo({ watchers: [watcher] });
    await issue(path, owner, { title: 'Watched issue' });
    expect(await threads(owner)).toEqual([]);
    const [thread, ...rest] = await threads(watcher);
    expect(rest).toEqual([]);
    expect(thread).toMatchObject({
      unread: true,
      pinned: false,
      url: `${s.url}api/v1/notifications/threads/${thread!.id}`,
      repository: { full_name: path },
      subject: {
        title: 'Watched issue',
        type: 'Issue',
        state: 'open',
        url: `${s.url}api/v1/repos/${path}/issues/1`,
        html_url: `${s.url}${path}/issues/1`,
        latest_comment_url: '',
        latest_comment_html_url: '',
      },
    });
    // Forgejo leaves out the repository's permissions: they would not be the reader's.
    expect(thread!.repository.permissions).toBeUndefined();
    expect(await unreadCount(watcher)).toBe(1);
    await readAll(watcher);
  });

  test('one thread per issue: a comment brings a read thread back to unread, with its latest comment', async () => {
    const path = await repo({ watchers: [watcher] });
    const { number } = await issue(path, owner, { title: 'Talk' });
    const [first] = await threads(watcher);
    expect((await api('PATCH', `/notifications/threads/${first!.id}`, watcher)).status).toBe(205);
    expect(await threads(watcher)).toEqual([]);

    const posted = await comment(path, number, stranger, 'a remark');
    const [again, ...rest] = await threads(watcher);
    expect(rest).toEqual([]);
    expect(again!.id).toBe(first!.id);
    expect(again!.unread).toBe(true);
    expect(again!.subject.latest_comment_url).toBe(`${s.url}api/v1/repos/${path}/issues/comments/${posted.id}`);
    expect(again!.subject.latest_comment_html_url).toBe(`${s.url}${path}/issues/${number}#issuecomment-${posted.id}`);
    // The poster participates: the comment reached them too; the commenter heard nothing of their own comment.
    expect((await threads(owner)).map((t) => t.subject.title)).toEqual(['Talk']);
    expect(await threads(stranger)).toEqual([]);

    // Now a participant, the commenter hears of the issue being closed; its state shows it.
    expect((await api('PATCH', `/repos/${path}/issues/${number}`, owner, { state: 'closed' })).status).toBe(201);
    const [closed] = await threads(stranger);
    expect(closed!.subject.state).toBe('closed');
    for (const who of [owner, watcher, stranger]) await readAll(who);
  });

  test('mentions reach those who may read the issue; an explicit unsubscription and a block silence the rest', async () => {
    const path = await repo({ private: true, readers: [reader, watcher], watchers: [watcher] });
    // The watcher loses its access: watching no longer brings it anything from here.
    expect((await api('DELETE', `/repos/${path}/collaborators/${watcher.name}`, owner)).status).toBe(204);
    const { number } = await issue(path, owner, { title: 'Private', body: `cc @${reader.name} and @${stranger.name}, not \`@${admin.name}\`` });
    expect((await threads(reader)).map((t) => t.subject.title)).toEqual(['Private']);
    expect(await threads(stranger)).toEqual([]);
    expect(await threads(admin)).toEqual([]);
    expect(await threads(watcher)).toEqual([]);
    await readAll(reader);

    // Mentioned but not following: the next comment does not reach the reader; once subscribed, it does.
    await comment(path, number, owner, 'first remark');
    expect(await threads(reader)).toEqual([]);
    expect((await api('PUT', `/repos/${path}/issues/${number}/subscriptions/${reader.name}`, reader)).status).toBe(201);
    await comment(path, number, owner, 'second remark');
    expect(await threads(reader)).toHaveLength(1);
    await readAll(reader);

    // Unsubscribed explicitly: comments no longer reach it, unless they mention it.
    expect((await api('DELETE', `/repos/${path}/issues/${number}/subscriptions/${reader.name}`, reader)).status).toBe(201);
    await comment(path, number, owner, 'quiet now');
    expect(await threads(reader)).toEqual([]);
    await comment(path, number, owner, `@${reader.name} one more thing`);
    expect(await threads(reader)).toHaveLength(1);
    await readAll(reader);

    // Blocking the actor stops their noise, mentions included.
    expect((await api('PUT', `/user/block/${owner.name}`, reader)).status).toBe(204);
    await comment(path, number, owner, `@${reader.name} are you there?`);
    expect(await threads(reader)).toEqual([]);
    expect((await api('PUT', `/user/unblock/${owner.name}`, reader)).status).toBe(204);
  });

  test('a new assignee is notified; removing an issue removes its threads', async () => {
    const path = await repo({ watchers: [watcher] });
    expect((await api('PUT', `/repos/${path}/collaborators/${reader.name}`, owner, { permission: 'write' })).status).toBe(204);
    const { number } = await issue(path, owner, { title: 'Assigned' });
    await threads(watcher);
    expect(await threads(reader)).toEqual([]);
    expect((await api('PATCH', `/repos/${path}/issues/${number}`, owner, { assignees: [reader.name] })).status).toBe(201);
    expect((await threads(reader)).map((t) => t.subject.title)).toEqual(['Assigned']);

    expect((await api('DELETE', `/repos/${path}/issues/${number}`, owner)).status).toBe(204);
    expect(await threads(reader)).toEqual([]);
    expect(await threads(watcher, '?all=true').then((list) => list.filter((t) => t.repository.full_name === path))).toEqual([]);
  });

  test('threads and subscriptions go with their repository and their account', async () => {
    const fan = await account('fan');
    const path = await repo({ watchers: [fan] });
    const { number } = await issue(path, owner, { title: 'doomed' });
    expect((await api('PUT', `/repos/${path}/issues/${number}/subscriptions/${fan.name}`, fan)).status).toBe(200);
    expect(await threads(fan)).toHaveLength(1);
    expect((await api('DELETE', `/repos/${path}`, owner)).status).toBe(204);
    expect(await threads(fan, '?all=true')).toEqual([]);
    expect(await unreadCount(fan)).toBe(0);

    // An account with a subscription and a thread can be deleted; both go with it.
    const gone = await account('gone');
    const other = await repo();
    const { number: n } = await issue(other, owner, { title: 'left behind' });
    expect((await api('PUT', `/repos/${other}/issues/${n}/subscriptions/${gone.name}`, gone)).status).toBe(201);
    await comment(other, n, owner, 'still there?');
    expect(await threads(gone)).toHaveLength(1);
    expect((await api('DELETE', `/admin/users/${gone.name}?purge=true`, admin)).status).toBe(204);
    await s.host.events.idle();
    const subscribers = await api('GET', `/repos/${other}/issues/${n}/subscriptions`, owner);
    expect(await json(subscribers)).toEqual([]);
  });

  test('statuses: read, pinned and unread, filtered and marked in bulk', async () => {
    const fan = await account('fan');
    const path = await repo({ watchers: [fan] });
    await issue(path, owner, { title: 'one' });
    await issue(path, owner, { title: 'two' });
    await issue(path, owner, { title: 'three' });
    const all = await threads(fan);
    // Latest update first (the same second: the newer thread first).
    expect(all.map((t) => t.subject.title)).toEqual(['three', 'two', 'one']);
    const [three, two, one] = all as [Thread, Thread, Thread];

    const pinned = await raw('PATCH', `/notifications/threads/${two.id}?to-status=pinned`, fan);
    expect(pinned.status).toBe(205);
    expect(schemaErrors(NotificationThreadSchema, pinned.body)).toEqual([]);
    expect(pinned.body).toMatchObject({ id: two.id, pinned: true, unread: false });
    expect((await api('PATCH', `/notifications/threads/${one.id}?to-status=read`, fan)).status).toBe(205);

    // By default: unread and pinned.
    expect((await threads(fan)).map((t) => t.id).sort()).toEqual([three.id, two.id].sort());
    expect((await threads(fan, '?status-types=read')).map((t) => t.id)).toEqual([one.id]);
    expect((await threads(fan, '?status-types=read&status-types=pinned')).map((t) => t.id).sort()).toEqual([one.id, two.id].sort());
    expect(await threads(fan, '?all=true')).toHaveLength(3);
    expect(await unreadCount(fan)).toBe(1);
    expect(await threads(fan, '?subject-type=pull')).toEqual([]);
    expect(await threads(fan, '?subject-type=issue&subject-type=pull')).toHaveLength(2);

    // Marking in bulk (unread ones by default) answers the threads it changed.
    const marked = await raw('PUT', `/repos/${path}/notifications`, fan);
    expect(marked.status).toBe(205);
    const changed = marked.body as Thread[];
    expect(schemaErrors(ThreadList, changed)).toEqual([]);
    expect(changed.map((t) => [t.id, t.unread])).toEqual([[three.id, false]]);
    expect((await threads(fan)).map((t) => t.id)).toEqual([two.id]);

    // Back to unread: every status named, to the status named.
    const reset = await raw('PUT', '/notifications?status-types=read&status-types=pinned&to-status=unread', fan);
    expect(reset.status).toBe(205);
    expect((reset.body as Thread[]).map((t) => t.id).sort()).toEqual([one.id, two.id, three.id].sort());
    expect(await unreadCount(fan)).toBe(3);

    // last_read_at in the past leaves newer threads alone.
    expect((await raw('PUT', '/notifications?last_read_at=2001-01-01T00:00:00Z', fan)).body).toEqual([]);
    expect(await unreadCount(fan)).toBe(3);
    await readAll(fan);
    expect(await unreadCount(fan)).toBe(0);
  });

  test('time filters and malformed input', async () => {
    const fan = await account('fan');
    const path = await repo({ watchers: [fan] });
    await issue(path, owner, { title: 'timed' });
    await threads(fan);
    expect(await threads(fan, '?since=2001-01-01T00:00:00Z')).toHaveLength(1);
    expect(await threads(fan, '?before=2001-01-01T00:00:00Z')).toEqual([]);
    expect(await threads(fan, `?since=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`)).toEqual([]);
    await expectApiError(await api('GET', '/notifications?since=yesterday', fan), 422, s.url);
    await expectApiError(await api('GET', `/repos/${path}/notifications?before=soon`, fan), 422, s.url);
    await expectApiError(await api('PUT', '/notifications?last_read_at=soon', fan), 400, s.url);
    // Unknown names are ignored, as Forgejo ignores them: no status filter at all.
    expect(await threads(fan, '?status-types=bogus')).toHaveLength(1);
    await readAll(fan);
  });

  test("threads of someone else: 403 (site administrators may read them); missing ones: 404", async () => {
    const fan = await account('fan');
    const path = await repo({ watchers: [fan] });
    await issue(path, owner, { title: 'mine' });
    const [thread] = await threads(fan);
    const id = thread!.id;
    const own = await api('GET', `/notifications/threads/${id}`, fan);
    expect(own.status).toBe(200);
    expect(schemaErrors(NotificationThreadSchema, await json(own))).toEqual([]);
    expect(await expectApiError(await api('GET', `/notifications/threads/${id}`, stranger), 403, s.url)).toContain('only user itself and admin');
    await expectApiError(await api('PATCH', `/notifications/threads/${id}`, stranger), 403, s.url);
    expect((await api('GET', `/notifications/threads/${id}`, admin)).status).toBe(200);
    await expectApiError(await api('PATCH', `/notifications/threads/${id}`, admin), 403, s.url);
    await expectApiError(await api('GET', '/notifications/threads/999999', fan), 404, s.url);
    await expectApiError(await api('GET', '/notifications/threads/abc', fan), 404, s.url);
    await expectApiError(await api('PATCH', '/notifications/threads/-1', fan), 404, s.url);
    // The thread is untouched by the refused changes.
    expect((await threads(fan)).map((t) => t.id)).toEqual([id]);
    await readAll(fan);
  });

  test('a token is required, with the notification scope', async () => {
    const path = await repo();
    for (const [method, url] of [
      ['GET', '/notifications'],
      ['PUT', '/notifications'],
      ['GET', '/notifications/new'],
      ['GET', '/notifications/threads/1'],
      ['PATCH', '/notifications/threads/1'],
      ['GET', `/repos/${path}/notifications`],
      ['PUT', `/repos/${path}/notifications`],
    ] as const) {
      expect(await expectApiError(await api(method, url), 401, s.url), `${method} ${url}`).toBe('token is required');
    }
    const readOnly = tokenHeader(await createToken(s.host, watcher.name, ['read:notification']));
    expect((await s.fetch('/api/v1/notifications', { headers: readOnly })).status).toBe(200);
    expect((await s.fetch('/api/v1/notifications/new', { headers: readOnly })).status).toBe(200);
    expect((await s.fetch(`/api/v1/repos/${path}/notifications`, { headers: readOnly })).status).toBe(200);
    expect(await expectApiError(await s.fetch('/api/v1/notifications', { method: 'PUT', headers: readOnly }), 403, s.url)).toContain('write:notification');
    const repoOnly = tokenHeader(await createToken(s.host, watcher.name, ['write:repository', 'write:issue']));
    expect(await expectApiError(await s.fetch('/api/v1/notifications', { headers: repoOnly }), 403, s.url)).toContain('read:notification');
    await expectApiError(await s.fetch(`/api/v1/repos/${path}/notifications`, { headers: repoOnly }), 403, s.url);
  });

  test('a repository the caller may not see is 404', async () => {
    const path = await repo({ private: true });
    await expectApiError(await api('GET', `/repos/${path}/notifications`, stranger), 404, s.url);
    await expectApiError(await api('PUT', `/repos/${path}/notifications`, stranger), 404, s.url);
  });

  test('the swagger document declares the operations as Forgejo does', async () => {
    const doc = await json(await s.fetch('/swagger.v1.json'));
    // Forgejo's operation ids and success statuses (the subscription changes also answer 200 for "no change").
    for (const [path, method, operationId, status] of [
      ['/notifications', 'get', 'notifyGetList', '200'],
      ['/notifications', 'put', 'notifyReadList', '205'],
      ['/notifications/new', 'get', 'notifyNewAvailable', '200'],
      ['/notifications/threads/{id}', 'get', 'notifyGetThread', '200'],
      ['/notifications/threads/{id}', 'patch', 'notifyReadThread', '205'],
      ['/repos/{owner}/{repo}/notifications', 'get', 'notifyGetRepoList', '200'],
      ['/repos/{owner}/{repo}/notifications', 'put', 'notifyReadRepoList', '205'],
      ['/repos/{owner}/{repo}/issues/{index}/subscriptions', 'get', 'issueSubscriptions', '200'],
      ['/repos/{owner}/{repo}/issues/{index}/subscriptions/check', 'get', 'issueCheckSubscription', '200'],
      ['/repos/{owner}/{repo}/issues/{index}/subscriptions/{user}', 'put', 'issueAddSubscription', '201'],
      ['/repos/{owner}/{repo}/issues/{index}/subscriptions/{user}', 'delete', 'issueDeleteSubscription', '201'],
    ] as const) {
      const ours = doc.paths[path]?.[method];
      expect(ours?.operationId, `${method} ${path}`).toBe(operationId);
      expect(Object.keys(ours.responses), `${method} ${path}`).toContain(status);
    }
    const statusTypes = doc.paths['/notifications'].get.parameters.find((p: { name: string }) => p.name === 'status-types');
    expect(statusTypes).toMatchObject({ in: 'query', type: 'array', items: { type: 'string' }, collectionFormat: 'multi' });
  });

  test('pages of threads carry the total', async () => {
    const path = await repo({ watchers: [watcher] });
    for (const title of ['p1', 'p2', 'p3']) await issue(path, owner, { title });
    await threads(watcher);
    const res = await api('GET', `/repos/${path}/notifications?limit=2&page=2`, watcher);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect((await json<Thread[]>(res)).map((t) => t.subject.title)).toEqual(['p1']);
    await readAll(watcher);
  });
});
