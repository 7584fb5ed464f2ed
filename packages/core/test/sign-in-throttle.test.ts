/**
 * Sign-in throttling in core, as an embedder calls it: `host.users.authenticate(login, password, { address })`.
 * The counters live in the database, so two hosts over one database enforce one limit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RepoHost, TooManyRequestsError, loadSettings, userActor, type SettingsOverrides, type SignInFailure, type User } from '@repohost/core';
import { SecurityStore } from '@repohost/core/internal';
import { createUser, openTestHost, PASSWORD, totp, type TestHost } from '@repohost/test-support';

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

/** The stored counters, by kind: `pair`, `address`, `account` (keys are `kind:…`). */
async function counters(h: RepoHost): Promise<SignInFailure[]> {
  return (h as unknown as { ctx: { store: <T>(c: new (...a: never[]) => T) => T } }).ctx.store(SecurityStore).counters();
}

async function failuresOf(h: RepoHost, kind: 'pair' | 'address' | 'account'): Promise<number[]> {
  return (await counters(h)).filter((c) => c.key.startsWith(`${kind}:`)).map((c) => c.failures);
}

/** How many attempts of each outcome. */
function tally(outcomes: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of outcomes) out[o] = (out[o] ?? 0) + 1;
  return out;
}

/** A user with two-factor authentication in force, and a six-digit code that is none of its current ones. */
async function enrolled(h: RepoHost, name: string): Promise<{ user: User; wrongCode: string }> {
  const user = await createUser(h, name);
  const { secret } = await h.twoFactor.enrol(userActor(user), user);
  const step = Math.floor(Date.now() / 30_000);
  await h.twoFactor.confirm(userActor(user), user, totp(secret, step));
  const current = new Set([-1, 0, 1, 2].map((d) => totp(secret, step + d)));
  const wrongCode = ['000000', '111111', '222222', '333333', '444444'].find((code) => !current.has(code))!;
  return { user, wrongCode };
}

describe('concurrent attempts take their slot before the check', () => {
  it('40 parallel wrong passwords for one account from one address: exactly 10 are checked, the rest refused', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 10, LOGIN_MAX_FAILURES_PER_ADDRESS: 50 });
    await createUser(h, 'target');
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(h, 'target', `guess-${i}`, '198.51.100.66')));
    expect(tally(outcomes)).toEqual({ wrong: 10, locked: 30 });
    // Refused attempts gave their other slots back: every counter holds exactly the 10 checked.
    expect(await failuresOf(h, 'pair')).toEqual([10]);
    expect(await failuresOf(h, 'address')).toEqual([10]);
    expect(await failuresOf(h, 'account')).toEqual([10]);
    expect(await attempt(h, 'target', PASSWORD, '198.51.100.66')).toBe('locked');
  });

  it('40 parallel guesses from 40 addresses: no more than LOGIN_MAX_FAILURES_PER_ACCOUNT_FROM_UNKNOWN_ADDRESSES are checked', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 10, LOGIN_MAX_FAILURES_PER_ACCOUNT_FROM_UNKNOWN_ADDRESSES: 15 });
    await createUser(h, 'spread');
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(h, 'spread', `guess-${i}`, `203.0.113.${i + 1}`)));
    expect(tally(outcomes)).toEqual({ wrong: 15, locked: 25 });
    expect(await failuresOf(h, 'account')).toEqual([15]);
    expect((await failuresOf(h, 'pair')).reduce((a, b) => a + b, 0)).toBe(15);
  });

  it('two hosts over one database, 20 parallel guesses each: 10 checked in all', async () => {
    const first = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 10 }, { PATH: 'concurrent.db' });
    await createUser(first.host, 'shared');
    const second = await RepoHost.open({ settings: first.host.settings, migrate: false });
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) => attempt(i % 2 === 0 ? first.host : second, 'shared', `guess-${i}`, '198.51.100.7')),
      );
      expect(tally(outcomes)).toEqual({ wrong: 10, locked: 30 });
      expect(await failuresOf(second, 'pair')).toEqual([10]);
    } finally {
      await second.close();
    }
  });

  it('40 parallel wrong two-factor codes with the right password: 10 codes are checked', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 10 });
    const { wrongCode } = await enrolled(h, 'otp');
    let checked = 0;
    const secondFactor = async (candidate: User) => {
      checked++;
      return (await h.twoFactor.signInFactor(candidate, wrongCode)) !== 'refused';
    };
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, () =>
        h.users.authenticate('otp', PASSWORD, { address: '198.51.100.8', secondFactor }).then(
          (user) => (user ? 'ok' : 'wrong'),
          (error: unknown) => (error instanceof TooManyRequestsError ? 'locked' : Promise.reject(error)),
        ),
      ),
    );
    expect(tally(outcomes)).toEqual({ wrong: 10, locked: 30 });
    expect(checked).toBe(10);
    expect(await failuresOf(h, 'pair')).toEqual([10]);
  });

  it('40 parallel wrong codes (scratch or TOTP) on the OAuth2 sign-in page: 10 are checked', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 10 });
    const { wrongCode } = await enrolled(h, 'scratchy');
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        h.oauth2Provider.signIn('scratchy', PASSWORD, i % 2 === 0 ? 'notTheScratch' : wrongCode, '198.51.100.9').then(
          (result) => ('user' in result ? 'ok' : result.failure),
          (error: unknown) => (error instanceof TooManyRequestsError ? 'locked' : Promise.reject(error)),
        ),
      ),
    );
    expect(tally(outcomes)).toEqual({ second_factor: 10, locked: 30 });
    expect(await failuresOf(h, 'pair')).toEqual([10]);
  });
});

