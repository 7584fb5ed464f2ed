/**
 * Password sign-in as a client sees it, on the API and on git over HTTP: unknown names answer as slowly as known
 * ones, and failures are limited per name and per client address (429 with Retry-After, even for the right
 * password), while tokens are never throttled.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SYSTEM, type SettingsOverrides } from '@repohost/core';
import { PASSWORD, basic, createToken, createUser, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { expectApiError, json, uniq } from './helpers';

function server(security: SettingsOverrides['security']): Promise<TestServer> {
  return startTestServer({ security });
}

/** GET /api/v1/user with basic auth: the status. */
async function signIn(s: TestServer, login: string, password: string): Promise<number> {
  const res = await s.fetch('/api/v1/user', { headers: { Authorization: basic(login, password) } });
  await res.arrayBuffer();
  return res.status;
}

/** Asserts a 429 with the error body and a Retry-After of whole seconds within the window. */
async function expectLocked(s: TestServer, res: Response, window: number): Promise<void> {
  await expectApiError(res, 429, s.url);
  const retry = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retry)).toBe(true);
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(window);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

describe('how long a failed sign-in takes', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await server({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 1000, LOGIN_MAX_FAILURES_PER_ADDRESS: 1000 });
  });
  afterAll(async () => s?.cleanup());

  test('an unknown name, an email nobody has and an account without a password take as long as a wrong password', async () => {
    const known = await createUser(s.host, uniq('known'));
    // An account of an external login source has no local password.
    const external = await s.host.users.create(SYSTEM, { username: uniq('ext'), email: `${uniq('ext')}@example.com`, source_id: 1 });
    const cases = {
      known: () => signIn(s, known.name, 'wrong-password'),
      unknown: () => signIn(s, uniq('nobody'), 'wrong-password'),
      unknownEmail: () => signIn(s, `${uniq('nobody')}@example.com`, 'wrong-password'),
      noPassword: () => signIn(s, external.name, 'wrong-password'),
    };
    const times: Record<keyof typeof cases, number[]> = { known: [], unknown: [], unknownEmail: [], noPassword: [] };
    // Warm up (the first unknown name also makes the stand-in hash).
    for (const run of Object.values(cases)) expect(await run()).toBe(401);
    for (let round = 0; round < 7; round++) {
      for (const [name, run] of Object.entries(cases) as [keyof typeof cases, () => Promise<number>][]) {
        const start = performance.now();
        expect(await run()).toBe(401);
        times[name].push(performance.now() - start);
      }
    }
    const knownMedian = median(times.known);
    for (const name of ['unknown', 'unknownEmail', 'noPassword'] as const) {
      expect(median(times[name]), `${name} vs known (${JSON.stringify(times)})`).toBeGreaterThanOrEqual(0.5 * knownMedian);
    }
  });
});

