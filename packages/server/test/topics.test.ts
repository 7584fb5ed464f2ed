/**
 * Repository topics over HTTP: listing (paged), replacing, adding and removing one, who may do it, Forgejo's
 * validation (an invalid name is refused, in a list too), the 25-topic limit, the repository's `topics` field, and `/topics/search` with its counts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InvalidTopicsErrorSchema, RepositorySchema, TopicNameSchema, TopicSearchResultsSchema, matchesSchema, schemaErrors } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

interface Account {
  name: string;
  h: Record<string, string>;
}

let s: TestServer;

async function account(prefix = 't', options: { admin?: boolean } = {}): Promise<Account> {
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

async function topicsOf(full: string, headers: Record<string, string> = {}, query = ''): Promise<string[]> {
  const res = await s.fetch(`/api/v1/repos/${full}/topics${query}`, { headers });
  expect(res.status).toBe(200);
  const body = await json(res);
  expect(matchesSchema(TopicNameSchema, body), schemaErrors(TopicNameSchema, body).join('\n')).toBe(true);
  return body.topics;
}

function put(full: string, topic: string, who: Account): Promise<Response> {
  return s.fetch(`/api/v1/repos/${full}/topics/${encodeURIComponent(topic)}`, { method: 'PUT', headers: who.h });
}

function replace(full: string, topics: unknown, who: Account): Promise<Response> {
  return s.fetch(`/api/v1/repos/${full}/topics`, jsonInit('PUT', { topics }, who.h));
}

async function expectInvalidTopics(res: Response, message: string): Promise<unknown> {
  expect(res.status).toBe(422);
  const body = await json(res);
  expect(matchesSchema(InvalidTopicsErrorSchema, body), schemaErrors(InvalidTopicsErrorSchema, body).join('\n')).toBe(true);
  expect(body.message).toBe(message);
  return body.invalidTopics;
}

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.cleanup();
});

describe('one topic at a time', () => {
  test('PUT adds (204, lower-cased, idempotent), GET lists by name, DELETE removes; Repository.topics follows', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    for (const topic of ['Best', 'git', 'gitea', 'drone', 'git']) expect((await put(full, topic, alice)).status, topic).toBe(204);
    expect(await topicsOf(full)).toEqual(['best', 'drone', 'git', 'gitea']);
    const repo = await json(await s.fetch(`/api/v1/repos/${full}`));
    expect(matchesSchema(RepositorySchema, repo)).toBe(true);
    expect(repo.topics).toEqual(['best', 'drone', 'git', 'gitea']);

    for (const topic of ['drone', 'BEST']) {
      const res = await s.fetch(`/api/v1/repos/${full}/topics/${topic}`, { method: 'DELETE', headers: alice.h });
      expect(res.status, topic).toBe(204);
    }
    expect(await topicsOf(full)).toEqual(['git', 'gitea']);
    expect((await json(await s.fetch(`/api/v1/repos/${full}`))).topics).toEqual(['git', 'gitea']);
  });

  test('deleting a topic the repository does not carry is 404; an invalid name is 422 with invalidTopics', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const missing = await s.fetch(`/api/v1/repos/${full}/topics/absent`, { method: 'DELETE', headers: alice.h });
    await expectApiError(missing, 404, s.url);
    for (const bad of ['-leading', 'has space', 'a_b', 'x'.repeat(36), 'ünï']) {
      expect(await expectInvalidTopics(await put(full, bad, alice), 'Topic name is invalid'), bad).toEqual([bad.toLowerCase()]);
      const del = await s.fetch(`/api/v1/repos/${full}/topics/${encodeURIComponent(bad)}`, { method: 'DELETE', headers: alice.h });
      await expectInvalidTopics(del, 'Topic name is invalid');
    }
    // 35 characters, digits, dots and dashes are fine.
    expect((await put(full, `${'x'.repeat(33)}.1`, alice)).status).toBe(204);
    expect((await put(full, '0-a.b', alice)).status).toBe(204);
    expect(await topicsOf(full)).toEqual(['0-a.b', `${'x'.repeat(33)}.1`]);
  });

  test('the 26th topic is refused with 422, even one the repository has already', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const many = Array.from({ length: 25 }, (_, i) => `t${String(i).padStart(2, '0')}`);
    expect((await replace(full, many, alice)).status).toBe(204);
    expect(await expectInvalidTopics(await put(full, 'one-more', alice), 'Exceeding maximum allowed topics per repo.')).toBeNull();
    await expectInvalidTopics(await put(full, 't00', alice), 'Exceeding maximum allowed topics per repo.');
    expect((await topicsOf(full, {}, '?limit=50')).length).toBe(25);
  });
});

describe('replacing the list', () => {
  test('normalizes, drops empties and duplicates', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    expect((await replace(full, ['Analog', ' digital ', 'cat', 'CAT', '', 'x'.repeat(35)], alice)).status).toBe(204);
    expect(await topicsOf(full)).toEqual(['analog', 'cat', 'digital', 'x'.repeat(35)]);
    // An empty list (or none at all) removes every topic.
    expect((await replace(full, [], alice)).status).toBe(204);
    expect(await topicsOf(full)).toEqual([]);
    expect((await s.fetch(`/api/v1/repos/${full}/topics`, jsonInit('PUT', {}, alice.h))).status).toBe(204);
    expect((await json(await s.fetch(`/api/v1/repos/${full}`))).topics).toEqual([]);
  });

  test('an invalid name in the list is 422 naming every invalid one (normalized), and nothing changes', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    expect((await replace(full, ['keep'], alice)).status).toBe(204);
    const res = await replace(full, ['fine', 'Bad Topic!', '-dash', 'x'.repeat(36), 'ok.too'], alice);
    expect(await expectInvalidTopics(res, 'Topic names are invalid')).toEqual(['bad topic!', '-dash', 'x'.repeat(36)]);
    expect(await topicsOf(full)).toEqual(['keep']);
    expect((await json(await s.fetch(`/api/v1/repos/${full}`))).topics).toEqual(['keep']);
    // A name is not searchable as a topic when it was refused.
    const search = await json(await s.fetch('/api/v1/topics/search?q=dash'));
    expect(search.topics).toEqual([]);
    // The count is checked first, as Gitea does: 26 valid names and an invalid one answer the count.
    const many = [...Array.from({ length: 26 }, (_, i) => `m${i}`), 'Not Valid'];
    expect(await expectInvalidTopics(await replace(full, many, alice), 'Exceeding maximum number of topics per repo')).toBeNull();
  });

  test('more than 25 is 422 with invalidTopics null, and nothing changes', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    expect((await replace(full, ['keep'], alice)).status).toBe(204);
    const many = Array.from({ length: 26 }, (_, i) => `n${i}`);
    expect(await expectInvalidTopics(await replace(full, many, alice), 'Exceeding maximum number of topics per repo')).toBeNull();
    expect(await topicsOf(full)).toEqual(['keep']);
  });

  test('wrong body types are 422 naming the field', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    for (const body of [{ topics: 'a' }, { topics: [1] }]) {
      const res = await s.fetch(`/api/v1/repos/${full}/topics`, jsonInit('PUT', body, alice.h));
      expect(await expectApiError(res, 422, s.url)).toContain('topics');
    }
  });
});

describe('who may', () => {
  test('reading: anyone who sees the repository; a private one is 404 to others', async () => {
    const alice = await account('alice');
    const bob = await account('bob');
    const open = await repoOf(alice);
    const hidden = await repoOf(alice, { private: true });
    expect((await replace(open, ['x'], alice)).status).toBe(204);
    expect((await replace(hidden, ['y'], alice)).status).toBe(204);
    expect(await topicsOf(open)).toEqual(['x']);
    expect(await topicsOf(hidden, alice.h)).toEqual(['y']);
    await expectApiError(await s.fetch(`/api/v1/repos/${hidden}/topics`), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${hidden}/topics`, { headers: bob.h }), 404, s.url);
    await expectApiError(await put(hidden, 'z', bob), 404, s.url);
  });

  test('changing: the owner and site administrators; others 403, anonymous 401 (list) or 403 (one topic)', async () => {
    const alice = await account('alice');
    const bob = await account('bob');
    const admin = await account('admin', { admin: true });
    const full = await repoOf(alice);
    expect(await expectApiError(await put(full, 'x', bob), 403, s.url)).toBe('user should be an owner or a collaborator with admin write of a repository');
    await expectApiError(await replace(full, ['x'], bob), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/topics/x`, { method: 'DELETE', headers: bob.h }), 403, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/topics`, jsonInit('PUT', { topics: ['x'] })), 401, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/topics/x`, { method: 'PUT' }), 403, s.url);
    expect(await topicsOf(full)).toEqual([]);
    expect((await put(full, 'by-admin', admin)).status).toBe(204);
    expect(await topicsOf(full)).toEqual(['by-admin']);
  });

  test('a read-only token may list but not change', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    const reader = { name: alice.name, h: tokenHeader(await createToken(s.host, alice.name, ['read:repository'])) };
    expect(await topicsOf(full, reader.h)).toEqual([]);
    expect(await expectApiError(await put(full, 'x', reader), 403, s.url)).toContain('write:repository');
  });
});

describe('listing pages', () => {
  test('page and limit slice the names; X-Total-Count and Link tell the rest', async () => {
    const alice = await account('alice');
    const full = await repoOf(alice);
    expect((await replace(full, ['e', 'd', 'c', 'b', 'a'], alice)).status).toBe(204);
    const res = await s.fetch(`/api/v1/repos/${full}/topics?page=2&limit=2`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('5');
    expect(res.headers.get('link')).toContain('rel="next"');
    expect((await json(res)).topics).toEqual(['c', 'd']);
    expect(await topicsOf(full, {}, '?page=9&limit=2')).toEqual([]);
    expect(await topicsOf(full, {}, '?limit=0')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await topicsOf(full, {}, '?limit=-1&page=-3')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('GET /topics/search', () => {
  test('finds topics by part of their name, most used first, with repo counts; counts follow changes and deletions', async () => {
    const alice = await account('alice');
    const tag = uniq('k');
    const a = await repoOf(alice);
    const b = await repoOf(alice, { private: true });
    const c = await repoOf(alice);
    expect((await replace(a, [`${tag}-one`, `${tag}-two`], alice)).status).toBe(204);
    expect((await replace(b, [`${tag}-two`], alice)).status).toBe(204);
    expect((await replace(c, [`${tag}-two`, `${tag}-three`], alice)).status).toBe(204);

    const search = async (q: string, extra = '') => {
      const res = await s.fetch(`/api/v1/topics/search?q=${encodeURIComponent(q)}${extra}`);
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(matchesSchema(TopicSearchResultsSchema, body), schemaErrors(TopicSearchResultsSchema, body).join('\n')).toBe(true);
      return { body, total: res.headers.get('x-total-count') };
    };
    const { body, total } = await search(tag.toUpperCase());
    expect(total).toBe('3');
    // Equal counts keep the order the topics were created in.
    expect(body.topics.map((t: { topic_name: string; repo_count: number }) => [t.topic_name, t.repo_count])).toEqual([
      [`${tag}-two`, 3],
      [`${tag}-one`, 1],
      [`${tag}-three`, 1],
    ]);
    expect(body.topics[0].created).toMatch(/^\d{4}-\d\d-\d\dT/);

    // Removing it from one repository and deleting another lower the count.
    expect((await s.fetch(`/api/v1/repos/${a}/topics/${tag}-two`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    expect((await s.fetch(`/api/v1/repos/${c}`, { method: 'DELETE', headers: alice.h })).status).toBe(204);
    const after = await search(`${tag}-two`);
    expect(after.body.topics).toEqual([expect.objectContaining({ topic_name: `${tag}-two`, repo_count: 1 })]);

    // Paging.
    const paged = await search(tag, '&limit=1&page=2');
    expect(paged.total).toBe('3');
    expect(paged.body.topics).toHaveLength(1);
  });

  test('% and _ in the keyword are matched literally', async () => {
    const { status } = await s.fetch('/api/v1/topics/search?q=%25');
    expect(status).toBe(200);
    const res = await s.fetch('/api/v1/topics/search?q=_');
    expect((await json(res)).topics).toEqual([]);
    expect((await json(await s.fetch('/api/v1/topics/search?q=%25'))).topics).toEqual([]);
  });
});
