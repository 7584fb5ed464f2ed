/**
 * What limits a fork, as Forgejo has it: `[repository] MAX_CREATION_LIMIT` only when
 * `ALLOW_FORK_WITHOUT_MAXIMUM_LIMIT` is off (409, Forgejo's answer to ErrReachLimitOfRepo), the quota of the new
 * owner (413), and `DISABLE_FORKS` (the routes answer 404).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

interface Account {
  name: string;
  h: Record<string, string>;
}

async function account(s: TestServer, options: { admin?: boolean } = {}): Promise<Account> {
  const name = uniq('u');
  await createUser(s.host, name, options);
  return { name, h: tokenHeader(await createToken(s.host, name)) };
}

async function repoOf(s: TestServer, who: Account): Promise<string> {
  const name = uniq('r');
  const res = await s.fetch('/api/v1/user/repos', jsonInit('POST', { name, auto_init: true }, who.h));
  expect(res.status, await res.clone().text()).toBe(201);
  return name;
}

const forkOf = (s: TestServer, who: Account, full: string, body: Record<string, unknown> = {}) => s.fetch(`/api/v1/repos/${full}/forks`, jsonInit('POST', body, who.h));

describe('fork limits', () => {
  let lenient: TestServer;
  let strict: TestServer;
  let disabled: TestServer;
  beforeAll(async () => {
    [lenient, strict, disabled] = await Promise.all([
      startTestServer({ repository: { MAX_CREATION_LIMIT: 1 } }),
      startTestServer({ repository: { MAX_CREATION_LIMIT: 1, ALLOW_FORK_WITHOUT_MAXIMUM_LIMIT: false }, quota: { ENABLED: true } }),
      startTestServer({ repository: { DISABLE_FORKS: true } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([lenient?.cleanup(), strict?.cleanup(), disabled?.cleanup()]);
  });

  test('by default a fork is allowed past MAX_CREATION_LIMIT, while a creation is not', async () => {
    const [alice, bob] = [await account(lenient), await account(lenient)];
    const name = await repoOf(lenient, alice);
    await repoOf(lenient, bob);
    await expectApiError(await lenient.fetch('/api/v1/user/repos', jsonInit('POST', { name: uniq('r') }, bob.h)), 403, lenient.url);
    const res = await forkOf(lenient, bob, `${alice.name}/${name}`);
    expect(res.status, await res.clone().text()).toBe(202);
  });

  test('with ALLOW_FORK_WITHOUT_MAXIMUM_LIMIT off, a fork past the limit is refused with 409; site administrators are not limited', async () => {
    const [alice, bob] = [await account(strict), await account(strict)];
    const admin = await account(strict, { admin: true });
    const name = await repoOf(strict, alice);
    await repoOf(strict, bob);
    const message = await expectApiError(await forkOf(strict, bob, `${alice.name}/${name}`), 409, strict.url);
    expect(message).toContain('maximum limit of repositories');
    await repoOf(strict, admin);
    expect((await forkOf(strict, admin, `${alice.name}/${name}`)).status).toBe(202);
  });

  test('an owner over its quota cannot fork (413 naming it)', async () => {
    const [alice, carol] = [await account(strict), await account(strict)];
    const admin = await account(strict, { admin: true });
    const name = await repoOf(strict, alice);
    const group = uniq('grp');
    const made = await strict.fetch('/api/v1/admin/quota/groups', jsonInit('POST', { name: group, rules: [{ name: uniq('rule'), limit: 0, subjects: ['size:repos:all'] }] }, admin.h));
    expect(made.status, await made.clone().text()).toBe(201);
    expect((await strict.fetch(`/api/v1/admin/quota/groups/${group}/users/${carol.name}`, { method: 'PUT', headers: admin.h })).status).toBe(204);
    const res = await forkOf(strict, carol, `${alice.name}/${name}`);
    expect(res.status).toBe(413);
    expect(await json(res)).toMatchObject({ message: 'quota exceeded', username: carol.name });
  });

  test('DISABLE_FORKS: both routes answer 404', async () => {
    const [alice, bob] = [await account(disabled), await account(disabled)];
    const name = await repoOf(disabled, alice);
    await expectApiError(await forkOf(disabled, bob, `${alice.name}/${name}`), 404, disabled.url);
    await expectApiError(await disabled.fetch(`/api/v1/repos/${alice.name}/${name}/forks`), 404, disabled.url);
  });
});
