/**
 * Pinned issues over HTTP: pin, unpin and move (`/issues/{index}/pin…`), the list (`/issues/pinned`), the
 * `[repository.issue] MAX_PINNED` limit, `pin_order` on Issue, pin/unpin entries in the timeline, gaps closed when a
 * pinned issue goes, and who may do it (repository administrators, as Forgejo's `reqAdmin`).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { IssueSchema, NewIssuePinsAllowedSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

interface Account {
  name: string;
  h: Record<string, string>;
}

let s: TestServer;

async function account(prefix = 'p', options: { admin?: boolean } = {}): Promise<Account> {
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

async function issues(full: string, who: Account, count: number): Promise<number[]> {
  const numbers: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await s.fetch(`/api/v1/repos/${full}/issues`, jsonInit('POST', { title: `issue ${i + 1}` }, who.h));
    expect(res.status).toBe(201);
    numbers.push((await json(res)).number);
  }
  return numbers;
}

function pin(full: string, index: number, headers: Record<string, string>): Promise<Response> {
  return s.fetch(`/api/v1/repos/${full}/issues/${index}/pin`, { method: 'POST', headers });
}

function unpin(full: string, index: number, headers: Record<string, string>): Promise<Response> {
  return s.fetch(`/api/v1/repos/${full}/issues/${index}/pin`, { method: 'DELETE', headers });
}

function move(full: string, index: number, position: number | string, headers: Record<string, string>): Promise<Response> {
  return s.fetch(`/api/v1/repos/${full}/issues/${index}/pin/${position}`, { method: 'PATCH', headers });
}

/** The pinned list as `[number, pin_order]` pairs, every item checked against the Issue schema. */
async function pinned(full: string, headers: Record<string, string> = {}): Promise<[number, number][]> {
  const res = await s.fetch(`/api/v1/repos/${full}/issues/pinned`, { headers });
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(res.headers.get('x-total-count')).toBeNull();
  for (const issue of body) expect(matchesSchema(IssueSchema, issue), schemaErrors(IssueSchema, issue).join('\n')).toBe(true);
  return body.map((issue: { number: number; pin_order: number }) => [issue.number, issue.pin_order]);
}

