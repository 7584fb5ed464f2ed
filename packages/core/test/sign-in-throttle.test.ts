/**
 * Sign-in throttling in core, as an embedder calls it: `host.users.authenticate(login, password, { address })`.
 * The counters live in the database, so two hosts over one database enforce one limit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RepoHost, TooManyRequestsError, loadSettings, type SettingsOverrides } from '@repohost/core';
import { PASSWORD, createUser, openTestHost, type TestHost } from '@repohost/test-support';

const open: TestHost[] = [];
async function host(security: SettingsOverrides['security'], database?: SettingsOverrides['database']): Promise<TestHost> {
  const t = await openTestHost({ security, ...(database ? { database } : {}) });
  open.push(t);
  return t;
}
afterEach(async () => {
  for (const t of open.splice(0)) await t.cleanup();
});

/** What an attempt comes to: 'ok', 'wrong' (null) or 'locked' (TooManyRequestsError). */
async function attempt(h: RepoHost, login: string, password: string, address?: string): Promise<'ok' | 'wrong' | 'locked'> {
  try {
    return (await h.users.authenticate(login, password, { address })) ? 'ok' : 'wrong';
  } catch (error) {
    if (error instanceof TooManyRequestsError) return 'locked';
    throw error;
  }
}

describe('sign-in throttling in core', () => {
  it('has defaults of 10 failures per name and 50 per address in 5 minutes', () => {
    const { security } = loadSettings({});
    expect(security.LOGIN_MAX_FAILURES_PER_ACCOUNT).toBe(10);
    expect(security.LOGIN_MAX_FAILURES_PER_ADDRESS).toBe(50);
    expect(security.LOGIN_FAILURE_WINDOW).toBe(300);
  });

  it('locks a name without an address (embedders), for the rest of the window, saying how long', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 2, LOGIN_MAX_FAILURES_PER_ADDRESS: 0 });
    await createUser(h, 'alice');
    expect(await attempt(h, 'alice', 'nope')).toBe('wrong');
    expect(await attempt(h, 'Alice', 'nope')).toBe('wrong');
    const error = await h.users.authenticate('alice', PASSWORD).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TooManyRequestsError);
    const retry = (error as TooManyRequestsError).retryAfterSeconds;
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(300);
  });

  it('counts an IPv4 client seen as ::ffff:a.b.c.d as the same address', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 0, LOGIN_MAX_FAILURES_PER_ADDRESS: 2 });
    await createUser(h, 'bob');
    expect(await attempt(h, 'x1', 'nope', '192.0.2.7')).toBe('wrong');
    expect(await attempt(h, 'x2', 'nope', '::ffff:192.0.2.7')).toBe('wrong');
    expect(await attempt(h, 'bob', PASSWORD, '192.0.2.7')).toBe('locked');
    expect(await attempt(h, 'bob', PASSWORD, '::FFFF:192.0.2.7')).toBe('locked');
    // Another address is not affected.
    expect(await attempt(h, 'bob', PASSWORD, '192.0.2.8')).toBe('ok');
  });

  it('counts and locks names no account could have (very long, or with a NUL) like any other', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 2, LOGIN_MAX_FAILURES_PER_ADDRESS: 0 });
    for (const login of ['x'.repeat(5000), 'nul\0name', `${'y'.repeat(400)}@example.com`]) {
      expect(await attempt(h, login, 'nope')).toBe('wrong');
      expect(await attempt(h, login, 'nope')).toBe('wrong');
      expect(await attempt(h, login, 'nope')).toBe('locked');
    }
  });

  it('starts afresh once the window has ended', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 1, LOGIN_MAX_FAILURES_PER_ADDRESS: 1, LOGIN_FAILURE_WINDOW: 2 });
    await createUser(h, 'carol');
    expect(await attempt(h, 'carol', 'nope', '198.51.100.1')).toBe('wrong');
    expect(await attempt(h, 'carol', PASSWORD, '198.51.100.1')).toBe('locked');
    // Windows are whole seconds from the first failure: 2.1 s after this check, it has surely ended.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await attempt(h, 'carol', PASSWORD, '198.51.100.1')).toBe('ok');
  });

  it('keeps the counters in the database: a second host over it sees the lock the first one set', async () => {
    const first = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 2, LOGIN_MAX_FAILURES_PER_ADDRESS: 0 }, { PATH: 'shared.db' });
    await createUser(first.host, 'dave');
    const second = await RepoHost.open({ settings: first.host.settings, migrate: false });
    try {
      expect(await attempt(first.host, 'dave', 'nope')).toBe('wrong');
      expect(await attempt(second, 'dave', 'nope')).toBe('wrong');
      expect(await attempt(first.host, 'dave', PASSWORD)).toBe('locked');
      expect(await attempt(second, 'dave', PASSWORD)).toBe('locked');
    } finally {
      await second.close();
    }
  });
});
