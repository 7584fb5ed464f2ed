/**
 * Comments over HTTP: per issue and per repository lists (window, pages), create, get, edit, delete and the
 * deprecated edit/delete paths; who may do each (anonymous, readers, the poster, writers, strangers of a private
 * repository), locked issues, blocked users, `updated_at`, the issue's comment count and `updated_at`, comments
 * that are events, and the cross references a comment body records on the issues it names.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import { CommentSchema, IssueSchema, TimelineCommentSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const CommentListSchema = Type.Array(CommentSchema);
const TimelineSchema = Type.Array(TimelineCommentSchema);

interface Account {
  name: string;
  id: number;
  h: Record<string, string>;
}

describe('comments', () => {
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

  async function issue(path: string, who: Account = owner, body: Record<string, unknown> = { title: uniq('t') }): Promise<any> {
    const res = await call('POST', `${path}/issues`, who, body);
    const created = await json(res);
    expect(res.status, JSON.stringify(created)).toBe(201);
    return created;
  }

  async function comment(path: string, index: number, who: Account, body: string): Promise<any> {
    const res = await call('POST', `${path}/issues/${index}/comments`, who, { body });
    const created = await json(res);
    expect(res.status, JSON.stringify(created)).toBe(201);
    expect(schemaErrors(CommentSchema, created)).toEqual([]);
    return created;
  }

  async function getIssue(path: string, index: number, who: Account = owner): Promise<any> {
    const res = await call('GET', `${path}/issues/${index}`, who);
    expect(res.status).toBe(200);
    return json(res);
  }

  async function timeline(path: string, index: number, who?: Account): Promise<any[]> {
    const res = await call('GET', `${path}/issues/${index}/timeline`, who);
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(schemaErrors(TimelineSchema, body)).toEqual([]);
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

  test('create, get and list: the wire form, the count on the issue, and its updated_at', async () => {
    const path = await repo();
    const target = await issue(path);
    const before = await getIssue(path, target.number);
    await new Promise((r) => setTimeout(r, 1100));
    const first = await comment(path, target.number, reader, 'first comment');
    expect(first).toMatchObject({
      body: 'first comment',
      html_url: `${s.url}${path}/issues/${target.number}#issuecomment-${first.id}`,
      issue_url: `${s.url}${path}/issues/${target.number}`,
      pull_request_url: '',
      original_author: '',
      original_author_id: 0,
      assets: [],
      user: { login: reader.name, id: reader.id },
    });
    // The poster is shown as to anyone: no email of an account that keeps it private, no admin fields.
    expect(first.user.email).toBe(`${reader.name}@noreply.${new URL(s.url).hostname}`);
    expect(first.created_at).toBe(first.updated_at);
    await comment(path, target.number, writer, 'second');

    const after = await getIssue(path, target.number);
    expect(after.comments).toBe(2);
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));

    const got = await call('GET', `${path}/issues/comments/${first.id}`);
    expect(got.status).toBe(200);
    expect(await json(got)).toEqual(first);

    const list = await call('GET', `${path}/issues/${target.number}/comments`);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('2');
    const items = await json(list);
    expect(schemaErrors(CommentListSchema, items)).toEqual([]);
    expect(items.map((c: any) => c.body)).toEqual(['first comment', 'second']);
  });

  test('who may post: anonymous 401, strangers of a private repository 404, readers yes; bad input 422', async () => {
    const path = await repo(true);
    const target = await issue(path);
    await expectApiError(await call('POST', `${path}/issues/${target.number}/comments`, undefined, { body: 'x' }), 401, s.url);
    await expectApiError(await call('POST', `${path}/issues/${target.number}/comments`, stranger, { body: 'x' }), 404, s.url);
    await expectApiError(await call('GET', `${path}/issues/${target.number}/comments`, stranger), 404, s.url);
    await expectApiError(await call('GET', `${path}/issues/${target.number}/comments`), 404, s.url);
    await comment(path, target.number, reader, 'reader speaks');
    await expectApiError(await call('POST', `${path}/issues/${target.number}/comments`, reader, {}), 422, s.url);
    await expectApiError(await call('POST', `${path}/issues/${target.number}/comments`, reader, { body: 12 }), 422, s.url);
    await expectApiError(await call('POST', `${path}/issues/${target.number}/comments`, reader, { body: '' }), 422, s.url);
    await comment(path, target.number, reader, ' ');
    await expectApiError(await call('POST', `${path}/issues/999/comments`, reader, { body: 'x' }), 404, s.url);
    // A comment of a private repository is not found by strangers, not even by its id.
    const listed = await json(await call('GET', `${path}/issues/${target.number}/comments`, reader));
    await expectApiError(await call('GET', `${path}/issues/comments/${listed[0].id}`, stranger), 404, s.url);
  });

  test('edit and delete: the poster and writers may, other readers 403, anonymous 401; counts follow', async () => {
    const path = await repo();
    const target = await issue(path);
    const mine = await comment(path, target.number, reader, 'original');
    await new Promise((r) => setTimeout(r, 1100));

    await expectApiError(await call('PATCH', `${path}/issues/comments/${mine.id}`, undefined, { body: 'x' }), 401, s.url);
    await expectApiError(await call('PATCH', `${path}/issues/comments/${mine.id}`, stranger, { body: 'x' }), 403, s.url);
    await expectApiError(await call('PATCH', `${path}/issues/comments/${mine.id}`, reader, {}), 422, s.url);
    await expectApiError(await call('PATCH', `${path}/issues/comments/${mine.id}`, reader, { body: '' }), 422, s.url);

    const edited = await call('PATCH', `${path}/issues/comments/${mine.id}`, reader, { body: 'edited' });
    const editedBody = await json(edited);
    expect(edited.status, JSON.stringify(editedBody)).toBe(200);
    expect(schemaErrors(CommentSchema, editedBody)).toEqual([]);
    expect(editedBody.body).toBe('edited');
    expect(editedBody.created_at).toBe(mine.created_at);
    expect(Date.parse(editedBody.updated_at)).toBeGreaterThan(Date.parse(mine.updated_at));

    const byWriter = await call('PATCH', `${path}/issues/${target.number}/comments/${mine.id}`, writer, { body: 'by writer' });
    expect(byWriter.status).toBe(200);
    expect((await json(byWriter)).body).toBe('by writer');

    await expectApiError(await call('DELETE', `${path}/issues/comments/${mine.id}`, stranger), 403, s.url);
    await expectApiError(await call('DELETE', `${path}/issues/comments/${mine.id}`), 401, s.url);
    const before = await getIssue(path, target.number);
    expect(before.comments).toBe(1);
    const deleted = await call('DELETE', `${path}/issues/comments/${mine.id}`, writer);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    await expectApiError(await call('GET', `${path}/issues/comments/${mine.id}`), 404, s.url);
    await expectApiError(await call('DELETE', `${path}/issues/comments/${mine.id}`, writer), 404, s.url);
    const after = await getIssue(path, target.number);
    expect(after.comments).toBe(0);
    // Deleting a comment leaves the issue's updated_at where it was, as Forgejo does.
    expect(after.updated_at).toBe(before.updated_at);

    const again = await comment(path, target.number, reader, 'again');
    await expectApiError(await call('DELETE', `${path}/issues/999/comments/${again.id}`, reader), 404, s.url);
    expect((await call('DELETE', `${path}/issues/${target.number}/comments/${again.id}`, reader)).status).toBe(204);
    expect((await getIssue(path, target.number)).comments).toBe(0);
  });

  test('comments posted at once are all counted', async () => {
    const path = await repo();
    const target = await issue(path);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => call('POST', `${path}/issues/${target.number}/comments`, i % 2 ? writer : reader, { body: `c${i}` })));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect((await getIssue(path, target.number)).comments).toBe(8);
    expect((await json(await call('GET', `${path}/issues/${target.number}/comments`))).length).toBe(8);
  });

  test('ids that name nothing here are 404: absent, malformed, another repository', async () => {
    const path = await repo();
    const other = await repo();
    const target = await issue(other);
    const elsewhere = await comment(other, target.number, owner, 'elsewhere');
    await expectApiError(await call('GET', `${path}/issues/comments/${elsewhere.id}`), 404, s.url);
    await expectApiError(await call('PATCH', `${path}/issues/comments/${elsewhere.id}`, owner, { body: 'x' }), 404, s.url);
    await expectApiError(await call('DELETE', `${path}/issues/comments/${elsewhere.id}`, owner), 404, s.url);
    await expectApiError(await call('GET', `${path}/issues/comments/abc`), 404, s.url);
    await expectApiError(await call('GET', `${path}/issues/comments/99999999999999999999`), 404, s.url);
    await expectApiError(await call('GET', `${path}/issues/comments/0`), 404, s.url);
    await expectApiError(await call('GET', `${path}/issues/comments/-1`), 404, s.url);
  });

  test('the repository list: all comments of its issues, paged, windowed by since/before', async () => {
    const path = await repo();
    const a = await issue(path);
    const b = await issue(path);
    await comment(path, a.number, owner, 'a1');
    await comment(path, b.number, owner, 'b1');
    await comment(path, a.number, owner, 'a2');
    const res = await call('GET', `${path}/issues/comments?limit=2`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(res.headers.get('link')).toContain('rel="next"');
    const page1 = await json(res);
    expect(schemaErrors(CommentListSchema, page1)).toEqual([]);
    expect(page1.map((c: any) => c.body)).toEqual(['a1', 'b1']);
    expect(page1[1].issue_url).toBe(`${s.url}${path}/issues/${b.number}`);
    const page2 = await json(await call('GET', `${path}/issues/comments?limit=2&page=2`));
    expect(page2.map((c: any) => c.body)).toEqual(['a2']);

    const future = new Date(Date.now() + 3600_000).toISOString();
    const past = new Date(Date.now() - 3600_000).toISOString();
    expect(await json(await call('GET', `${path}/issues/comments?since=${encodeURIComponent(future)}`))).toEqual([]);
    expect((await json(await call('GET', `${path}/issues/comments?since=${encodeURIComponent(past)}`))).length).toBe(3);
    expect(await json(await call('GET', `${path}/issues/comments?before=${encodeURIComponent(past)}`))).toEqual([]);
    expect((await json(await call('GET', `${path}/issues/${a.number}/comments?before=${encodeURIComponent(future)}`))).length).toBe(2);
    await expectApiError(await call('GET', `${path}/issues/comments?since=yesterday`), 422, s.url);
    // An empty time is no time, as Forgejo reads it.
    expect((await json(await call('GET', `${path}/issues/comments?since=&before=`))).length).toBe(3);
    await expectApiError(await call('GET', `${path}/issues/${a.number}/comments?before=never`), 422, s.url);

    const hidden = await repo(true);
    await expectApiError(await call('GET', `${hidden}/issues/comments`, stranger), 404, s.url);
    expect((await call('GET', `${hidden}/issues/comments`, reader)).status).toBe(200);
  });

  test('an archived repository takes no new comments nor edits (423); deleting still works', async () => {
    const path = await repo();
    const target = await issue(path);
    const before = await comment(path, target.number, writer, 'before archiving');
    expect((await s.fetch(`/api/v1/repos/${path}`, jsonInit('PATCH', { archived: true }, owner.h))).status).toBe(200);
    await expectApiError(await call('POST', `${path}/issues/${target.number}/comments`, writer, { body: 'x' }), 423, s.url);
    await expectApiError(await call('PATCH', `${path}/issues/comments/${before.id}`, writer, { body: 'x' }), 423, s.url);
    expect((await call('GET', `${path}/issues/${target.number}/comments`)).status).toBe(200);
    expect((await call('DELETE', `${path}/issues/comments/${before.id}`, writer)).status).toBe(204);
  });

  test('a locked issue takes comments from writers only', async () => {
    const path = await repo();
    const target = await issue(path);
    const locked = await call('PUT', `${path}/issues/${target.number}/lock`, owner, { reason: 'Too heated' });
    expect([200, 204]).toContain(locked.status);
    const message = await expectApiError(await call('POST', `${path}/issues/${target.number}/comments`, reader, { body: 'x' }), 403, s.url);
    expect(message).toBe('You cannot comment on a locked issue.');
    await comment(path, target.number, writer, 'writers still may');
  });

  test('someone blocked by the poster or the owner may not comment', async () => {
    const path = await repo();
    const target = await issue(path, writer);
    expect((await s.fetch(`/api/v1/user/block/${stranger.name}`, { method: 'PUT', headers: writer.h })).status).toBe(204);
    const message = await expectApiError(await call('POST', `${path}/issues/${target.number}/comments`, stranger, { body: 'x' }), 403, s.url);
    expect(message).toBe('user is blocked by the poster or repository owner');
    await comment(path, target.number, reader, 'others still may');
  });

  test('updated_at: only admins of the repository may set it, within the issue\'s life', async () => {
    const path = await repo();
    const target = await issue(path);
    await new Promise((r) => setTimeout(r, 1100));
    const when = new Date(Date.parse(target.created_at) + 500).toISOString().replace(/\.\d+Z$/, 'Z');
    await expectApiError(await call('POST', `${path}/issues/${target.number}/comments`, writer, { body: 'x', updated_at: when }), 403, s.url);
    await expectApiError(
      await call('POST', `${path}/issues/${target.number}/comments`, owner, { body: 'x', updated_at: new Date(Date.now() + 86400_000).toISOString() }),
      403,
      s.url,
    );
    const backdated = await comment(path, target.number, owner, 'back then');
    expect(backdated.body).toBe('back then');
    const res = await call('POST', `${path}/issues/${target.number}/comments`, owner, { body: 'dated', updated_at: target.created_at });
    const dated = await json(res);
    expect(res.status, JSON.stringify(dated)).toBe(201);
    expect(dated.created_at).toBe(target.created_at);
    expect(dated.updated_at).toBe(target.created_at);
    expect((await getIssue(path, target.number)).updated_at).toBe(target.created_at);
  });

  test('events are not comments: get answers 204, edit 204, delete 204 and keeps them', async () => {
    const path = await repo();
    const first = await issue(path);
    const second = await issue(path);
    await comment(path, second.number, owner, `see #${first.number}`);
    const events = await timeline(path, first.number);
    const ref = events.find((e) => e.type === 'comment_ref');
    expect(ref).toBeDefined();
    const got = await call('GET', `${path}/issues/comments/${ref.id}`);
    expect(got.status).toBe(204);
    expect(await got.text()).toBe('');
    expect((await call('PATCH', `${path}/issues/comments/${ref.id}`, owner, { body: 'x' })).status).toBe(204);
    expect((await call('DELETE', `${path}/issues/comments/${ref.id}`, owner)).status).toBe(204);
    expect((await timeline(path, first.number)).some((e) => e.id === ref.id)).toBe(true);
    // Not the poster and not a writer: refused before the kind is looked at.
    await expectApiError(await call('DELETE', `${path}/issues/comments/${ref.id}`, reader), 403, s.url);
  });

  test('references: a comment naming #N records a comment_ref on issue N; editing it away neuters it', async () => {
    const path = await repo();
    const first = await issue(path);
    const second = await issue(path);
    const before = await getIssue(path, first.number);
    await new Promise((r) => setTimeout(r, 1100));
    const mention = await comment(path, second.number, writer, `related to #${first.number}, and #${second.number} itself, and \`#${first.number}\` twice`);
    let events = (await timeline(path, first.number, reader)).filter((e) => e.type === 'comment_ref');
    expect(events).toHaveLength(1);
    const [ref] = events;
    expect(ref).toMatchObject({ ref_action: 'none', user: { login: writer.name }, ref_issue: { number: second.number }, ref_comment: { id: mention.id } });
    expect(schemaErrors(IssueSchema, ref.ref_issue)).toEqual([]);
    expect(schemaErrors(CommentSchema, ref.ref_comment)).toEqual([]);
    expect(Date.parse((await getIssue(path, first.number)).updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    // The issue itself is never referenced by its own comment.
    expect((await timeline(path, second.number)).some((e) => e.type === 'comment_ref')).toBe(false);

    // Editing keeps a reference still made, and neuters one no longer made.
    await call('PATCH', `${path}/issues/comments/${mention.id}`, writer, { body: `still #${first.number}` });
    events = (await timeline(path, first.number)).filter((e) => e.type === 'comment_ref');
    expect(events.map((e) => e.ref_action)).toEqual(['none']);
    await call('PATCH', `${path}/issues/comments/${mention.id}`, writer, { body: 'nothing now' });
    events = (await timeline(path, first.number)).filter((e) => e.type === 'comment_ref');
    expect(events.map((e) => e.ref_action)).toEqual(['neutered']);
    // Deleting the comment leaves the event, with no comment to show.
    await call('PATCH', `${path}/issues/comments/${mention.id}`, writer, { body: `back to #${first.number}` });
    expect((await call('DELETE', `${path}/issues/comments/${mention.id}`, writer)).status).toBe(204);
    events = (await timeline(path, first.number)).filter((e) => e.type === 'comment_ref');
    expect(events.map((e) => e.ref_action)).toEqual(['neutered', 'neutered']);
    expect(events.map((e) => e.ref_comment)).toEqual([null, null]);
  });

  test('references across repositories: recorded where the poster may read, shown to who may read the origin', async () => {
    const open = await repo();
    const secret = await repo(true);
    const target = await issue(open);
    const origin = await issue(secret);
    // A private repository's issue names a public one: the public issue's timeline shows it to readers of both only.
    await comment(secret, origin.number, reader, `see ${open}#${target.number}`);
    const forReader = (await timeline(open, target.number, reader)).filter((e) => e.type === 'comment_ref');
    expect(forReader).toHaveLength(1);
    expect(forReader[0].ref_issue.repository.full_name).toBe(secret);
    expect((await timeline(open, target.number, stranger)).filter((e) => e.type === 'comment_ref')).toEqual([]);
    expect((await timeline(open, target.number)).filter((e) => e.type === 'comment_ref')).toEqual([]);

    // Naming an issue of a repository the poster may not read records nothing.
    const hidden = await issue(secret);
    const publicIssue = await issue(open);
    await comment(open, publicIssue.number, stranger, `see ${secret}#${hidden.number} and nowhere/none#1`);
    expect((await timeline(secret, hidden.number, owner)).filter((e) => e.type === 'comment_ref')).toEqual([]);
  });
});