describe('failures per account', () => {
  const WINDOW = 300;
  let s: TestServer;
  beforeAll(async () => {
    s = await server({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 3, LOGIN_MAX_FAILURES_PER_ADDRESS: 1000, LOGIN_FAILURE_WINDOW: WINDOW });
  });
  afterAll(async () => s?.cleanup());

  test('after 3 failures the account is refused with 429 and Retry-After, even with the right password; others are not', async () => {
    const alice = await createUser(s.host, uniq('alice'));
    const bob = await createUser(s.host, uniq('bob'));
    for (let i = 0; i < 3; i++) expect(await signIn(s, alice.name, `wrong-${i}`)).toBe(401);
    await expectLocked(s, await s.fetch('/api/v1/user', { headers: { Authorization: basic(alice.name, PASSWORD) } }), WINDOW);
    // The name is locked whatever its case.
    await expectLocked(s, await s.fetch('/api/v1/user', { headers: { Authorization: basic(alice.name.toUpperCase(), PASSWORD) } }), WINDOW);
    expect(await signIn(s, alice.name, 'wrong-again')).toBe(429);
    expect(await signIn(s, bob.name, PASSWORD)).toBe(200);
  });

  test('an unknown name is counted and locked exactly like an existing one', async () => {
    const carol = await createUser(s.host, uniq('carol'));
    const ghost = uniq('ghost');
    const statuses = async (name: string, password: string) => {
      const out: number[] = [];
      for (let i = 0; i < 3; i++) out.push(await signIn(s, name, `wrong-${i}`));
      out.push(await signIn(s, name, password));
      return out;
    };
    expect(await statuses(carol.name, PASSWORD)).toEqual([401, 401, 401, 429]);
    expect(await statuses(ghost, PASSWORD)).toEqual([401, 401, 401, 429]);
    const [known, unknown] = await Promise.all(
      [carol.name, ghost].map((name) => s.fetch('/api/v1/user', { headers: { Authorization: basic(name, 'x') } })),
    );
    expect(await json(known!)).toEqual(await json(unknown!));
    expect(known!.headers.get('retry-after')).not.toBeNull();
    expect(unknown!.headers.get('retry-after')).not.toBeNull();
  });

  test('a successful sign-in clears the account\'s failures', async () => {
    const dave = await createUser(s.host, uniq('dave'));
    expect(await signIn(s, dave.name, 'wrong-1')).toBe(401);
    expect(await signIn(s, dave.name, 'wrong-2')).toBe(401);
    expect(await signIn(s, dave.name, PASSWORD)).toBe(200);
    // Three more failures are allowed again (not one), then the account is locked.
    expect(await signIn(s, dave.name, 'wrong-3')).toBe(401);
    expect(await signIn(s, dave.name, 'wrong-4')).toBe(401);
    expect(await signIn(s, dave.name, 'wrong-5')).toBe(401);
    expect(await signIn(s, dave.name, PASSWORD)).toBe(429);
  });

  test('tokens still work for a locked account, and bad tokens lock nothing', async () => {
    const erin = await createUser(s.host, uniq('erin'));
    const token = await createToken(s.host, erin.name);
    for (let i = 0; i < 10; i++) {
      const res = await s.fetch('/api/v1/user', { headers: tokenHeader('0'.repeat(40)) });
      expect(res.status).toBe(401);
      await res.arrayBuffer();
    }
    for (let i = 0; i < 3; i++) expect(await signIn(s, erin.name, `wrong-${i}`)).toBe(401);
    expect(await signIn(s, erin.name, PASSWORD)).toBe(429);
    for (const headers of [tokenHeader(token), { Authorization: `Bearer ${token}` }, { Authorization: basic(erin.name, token) }, { Authorization: basic(token, '') }]) {
      const res = await s.fetch('/api/v1/user', { headers });
      expect(res.status).toBe(200);
      expect((await json(res)).login).toBe(erin.name);
    }
  });

  test('40 parallel wrong passwords: 3 are checked (401), 37 refused unchecked (429 with Retry-After)', async () => {
    const grace = await createUser(s.host, uniq('grace'));
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => s.fetch('/api/v1/user', { headers: { Authorization: basic(i % 2 === 0 ? grace.name : grace.email, `wrong-${i}`) } })),
    );
    const statuses = responses.map((res) => res.status).sort();
    expect(statuses).toEqual([...Array<number>(3).fill(401), ...Array<number>(37).fill(429)]);
    for (const res of responses) {
      if (res.status === 429) await expectLocked(s, res, WINDOW);
      else await res.arrayBuffer();
    }
    expect(await signIn(s, grace.name, PASSWORD)).toBe(429);
  });

  test('git over HTTP shares the counter: a locked account gets 429 with Retry-After and no challenge', async () => {
    const frank = await createUser(s.host, uniq('frank'));
    await s.host.repos.create(SYSTEM, { name: 'secret', private: true }, { owner: frank });
    const refs = (password: string) =>
      s.fetch(`/${frank.name}/secret.git/info/refs?service=git-upload-pack`, { headers: { Authorization: basic(frank.name, password) } });
    const ok = await refs(PASSWORD);
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    const failed = await refs('wrong-1');
    expect(failed.status).toBe(401);
    expect(failed.headers.get('www-authenticate')).toMatch(/^Basic/);
    await failed.arrayBuffer();
    expect(await signIn(s, frank.name, 'wrong-2')).toBe(401);
    const again = await refs('wrong-3');
    expect(again.status).toBe(401);
    await again.arrayBuffer();
    const locked = await refs(PASSWORD);
    await expectLocked(s, locked, WINDOW);
    expect(locked.headers.get('www-authenticate')).toBeNull();
    expect(await signIn(s, frank.name, PASSWORD)).toBe(429);
  });
});