describe('an attacker cannot keep the owner out', () => {
  it('after a stranger used up their guesses, the owner signs in from another address; from a known one even when all strangers are refused', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 3, LOGIN_MAX_FAILURES_PER_ACCOUNT_FROM_UNKNOWN_ADDRESSES: 6 });
    await createUser(h, 'owner');
    expect(await attempt(h, 'owner', PASSWORD, '192.0.2.10')).toBe('ok');
    for (let i = 0; i < 3; i++) expect(await attempt(h, 'owner', 'nope', '198.51.100.1')).toBe('wrong');
    expect(await attempt(h, 'owner', PASSWORD, '198.51.100.1')).toBe('locked');
    // A stranger's failures lock the stranger's address only: a new address of the owner still signs in.
    expect(await attempt(h, 'owner', PASSWORD, '192.0.2.77')).toBe('ok');
    // Many strangers: past 6 failures from addresses the account does not know, such addresses are refused…
    for (let i = 0; i < 3; i++) expect(await attempt(h, 'owner', 'nope', '198.51.100.2')).toBe('wrong');
    expect(await attempt(h, 'owner', PASSWORD, '198.51.100.3')).toBe('locked');
    // …while both addresses the owner signed in from still sign in, repeatedly.
    for (let i = 0; i < 3; i++) {
      expect(await attempt(h, 'owner', PASSWORD, '192.0.2.10')).toBe('ok');
      expect(await attempt(h, 'owner', PASSWORD, '192.0.2.77')).toBe('ok');
    }
  });

  it('a known address keeps its own allowance: its failures lock it for that account only', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 2, LOGIN_MAX_FAILURES_PER_ACCOUNT_FROM_UNKNOWN_ADDRESSES: 1 });
    await createUser(h, 'typo');
    expect(await attempt(h, 'typo', PASSWORD, '192.0.2.20')).toBe('ok');
    expect(await attempt(h, 'typo', 'nope', '192.0.2.20')).toBe('wrong');
    expect(await attempt(h, 'typo', 'nope', '192.0.2.20')).toBe('wrong');
    expect(await attempt(h, 'typo', PASSWORD, '192.0.2.20')).toBe('locked');
    // Known-address failures do not count against the account's strangers' allowance (1): the slot the first
    // sign-in took there (from a then unknown address) was given back.
    expect(await failuresOf(h, 'account')).toEqual([0]);
  });

  it('a shared address (NAT) that reached its limit refuses new accounts but not those that signed in from it', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 100, LOGIN_MAX_FAILURES_PER_ADDRESS: 5 });
    await createUser(h, 'regular');
    await createUser(h, 'newcomer');
    expect(await attempt(h, 'regular', PASSWORD, '192.0.2.30')).toBe('ok');
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(h, `nobody-${i}`, 'nope', '192.0.2.30')));
    expect(tally(outcomes)).toEqual({ wrong: 5, locked: 7 });
    expect(await failuresOf(h, 'address')).toEqual([5]);
    expect(await attempt(h, 'newcomer', PASSWORD, '192.0.2.30')).toBe('locked');
    expect(await attempt(h, 'regular', PASSWORD, '192.0.2.30')).toBe('ok');
    // Another address is not affected.
    expect(await attempt(h, 'newcomer', PASSWORD, '192.0.2.31')).toBe('ok');
  });

  it('with LOGIN_KNOWN_ADDRESS_DAYS = 0 no address is known: the address limit holds for everyone', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ADDRESS: 2, LOGIN_KNOWN_ADDRESS_DAYS: 0 });
    await createUser(h, 'plain');
    expect(await attempt(h, 'plain', PASSWORD, '192.0.2.40')).toBe('ok');
    expect(await attempt(h, 'x', 'nope', '192.0.2.40')).toBe('wrong');
    expect(await attempt(h, 'y', 'nope', '192.0.2.40')).toBe('wrong');
    expect(await attempt(h, 'plain', PASSWORD, '192.0.2.40')).toBe('locked');
  });

  it('a success gives back its slots: signing in to one\'s own account never resets or fills an address', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ADDRESS: 3, LOGIN_KNOWN_ADDRESS_DAYS: 0 });
    await createUser(h, 'mine');
    expect(await attempt(h, 'a', 'nope', '192.0.2.50')).toBe('wrong');
    expect(await attempt(h, 'b', 'nope', '192.0.2.50')).toBe('wrong');
    for (let i = 0; i < 5; i++) expect(await attempt(h, 'mine', PASSWORD, '192.0.2.50')).toBe('ok');
    expect(await failuresOf(h, 'address')).toEqual([2]);
    expect(await attempt(h, 'c', 'nope', '192.0.2.50')).toBe('wrong');
    expect(await attempt(h, 'mine', PASSWORD, '192.0.2.50')).toBe('locked');
  });
});

