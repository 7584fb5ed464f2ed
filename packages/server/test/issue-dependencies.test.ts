/**
 * Issue dependencies over HTTP (`/issues/{index}/dependencies` and `/blocks`): add, list, remove, both directions;
 * duplicates, self-dependencies and cycles of any length refused; closing an issue with open dependencies refused
 * (412); timeline events on both issues; across repositories (only those the caller may see); who may do each
 * (anonymous, readers, strangers, writers); a repository with dependencies off; an archived repository; bad input.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Type } from '@sinclair/typebox';
import { IssueSchema, TimelineCommentSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

const IssueListSchema = Type.Array(IssueSchema);

interface Account {
  name: string;
  id: number;
  h: Record<string, string>;
}

describe('issue dependencies', () => {
  let s: TestServer;
  let owner: Account;
  let writer: Account;
  let reader: Account;
  let stranger: Account;
  let other: Account;

  async function account(prefix: string): Promise<Account> {
    const name = uniq(prefix);
    const user = await createUser(s.host, name);
    return { name, id: user.id, h: tokenHeader(await createToken(s.host, name)) };
  }

  const call = (method: string, path: string, who?: Account, body?: unknown) =>
    s.fetch(`/api/v1/repos/${path}`, body === undefined ? { method, headers: who?.h ?? {} } : jsonInit(method, body, who?.h));

  /** A repository of `by` (public unless asked) where `writer` writes and, when private, `reader` reads. */
  async function repo(by: Account, isPrivate = false): Promise<{ path: string; owner: string; name: string }> {
    const name = uniq('r');
    expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, private: isPrivate }, by.h))).status).toBe(201);
    const path = `${by.name}/${name}`;
    expect((await call('PUT', `${path}/collaborators/${writer.name}`, by, { permission: 'write' })).status).toBe(204);
    if (isPrivate) expect((await call('PUT', `${path}/collaborators/${reader.name}`, by, { permission: 'read' })).status).toBe(204);
    return { path, owner: by.name, name };
  }

  async function issue(path: string, title = 'an issue', by = owner): Promise<number> {
    const res = await call('POST', `${path}/issues`, by, { title });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body.number as number;
  }

  async function timeline(path: string, index: number): Promise<any[]> {
    const res = await call('GET', `${path}/issues/${index}/timeline`, owner);
    const body = await json<any[]>(res);
    expect(res.status).toBe(200);
    for (const entry of body) expect(schemaErrors(TimelineCommentSchema, entry)).toEqual([]);
    return body;
  }

  async function numbers(res: Response): Promise<number[]> {
    const body = await json<any[]>(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(schemaErrors(IssueListSchema, body)).toEqual([]);
    // Forgejo sends these lists without pagination headers.
    expect(res.headers.get('x-total-count')).toBeNull();
    return body.map((i) => i.number as number);
  }

  beforeAll(async () => {
    s = await startTestServer();
    owner = await account('own');
    writer = await account('wri');
    reader = await account('rea');
    stranger = await account('str');
    other = await account('oth');
  });
  afterAll(async () => s?.cleanup());

  test('add, list both ways, remove; timeline events on both issues', async () => {
    const r = await repo(owner);
    const a = await issue(r.path, 'needs b');
    const b = await issue(r.path, 'blocker');

    let res = await call('POST', `${r.path}/issues/${a}/dependencies`, writer, { owner: r.owner, repo: r.name, index: b });
    const created = await json(res);
    expect(res.status, JSON.stringify(created)).toBe(201);
    expect(schemaErrors(IssueSchema, created)).toEqual([]);
    expect(created.number).toBe(a);

    expect(await numbers(await call('GET', `${r.path}/issues/${a}/dependencies`))).toEqual([b]);
    expect(await numbers(await call('GET', `${r.path}/issues/${b}/blocks`))).toEqual([a]);
    expect(await numbers(await call('GET', `${r.path}/issues/${b}/dependencies`))).toEqual([]);
    expect(await numbers(await call('GET', `${r.path}/issues/${a}/blocks`))).toEqual([]);

    const onA = (await timeline(r.path, a)).filter((e) => e.type === 'add_dependency');
    const onB = (await timeline(r.path, b)).filter((e) => e.type === 'add_dependency');
    expect(onA).toHaveLength(1);
    expect(onA[0]).toMatchObject({ user: { login: writer.name }, dependent_issue: { number: b } });
    expect(onB).toHaveLength(1);
    expect(onB[0]).toMatchObject({ user: { login: writer.name }, dependent_issue: { number: a } });

    // The owner and repository names match as Forgejo's lookup does, whatever their case.
    res = await call('DELETE', `${r.path}/issues/${a}/dependencies`, writer, { owner: r.owner.toUpperCase(), repo: r.name, index: b });
    const removed = await json(res);
    expect(res.status, JSON.stringify(removed)).toBe(200);
    expect(schemaErrors(IssueSchema, removed)).toEqual([]);
    expect(removed.number).toBe(a);
    expect(await numbers(await call('GET', `${r.path}/issues/${a}/dependencies`))).toEqual([]);
    expect((await timeline(r.path, a)).filter((e) => e.type === 'remove_dependency')).toMatchObject([{ dependent_issue: { number: b } }]);
    expect((await timeline(r.path, b)).filter((e) => e.type === 'remove_dependency')).toMatchObject([{ dependent_issue: { number: a } }]);

    // Removing what is not there.
    await expectApiError(await call('DELETE', `${r.path}/issues/${a}/dependencies`, writer, { owner: r.owner, repo: r.name, index: b }), 404, s.url);
  });

  test('blocks: the issue in the body becomes blocked by the issue in the path', async () => {
    const r = await repo(owner);
    const blocker = await issue(r.path);
    const blocked = await issue(r.path);
    let res = await call('POST', `${r.path}/issues/${blocker}/blocks`, owner, { owner: r.owner, repo: r.name, index: blocked });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.number).toBe(blocker);
    expect(await numbers(await call('GET', `${r.path}/issues/${blocked}/dependencies`))).toEqual([blocker]);
    expect(await numbers(await call('GET', `${r.path}/issues/${blocker}/blocks`))).toEqual([blocked]);

    res = await call('DELETE', `${r.path}/issues/${blocker}/blocks`, owner, { owner: r.owner, repo: r.name, index: blocked });
    expect(res.status).toBe(200);
    expect((await json(res)).number).toBe(blocker);
    expect(await numbers(await call('GET', `${r.path}/issues/${blocked}/dependencies`))).toEqual([]);
    await expectApiError(await call('DELETE', `${r.path}/issues/${blocker}/blocks`, owner, { owner: r.owner, repo: r.name, index: blocked }), 404, s.url);
  });

  test('duplicates, self-dependencies and cycles of any length are refused, and change nothing', async () => {
    const r = await repo(owner);
    const [one, two, three, four] = [await issue(r.path), await issue(r.path), await issue(r.path), await issue(r.path)];
    const dep = (from: number, to: number) => call('POST', `${r.path}/issues/${from}/dependencies`, owner, { owner: r.owner, repo: r.name, index: to });

    expect((await dep(one, two)).status).toBe(201);
    expect(await expectApiError(await dep(one, two), 409, s.url)).toMatch(/already exist/);
    expect(await expectApiError(await dep(one, one), 422, s.url)).toMatch(/itself/);
    // Two issues blocking each other.
    expect(await expectApiError(await dep(two, one), 409, s.url)).toMatch(/circular/);
    // 1 → 2 → 3 → 4, then 4 → 1 would close a cycle of four.
    expect((await dep(two, three)).status).toBe(201);
    expect((await dep(three, four)).status).toBe(201);
    expect(await expectApiError(await dep(four, one), 409, s.url)).toMatch(/circular/);
    expect(await expectApiError(await call('POST', `${r.path}/issues/${one}/blocks`, owner, { owner: r.owner, repo: r.name, index: four }), 409, s.url)).toMatch(/circular/);
    // A diamond is no cycle: 1 → 3 as well.
    expect((await dep(one, three)).status).toBe(201);
    expect(await numbers(await call('GET', `${r.path}/issues/${one}/dependencies`))).toEqual([three, two]);
    expect(await numbers(await call('GET', `${r.path}/issues/${four}/dependencies`))).toEqual([]);
    expect((await timeline(r.path, four)).filter((e) => e.type === 'add_dependency')).toHaveLength(1);
  });

  test('concurrent additions never close a cycle (two issues, and a triangle)', async () => {
    const r = await repo(owner);
    const dep = (from: number, to: number) => call('POST', `${r.path}/issues/${from}/dependencies`, owner, { owner: r.owner, repo: r.name, index: to });
    for (let round = 0; round < 3; round++) {
      const a = await issue(r.path);
      const b = await issue(r.path);
      const c = await issue(r.path);
      const pair = (await Promise.all([dep(a, b), dep(b, a)])).map((res) => res.status).sort();
      expect(pair).toEqual([201, 409]);
      // a and b are linked one way now; c joins a triangle whose three edges arrive together.
      const d = await issue(r.path);
      const triangle = (await Promise.all([dep(c, d), dep(d, a), dep(a, c)])).map((res) => res.status);
      expect(triangle.filter((status) => status === 201).length).toBeLessThanOrEqual(2);
      expect(triangle.every((status) => status === 201 || status === 409)).toBe(true);
    }
  });

  test('closing an issue with open dependencies is refused (412) until they are closed', async () => {
    const r = await repo(owner);
    const a = await issue(r.path);
    const b = await issue(r.path);
    expect((await call('POST', `${r.path}/issues/${a}/dependencies`, owner, { owner: r.owner, repo: r.name, index: b })).status).toBe(201);
    await expectApiError(await call('PATCH', `${r.path}/issues/${a}`, owner, { state: 'closed' }), 412, s.url);
    expect((await json(await call('GET', `${r.path}/issues/${a}`))).state).toBe('open');
    // The blocker itself closes freely; then the blocked issue may close.
    expect((await call('PATCH', `${r.path}/issues/${b}`, owner, { state: 'closed' })).status).toBe(201);
    const res = await call('PATCH', `${r.path}/issues/${a}`, owner, { state: 'closed' });
    expect(res.status).toBe(201);
    expect((await json(res)).state).toBe('closed');
  });

  test('who may: a token is needed to change, write on the blocked issue, read on its blocker', async () => {
    const r = await repo(owner);
    const a = await issue(r.path);
    const b = await issue(r.path);
    const meta = { owner: r.owner, repo: r.name, index: b };
    await expectApiError(await call('POST', `${r.path}/issues/${a}/dependencies`, undefined, meta), 401, s.url);
    await expectApiError(await call('POST', `${r.path}/issues/${a}/blocks`, undefined, meta), 401, s.url);
    // A signed-in user who may only read the public repository: the change is not theirs to make (404, as Forgejo).
    await expectApiError(await call('POST', `${r.path}/issues/${a}/dependencies`, stranger, meta), 404, s.url);
    await expectApiError(await call('POST', `${r.path}/issues/${b}/blocks`, stranger, { ...meta, index: a }), 404, s.url);
    expect(await numbers(await call('GET', `${r.path}/issues/${a}/dependencies`, stranger))).toEqual([]);

    // A private repository: its reader may list, not change; others do not see it at all.
    const p = await repo(owner, true);
    const x = await issue(p.path);
    const y = await issue(p.path);
    expect((await call('POST', `${p.path}/issues/${x}/dependencies`, writer, { owner: p.owner, repo: p.name, index: y })).status).toBe(201);
    expect(await numbers(await call('GET', `${p.path}/issues/${x}/dependencies`, reader))).toEqual([y]);
    await expectApiError(await call('DELETE', `${p.path}/issues/${x}/dependencies`, reader, { owner: p.owner, repo: p.name, index: y }), 404, s.url);
    await expectApiError(await call('GET', `${p.path}/issues/${x}/dependencies`, stranger), 404, s.url);
    await expectApiError(await call('GET', `${p.path}/issues/${x}/dependencies`), 404, s.url);
    await expectApiError(await call('POST', `${p.path}/issues/${x}/dependencies`, stranger, { owner: p.owner, repo: p.name, index: y }), 404, s.url);
  });

  test('across repositories: only those the caller may see, and lists show only readable issues', async () => {
    const mine = await repo(owner);
    const theirs = await repo(other, true);
    const a = await issue(mine.path);
    const hidden = await issue(theirs.path, 'secret', other);
    const meta = { owner: theirs.owner, repo: theirs.name, index: hidden };

    // The owner of `mine` cannot see the private repository: as if it did not exist.
    await expectApiError(await call('POST', `${mine.path}/issues/${a}/dependencies`, owner, meta), 404, s.url);
    await expectApiError(await call('POST', `${mine.path}/issues/${a}/dependencies`, owner, { ...meta, repo: 'no-such-repo' }), 404, s.url);
    // The writer of both may link them.
    let res = await call('POST', `${mine.path}/issues/${a}/dependencies`, writer, meta);
    expect(res.status, JSON.stringify(await json(res.clone()))).toBe(201);
    const listed = await json<any[]>(await call('GET', `${mine.path}/issues/${a}/dependencies`, writer));
    expect(listed.map((i) => [i.repository.full_name, i.number])).toEqual([[theirs.path, hidden]]);
    // Who cannot read the other repository does not see the blocker listed.
    expect(await numbers(await call('GET', `${mine.path}/issues/${a}/dependencies`, owner))).toEqual([]);
    expect(await numbers(await call('GET', `${mine.path}/issues/${a}/dependencies`))).toEqual([]);
    expect(await numbers(await call('GET', `${theirs.path}/issues/${hidden}/blocks`, other))).toEqual([a]);
    // Blocking an issue of the private repository from the public one: write on the blocked side is needed.
    const b = await issue(mine.path);
    res = await call('POST', `${mine.path}/issues/${b}/blocks`, owner, meta);
    await expectApiError(res, 404, s.url);
    res = await call('POST', `${mine.path}/issues/${b}/blocks`, writer, meta);
    expect(res.status).toBe(201);
    expect(await numbers(await call('GET', `${theirs.path}/issues/${hidden}/dependencies`, other))).toEqual([b]);
    expect(await expectApiError(await call('PATCH', `${theirs.path}/issues/${hidden}`, other, { state: 'closed' }), 412, s.url)).toMatch(/dependencies/);
  });

  test('dependencies off: listing and adding blockers is 404; blocks still list', async () => {
    const r = await repo(owner);
    const a = await issue(r.path);
    const b = await issue(r.path);
    expect((await call('POST', `${r.path}/issues/${a}/dependencies`, owner, { owner: r.owner, repo: r.name, index: b })).status).toBe(201);
    const res = await call('PATCH', r.path, owner, { internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: false } });
    expect(res.status).toBe(200);
    await expectApiError(await call('GET', `${r.path}/issues/${a}/dependencies`), 404, s.url);
    await expectApiError(await call('POST', `${r.path}/issues/${b}/dependencies`, owner, { owner: r.owner, repo: r.name, index: a }), 404, s.url);
    await expectApiError(await call('DELETE', `${r.path}/issues/${a}/dependencies`, owner, { owner: r.owner, repo: r.name, index: b }), 404, s.url);
    expect(await numbers(await call('GET', `${r.path}/issues/${b}/blocks`))).toEqual([a]);
  });

  test('an archived repository refuses changes (423); bad input is a 4xx', async () => {
    const r = await repo(owner);
    const a = await issue(r.path);
    const b = await issue(r.path);
    const meta = { owner: r.owner, repo: r.name, index: b };
    await expectApiError(await call('POST', `${r.path}/issues/${a}/dependencies`, owner, { owner: r.owner, repo: r.name }), 422, s.url);
    await expectApiError(await call('POST', `${r.path}/issues/${a}/dependencies`, owner, { ...meta, index: 'two' }), 422, s.url);
    await expectApiError(await call('POST', `${r.path}/issues/${a}/dependencies`, owner, '{"owner":'), 422, s.url);
    await expectApiError(await call('POST', `${r.path}/issues/${a}/dependencies`, owner, { ...meta, index: 999 }), 404, s.url);
    await expectApiError(await call('POST', `${r.path}/issues/${a}/dependencies`, owner, { ...meta, index: -1 }), 404, s.url);
    await expectApiError(await call('POST', `${r.path}/issues/${a}/dependencies`, owner, { ...meta, owner: '' }), 404, s.url);
    await expectApiError(await call('POST', `${r.path}/issues/999/dependencies`, owner, meta), 404, s.url);
    await expectApiError(await call('GET', `${r.path}/issues/abc/blocks`), 404, s.url);

    expect((await call('PATCH', r.path, owner, { archived: true })).status).toBe(200);
    await expectApiError(await call('POST', `${r.path}/issues/${a}/dependencies`, owner, meta), 423, s.url);
    await expectApiError(await call('DELETE', `${r.path}/issues/${a}/dependencies`, owner, meta), 423, s.url);
    // The blocked issue's repository is archived: Forgejo answers 404 on the blocks route.
    await expectApiError(await call('POST', `${r.path}/issues/${b}/blocks`, owner, { ...meta, index: a }), 404, s.url);
  });

  test('pages: page and limit cut the list', async () => {
    const r = await repo(owner);
    const a = await issue(r.path);
    const blockers: number[] = [];
    for (let i = 0; i < 3; i++) {
      const n = await issue(r.path);
      blockers.push(n);
      expect((await call('POST', `${r.path}/issues/${a}/dependencies`, owner, { owner: r.owner, repo: r.name, index: n })).status).toBe(201);
    }
    // Newest first, as Forgejo orders them within a repository.
    const all = await numbers(await call('GET', `${r.path}/issues/${a}/dependencies`));
    expect(all).toEqual([...blockers].reverse());
    expect(await numbers(await call('GET', `${r.path}/issues/${a}/dependencies?limit=2&page=2`))).toEqual([all[2]]);
    expect(await numbers(await call('GET', `${r.path}/issues/${a}/dependencies?limit=2`))).toEqual(all.slice(0, 2));
  });
});

describe('issue dependencies across repositories switched off', () => {
  let s: TestServer;
  afterAll(async () => s?.cleanup());

  test('[service] ALLOW_CROSS_REPOSITORY_DEPENDENCIES = false: another repository is 400, the same one works', async () => {
    s = await startTestServer({ service: { ALLOW_CROSS_REPOSITORY_DEPENDENCIES: false } });
    const name = uniq('own');
    await createUser(s.host, name);
    const h = tokenHeader(await createToken(s.host, name));
    for (const repo of ['one', 'two']) {
      expect((await s.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo }, h))).status).toBe(201);
      for (const title of ['a', 'b']) expect((await s.fetch(`/api/v1/repos/${name}/${repo}/issues`, jsonInit('POST', { title }, h))).status).toBe(201);
    }
    const add = (body: unknown) => s.fetch(`/api/v1/repos/${name}/one/issues/1/dependencies`, jsonInit('POST', body, h));
    expect(await expectApiError(await add({ owner: name, repo: 'two', index: 1 }), 400, s.url)).toBe('CrossRepositoryDependencies not enabled');
    expect((await add({ owner: name, repo: 'one', index: 2 })).status).toBe(201);
  });
});