describe('failures per client address', () => {
  const WINDOW = 300;
  let s: TestServer;
  beforeAll(async () => {
    s = await server({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 1000, LOGIN_MAX_FAILURES_PER_ADDRESS: 6, LOGIN_FAILURE_WINDOW: WINDOW });
  });
  afterAll(async () => s?.cleanup());

  test('6 failures spread over many names lock the address for every name; tokens still work', async () => {
    const users = [];
    for (let i = 0; i < 4; i++) users.push(await createUser(s.host, uniq('p')));
    const fresh = await createUser(s.host, uniq('fresh'));
    const token = await createToken(s.host, fresh.name);
    const names = [...users.map((u) => u.name), uniq('ghost'), `${uniq('ghost')}@example.com`];
    for (const name of names) expect(await signIn(s, name, 'wrong')).toBe(401);
    // Never tried before, right password: the address is locked.
    await expectLocked(s, await s.fetch('/api/v1/user', { headers: { Authorization: basic(fresh.name, PASSWORD) } }), WINDOW);
    expect(await signIn(s, users[0]!.name, PASSWORD)).toBe(429);
    const res = await s.fetch('/api/v1/user', { headers: tokenHeader(token) });
    expect(res.status).toBe(200);
    expect((await json(res)).login).toBe(fresh.name);
  });
});

describe('[security] LOGIN_* = 0 turns a limit off', () => {
  const opened: TestServer[] = [];
  afterAll(async () => {
    for (const s of opened) await s.cleanup();
  });

  /** Fails `n` times as one new user, then signs in with the right password: that status. */
  async function failThenSignIn(s: TestServer, n: number): Promise<number> {
    const user = await createUser(s.host, uniq('z'));
    for (let i = 0; i < n; i++) expect(await signIn(s, user.name, `wrong-${i}`)).toBe(401);
    return signIn(s, user.name, PASSWORD);
  }

  test('by default 10 failures lock an account; with LOGIN_FAILURE_WINDOW = 0 nothing does', async () => {
    const defaults = await startTestServer();
    const off = await server({ LOGIN_FAILURE_WINDOW: 0 });
    opened.push(defaults, off);
    expect(await failThenSignIn(defaults, 10)).toBe(429);
    expect(await failThenSignIn(off, 12)).toBe(200);
  });

  test('LOGIN_MAX_FAILURES_PER_ACCOUNT = 0 leaves only the address limit', async () => {
    const s = await server({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 0, LOGIN_MAX_FAILURES_PER_ADDRESS: 13 });
    opened.push(s);
    // 12 failures on one account: more than the default per-account limit, and it may still sign in…
    expect(await failThenSignIn(s, 12)).toBe(200);
    // …until the address reaches its own limit.
    expect(await signIn(s, uniq('ghost'), 'wrong')).toBe(401);
    expect(await failThenSignIn(s, 0)).toBe(429);
  });

  test('LOGIN_MAX_FAILURES_PER_ADDRESS = 0 leaves only the account limit', async () => {
    const s = await server({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 3, LOGIN_MAX_FAILURES_PER_ADDRESS: 0 });
    opened.push(s);
    // 52 failures from this address over 26 names: more than the default per-address limit of 50.
    for (let i = 0; i < 26; i++) expect(await failThenSignIn(s, 2)).toBe(200);
    expect(await failThenSignIn(s, 3)).toBe(429);
  });
});