describe('what counts as one account and one address', () => {
  it('the name and the email of an account share its counter, in any case', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 4 });
    const user = await createUser(h, 'dual');
    expect(await attempt(h, 'dual', 'nope', '198.51.100.20')).toBe('wrong');
    expect(await attempt(h, user.email, 'nope', '198.51.100.20')).toBe('wrong');
    expect(await attempt(h, 'DUAL', 'nope', '198.51.100.20')).toBe('wrong');
    expect(await attempt(h, user.email.toUpperCase(), 'nope', '198.51.100.20')).toBe('wrong');
    expect(await attempt(h, user.email, PASSWORD, '198.51.100.20')).toBe('locked');
    expect(await attempt(h, 'dual', PASSWORD, '198.51.100.20')).toBe('locked');
    expect(await failuresOf(h, 'pair')).toEqual([4]);
  });

  it('an IPv6 client counts by its /64: other addresses of the block share the counter, another block does not', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 0, LOGIN_MAX_FAILURES_PER_ADDRESS: 2 });
    await createUser(h, 'six');
    expect(await attempt(h, 'x1', 'nope', '2001:db8:1:2::1')).toBe('wrong');
    expect(await attempt(h, 'x2', 'nope', '2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe('wrong');
    expect(await attempt(h, 'six', PASSWORD, '2001:0DB8:0001:0002:abcd::9')).toBe('locked');
    expect(await attempt(h, 'six', PASSWORD, '2001:db8:1:3::1')).toBe('ok');
    const addresses = (await counters(h)).filter((c) => c.key.startsWith('address:'));
    expect(addresses.map((c) => [c.key, c.failures])).toEqual([
      ['address:2001:db8:1:2::/64', 2],
      ['address:2001:db8:1:3::/64', 0],
    ]);
  });

  it('a counter whose window ended starts again at one', async () => {
    const { host: h } = await host({ LOGIN_MAX_FAILURES_PER_ACCOUNT: 2, LOGIN_MAX_FAILURES_PER_ACCOUNT_FROM_UNKNOWN_ADDRESSES: 2, LOGIN_FAILURE_WINDOW: 2 });
    await createUser(h, 'later');
    expect(await attempt(h, 'later', 'nope', '198.51.100.30')).toBe('wrong');
    expect(await attempt(h, 'later', 'nope', '198.51.100.31')).toBe('wrong');
    expect(await attempt(h, 'later', PASSWORD, '198.51.100.32')).toBe('locked');
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await attempt(h, 'later', 'nope', '198.51.100.32')).toBe('wrong');
    expect(await failuresOf(h, 'account')).toEqual([1]);
    expect(await attempt(h, 'later', PASSWORD, '198.51.100.33')).toBe('ok');
  });
});