async function timelineTypes(full: string, index: number, headers: Record<string, string>): Promise<string[]> {
  const res = await s.fetch(`/api/v1/repos/${full}/issues/${index}/timeline`, { headers });
  expect(res.status).toBe(200);
  return (await json(res)).map((event: { type: string }) => event.type);
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

describe('pin and unpin', () => {
  test('pins go last, up to three; the fourth is 400; pinning twice changes nothing; Issue.pin_order shows it', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const [a, b, c, d] = await issues(full, alice, 4);
    expect(await pinned(full)).toEqual([]);
    for (const index of [b!, a!, c!]) expect((await pin(full, index, alice.h)).status).toBe(204);
    expect(await pinned(full)).toEqual([[b, 1], [a, 2], [c, 3]]);

    const message = await expectApiError(await pin(full, d!, alice.h), 400, s.url);
    expect(message).toBe('the max number of pinned issues has been readched');
    expect((await pin(full, a!, alice.h)).status).toBe(204);
    expect(await pinned(full)).toEqual([[b, 1], [a, 2], [c, 3]]);

    const issue = await json(await s.fetch(`/api/v1/repos/${full}/issues/${a}`));
    expect(matchesSchema(IssueSchema, issue)).toBe(true);
    expect(issue.pin_order).toBe(2);
    expect((await json(await s.fetch(`/api/v1/repos/${full}/issues/${d}`))).pin_order).toBe(0);

    const allowed = await json(await s.fetch(`/api/v1/repos/${full}/new_pin_allowed`));
    expect(matchesSchema(NewIssuePinsAllowedSchema, allowed), schemaErrors(NewIssuePinsAllowedSchema, allowed).join('\n')).toBe(true);
    expect(allowed).toEqual({ issues: false, pull_requests: true });
  });

  test('unpinning closes the gap and frees a place; unpinning what is not pinned changes nothing', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const [a, b, c, d] = await issues(full, alice, 4);
    for (const index of [a!, b!, c!]) expect((await pin(full, index, alice.h)).status).toBe(204);
    expect((await unpin(full, b!, alice.h)).status).toBe(204);
    expect(await pinned(full)).toEqual([[a, 1], [c, 2]]);
    expect((await unpin(full, b!, alice.h)).status).toBe(204);
    expect((await unpin(full, d!, alice.h)).status).toBe(204);
    expect((await pin(full, d!, alice.h)).status).toBe(204);
    expect(await pinned(full)).toEqual([[a, 1], [c, 2], [d, 3]]);
    expect((await json(await s.fetch(`/api/v1/repos/${full}/new_pin_allowed`))).issues).toBe(false);
  });

  test('pin and unpin leave entries in the timeline, no-ops none', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const [a] = await issues(full, alice, 1);
    await pin(full, a!, alice.h);
    await pin(full, a!, alice.h);
    await unpin(full, a!, alice.h);
    await unpin(full, a!, alice.h);
    expect((await timelineTypes(full, a!, alice.h)).filter((t) => t === 'pin' || t === 'unpin')).toEqual(['pin', 'unpin']);
  });

  test('concurrent pins never share a position nor pass the limit', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const numbers = await issues(full, alice, 6);
    const statuses = (await Promise.all(numbers.map((index) => pin(full, index, alice.h)))).map((res) => res.status);
    expect(statuses.filter((status) => status === 204)).toHaveLength(3);
    expect(statuses.filter((status) => status === 400)).toHaveLength(3);
    expect((await pinned(full)).map(([, order]) => order)).toEqual([1, 2, 3]);
  });

  test('a deleted pinned issue leaves no gap', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const [a, b, c] = await issues(full, alice, 3);
    for (const index of [a!, b!, c!]) await pin(full, index, alice.h);
    expect((await s.fetch(`/api/v1/repos/${full}/issues/${a}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    expect(await pinned(full)).toEqual([[b, 1], [c, 2]]);
  });
});

describe('[repository.issue] MAX_PINNED', () => {
  test('sets how many issues may be pinned', async () => {
    const other = await startTestServer({ 'repository.issue': { MAX_PINNED: 1 } });
    try {
      const name = uniq('max');
      await createUser(other.host, name);
      const h = tokenHeader(await createToken(other.host, name));
      const repo = uniq('repo');
      expect((await other.fetch('/api/v1/user/repos', jsonInit('POST', { name: repo }, h))).status).toBe(201);
      for (const title of ['a', 'b']) expect((await other.fetch(`/api/v1/repos/${name}/${repo}/issues`, jsonInit('POST', { title }, h))).status).toBe(201);
      expect((await other.fetch(`/api/v1/repos/${name}/${repo}/issues/1/pin`, { method: 'POST', headers: h })).status).toBe(204);
      await expectApiError(await other.fetch(`/api/v1/repos/${name}/${repo}/issues/2/pin`, { method: 'POST', headers: h }), 400, other.url);
    } finally {
      await other.cleanup();
    }
  });
});

describe('move', () => {
  test('to a position, the others making room; past the last is last; not pinned: nothing; below 1: 400', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const [a, b, c, d] = await issues(full, alice, 4);
    for (const index of [a!, b!, c!]) await pin(full, index, alice.h);

    expect((await move(full, c!, 1, alice.h)).status).toBe(204);
    expect(await pinned(full)).toEqual([[c, 1], [a, 2], [b, 3]]);
    expect((await move(full, c!, 2, alice.h)).status).toBe(204);
    expect(await pinned(full)).toEqual([[a, 1], [c, 2], [b, 3]]);
    expect((await move(full, a!, 99, alice.h)).status).toBe(204);
    expect(await pinned(full)).toEqual([[c, 1], [b, 2], [a, 3]]);
    expect((await move(full, a!, 3, alice.h)).status).toBe(204);
    expect(await pinned(full)).toEqual([[c, 1], [b, 2], [a, 3]]);

    expect((await move(full, d!, 1, alice.h)).status).toBe(204);
    expect(await pinned(full)).toEqual([[c, 1], [b, 2], [a, 3]]);
    expect(await expectApiError(await move(full, b!, 0, alice.h), 400, s.url)).toBe("The Position can't be lower than 1");
    await expectApiError(await move(full, b!, 'first', alice.h), 400, s.url);
    await expectApiError(await move(full, b!, -2, alice.h), 400, s.url);
    expect(await pinned(full)).toEqual([[c, 1], [b, 2], [a, 3]]);
    // Moving records nothing in the timeline.
    expect((await timelineTypes(full, c!, alice.h)).filter((t) => t === 'pin' || t === 'unpin')).toEqual(['pin']);
  });
});

describe('who may', () => {
  test('anonymous: 401; a stranger or a writer: 403; an admin collaborator and a site admin may', async () => {
    const alice = await account('alice');
    const bob = await account('bob');
    const carol = await account('carol');
    const root = await account('root', { admin: true });
    const full = await repoOf(alice);
    const [a, b] = await issues(full, alice, 2);
    await expectApiError(await pin(full, a!, {}), 401, s.url);
    await expectApiError(await unpin(full, a!, {}), 401, s.url);
    await expectApiError(await move(full, a!, 1, {}), 401, s.url);

    const forbidden = 'user should be an owner or a collaborator with admin write of a repository';
    expect(await expectApiError(await pin(full, a!, bob.h), 403, s.url)).toBe(forbidden);
    await addCollaborator(full, alice, bob, 'write');
    expect(await expectApiError(await pin(full, a!, bob.h), 403, s.url)).toBe(forbidden);
    await expectApiError(await unpin(full, a!, bob.h), 403, s.url);
    await expectApiError(await move(full, a!, 1, bob.h), 403, s.url);
    expect(await pinned(full, bob.h)).toEqual([]);

    await addCollaborator(full, alice, carol, 'admin');
    expect((await pin(full, a!, carol.h)).status).toBe(204);
    expect((await pin(full, b!, root.h)).status).toBe(204);
    expect((await move(full, b!, 1, carol.h)).status).toBe(204);
    expect(await pinned(full)).toEqual([[b, 1], [a, 2]]);
    // Anyone who may read the issues sees the list.
    expect(await pinned(full, bob.h)).toEqual([[b, 1], [a, 2]]);
  });

  test('a private repository: 404 for anonymous and strangers; an unknown issue is 404', async () => {
    const alice = await account('alice');
    const bob = await account('bob');
    const full = await repoOf(alice, { private: true });
    const [a] = await issues(full, alice, 1);
    expect((await pin(full, a!, alice.h)).status).toBe(204);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/issues/pinned`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/issues/pinned`, { headers: bob.h }), 404, s.url);
    await expectApiError(await pin(full, a!, bob.h), 404, s.url);
    await expectApiError(await unpin(full, a!, bob.h), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/new_pin_allowed`, { headers: bob.h }), 404, s.url);
    await expectApiError(await pin(full, 999, alice.h), 404, s.url);
    expect(await pinned(full, alice.h)).toEqual([[a, 1]]);
  });

  test('with the issues unit off the pinned list is 404', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const res = await s.fetch(`/api/v1/repos/${full}`, jsonInit('PATCH', { has_issues: false }, alice.h));
    expect(res.status).toBe(200);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/issues/pinned`, { headers: alice.h }), 404, s.url);
  });
});
