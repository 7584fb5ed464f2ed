/**
 * Repository lists over HTTP: `X-Total-Count` counts exactly the repositories the caller is shown, whoever asks.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SYSTEM } from '@repohost/core';
import { PASSWORD, createToken, createUser, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { json, uniq } from './helpers';

describe('GET /users/{username}/repos and /user/repos: items and X-Total-Count agree', () => {
  let s: TestServer;
  let owner: string;
  const headers: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    s = await startTestServer();
    owner = uniq('own');
    const ownerUser = await createUser(s.host, owner);
    for (const [name, isPrivate] of [['one', false], ['two', false], ['three', true], ['four', true], ['five', true]] as const) {
      await s.host.repos.create(SYSTEM, { name, private: isPrivate }, { owner: ownerUser });
    }
    const other = uniq('oth');
    await createUser(s.host, other);
    const restricted = uniq('res');
    await s.host.users.create(SYSTEM, { username: restricted, email: `${restricted}@example.com`, password: PASSWORD, restricted: true });
    headers.anonymous = {};
    headers.other = tokenHeader(await createToken(s.host, other));
    headers.restricted = tokenHeader(await createToken(s.host, restricted));
    headers.publicOnlyOwner = tokenHeader(await createToken(s.host, owner, ['all', 'public-only']));
    headers.owner = tokenHeader(await createToken(s.host, owner));
  });
  afterAll(async () => s?.cleanup());

  async function list(path: string, who: string, limit: number): Promise<{ names: string[]; total: string | null }> {
    const res = await s.fetch(`${path}?limit=${limit}`, { headers: headers[who] });
    expect(res.status, `${who} ${path}`).toBe(200);
    return { names: (await json<{ name: string }[]>(res)).map((r) => r.name).sort(), total: res.headers.get('x-total-count') };
  }

  test('each caller gets the repositories it may see, and X-Total-Count counts exactly those', async () => {
    const cases = [
      ['anonymous', ['one', 'two']],
      ['other', ['one', 'two']],
      ['restricted', []],
      ['publicOnlyOwner', ['one', 'two']],
      ['owner', ['five', 'four', 'one', 'three', 'two']],
    ] as const;
    for (const [who, expected] of cases) {
      const { names, total } = await list(`/api/v1/users/${owner}/repos`, who, 50);
      expect(names, who).toEqual(expected);
      expect(total, who).toBe(String(expected.length));
      // A short page still counts the whole list.
      expect((await list(`/api/v1/users/${owner}/repos`, who, 1)).total, who).toBe(String(expected.length));
    }
    // The owner's own list through a public-only token.
    const mine = await list('/api/v1/user/repos', 'publicOnlyOwner', 50);
    expect(mine).toEqual({ names: ['one', 'two'], total: '2' });
  });
});
