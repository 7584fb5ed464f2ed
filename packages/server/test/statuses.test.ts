/**
 * Commit statuses: `POST /statuses/{sha}`, `GET /statuses/{sha}`, `GET /commits/{ref}/statuses` and the combined
 * `GET /commits/{ref}/status`, in sha1 and sha256 repositories.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CombinedStatusSchema, CommitStatusSchema, matchesSchema, type User } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

let s: TestServer;
let alice: User;
let h: Record<string, string>;
let bobH: Record<string, string>;

beforeAll(async () => {
  s = await startTestServer();
  alice = await createUser(s.host, uniq('alice'));
  const bob = await createUser(s.host, uniq('bob'));
  h = tokenHeader(await createToken(s.host, alice.name));
  bobH = tokenHeader(await createToken(s.host, bob.name));
});
afterAll(async () => {
  await s?.cleanup();
});

async function repoWithCommit(format: 'sha1' | 'sha256', isPrivate = false): Promise<{ full: string; sha: string }> {
  const name = uniq('st');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true, private: isPrivate, object_format_name: format }, h));
  expect(res.status).toBe(201);
  const full = `${alice.name}/${name}`;
  const commits = await json<any[]>(await s.fetch(`/api/v1/repos/${full}/commits?stat=false`, { headers: h }));
  return { full, sha: commits[0].sha };
}

function post(full: string, sha: string, body: Record<string, unknown>, headers = h) {
  return s.fetch(`/api/v1/repos/${full}/statuses/${sha}`, jsonInit('POST', body, headers));
}

describe.each(['sha1', 'sha256'] as const)('%s repositories', (format) => {
  test('statuses are created, listed by sha and ref, and combine to the worst latest state', async () => {
    const { full, sha } = await repoWithCommit(format);
    const empty = await json<any>(await s.fetch(`/api/v1/repos/${full}/commits/main/status`));
    expect(matchesSchema(CombinedStatusSchema, empty)).toBe(true);
    expect(empty.total_count).toBe(0);
    expect(await json(await s.fetch(`/api/v1/repos/${full}/statuses/${sha}`))).toEqual([]);

    const created = await post(full, sha, { state: 'pending', target_url: 'http://ci.test/1', description: 'started', context: 'ci' });
    expect(created.status).toBe(201);
    const first = await json<any>(created);
    expect(matchesSchema(CommitStatusSchema, first)).toBe(true);
    expect(first).toMatchObject({ status: 'pending', target_url: 'http://ci.test/1', description: 'started', context: 'ci' });
    expect(first.creator.login).toBe(alice.name);
    expect(first.url).toBe(`${s.url}api/v1/repos/${full}/statuses/${sha}`);
    expect((await post(full, sha, { state: 'warning', context: 'lint' })).status).toBe(201);
    expect((await post(full, sha, { state: 'failure', context: 'ci' })).status).toBe(201);
    expect((await post(full, sha.toUpperCase(), { state: 'success', context: 'ci' })).status).toBe(201);

    const list = await s.fetch(`/api/v1/repos/${full}/statuses/${sha}?limit=3`);
    expect(list.headers.get('x-total-count')).toBe('4');
    const statuses = await json<any[]>(list);
    expect(statuses).toHaveLength(3);
    for (const st of statuses) expect(matchesSchema(CommitStatusSchema, st)).toBe(true);
    const byRef = await json<any[]>(await s.fetch(`/api/v1/repos/${full}/commits/main/statuses?state=failure`));
    expect(byRef.map((st) => st.status)).toEqual(['failure']);
    const byIndex = await json<any[]>(await s.fetch(`/api/v1/repos/${full}/commits/main/statuses?sort=highestindex`));
    expect(byIndex.map((st) => st.status)).toEqual(['pending', 'warning', 'failure', 'success']);

    const combined = await json<any>(await s.fetch(`/api/v1/repos/${full}/commits/main/status`));
    expect(matchesSchema(CombinedStatusSchema, combined)).toBe(true);
    expect(combined.sha).toBe(sha);
    expect(combined.total_count).toBe(2);
    expect(combined.statuses.map((st: any) => `${st.context}:${st.status}`).sort()).toEqual(['ci:success', 'lint:warning']);
    expect(combined.state).toBe('warning');
    expect(combined.repository.full_name).toBe(full);
    expect((await post(full, sha, { state: 'error', context: 'deploy' })).status).toBe(201);
    expect((await json<any>(await s.fetch(`/api/v1/repos/${full}/commits/${sha}/status`))).state).toBe('error');
  });

  test('bad input: no token 401, not a writer 403, not hex or no state 422, unknown commit 404', async () => {
    const { full, sha } = await repoWithCommit(format);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/statuses/${sha}`, jsonInit('POST', { state: 'success' })), 401, s.url);
    await expectApiError(await post(full, sha, { state: 'success' }, bobH), 403, s.url);
    await expectApiError(await post(full, 'main', { state: 'success' }), 422, s.url);
    await expectApiError(await post(full, sha, {}), 422, s.url);
    await expectApiError(await post(full, sha, { state: 'bogus' }), 422, s.url);
    await expectApiError(await post(full, 'f'.repeat(format === 'sha1' ? 40 : 64), { state: 'success' }), 404, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/statuses/${sha}?sort=nope`), 422, s.url);
    expect(await json(await s.fetch(`/api/v1/repos/${full}/statuses/${sha}`))).toEqual([]);
  });

  test('statuses are created and read by the complete commit id: an abbreviation is refused (422), unknown refs are 404', async () => {
    const { full, sha } = await repoWithCommit(format);
    const digits = format === 'sha1' ? 40 : 64;
    const refused = await expectApiError(await post(full, sha.slice(0, 10), { state: 'success', context: 'ci' }), 422, s.url);
    expect(refused).toBe(`[sha]: must be the complete commit id (${digits} hexadecimal digits)`);
    await expectApiError(await post(full, `${sha}0`, { state: 'success' }), 422, s.url);
    expect(await json(await s.fetch(`/api/v1/repos/${full}/statuses/${sha}`))).toEqual([]);
    expect((await post(full, sha, { state: 'success', context: 'ci' })).status).toBe(201);

    // Reading by sha: the complete id only; by ref: a branch, a tag or the complete id.
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/statuses/${sha.slice(0, 10)}`), 422, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/statuses/main`), 422, s.url);
    await expectApiError(await s.fetch(`/api/v1/repos/${full}/statuses/${'f'.repeat(digits)}`), 404, s.url);
    expect((await s.fetch(`/api/v1/repos/${full}/statuses/${sha}`)).headers.get('x-total-count')).toBe('1');
    expect((await s.fetch(`/api/v1/repos/${full}/tags`, jsonInit('POST', { tag_name: 'v1', target: 'main' }, h))).status).toBe(201);
    for (const ref of ['main', 'v1', sha]) {
      const combined = await s.fetch(`/api/v1/repos/${full}/commits/${ref}/status`);
      expect(combined.status).toBe(200);
      expect(await json(combined)).toMatchObject({ sha, state: 'success', total_count: 1 });
      expect((await json<unknown[]>(await s.fetch(`/api/v1/repos/${full}/commits/${ref}/statuses`))).length).toBe(1);
    }
    for (const ref of ['nosuch', 'main~0', sha.slice(0, 10), 'f'.repeat(digits)]) {
      await expectApiError(await s.fetch(`/api/v1/repos/${full}/commits/${ref}/status`), 404, s.url);
      await expectApiError(await s.fetch(`/api/v1/repos/${full}/commits/${ref}/statuses`), 404, s.url);
    }
  });
});

test('a private repository’s statuses are 404 to others', async () => {
  const { full, sha } = await repoWithCommit('sha1', true);
  expect((await post(full, sha, { state: 'success', context: 'x' })).status).toBe(201);
  await expectApiError(await post(full, sha, { state: 'success' }, bobH), 404, s.url);
  await expectApiError(await s.fetch(`/api/v1/repos/${full}/statuses/${sha}`, { headers: bobH }), 404, s.url);
  await expectApiError(await s.fetch(`/api/v1/repos/${full}/commits/main/status`), 404, s.url);
});
