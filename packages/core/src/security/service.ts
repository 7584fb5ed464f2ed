import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { TooManyRequestsError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { isStorableText, nowUnix } from '../storage/database.js';
import { SecurityStore } from './store.js';

/** Who tries to sign in: the login name (or email) as typed, and the client's address when the caller knows it. */
export interface SignInAttempt {
  login: string;
  address?: string;
}

/** The longest key stored as is (the column holds 300); longer ones, and ones PostgreSQL cannot store, are hashed. */
const MAX_PLAIN_KEY = 290;

/**
 * Throttles password checks (`[security] LOGIN_*`): failures are counted per login name and per client address
 * in the database, so every server process sharing it enforces the same limits.
 */
export class SecurityService {
  private readonly store: SecurityStore;

  constructor(private readonly ctx: CoreContext) {
    this.store = ctx.store(SecurityStore);
  }

  /**
   * Runs `check` (a password verification) unless the attempt's name or address has used up its failures for the
   * current window, in which case it throws TooManyRequestsError without checking, so even the right password
   * is refused. A null result counts as a failure for both; success clears the name's counter only, or an
   * attacker could reset an address's count by signing in to an account of their own.
   * Names count the same whether an account has them or not, so the limiter tells nothing about which exist.
   */
  async throttleSignIn<T>(attempt: SignInAttempt, check: () => Promise<T | null>): Promise<T | null> {
    const { LOGIN_MAX_FAILURES_PER_ACCOUNT: perAccount, LOGIN_MAX_FAILURES_PER_ADDRESS: perAddress, LOGIN_FAILURE_WINDOW: window } =
      this.ctx.settings.security;
    const address = attempt.address && normalizeAddress(attempt.address);
    const accountKey = window > 0 && perAccount > 0 ? counterKey('account', attempt.login.toLowerCase()) : undefined;
    const addressKey = window > 0 && perAddress > 0 && address ? counterKey('address', address) : undefined;
    const limits = new Map<string, number>();
    if (accountKey) limits.set(accountKey, perAccount);
    if (addressKey) limits.set(addressKey, perAddress);
    if (limits.size === 0) return check();

    const keys = [...limits.keys()];
    const counters = await this.store.failuresOf(keys);
    const now = nowUnix();
    let retryAfter = 0;
    for (const { key, failures, window_start_unix } of counters) {
      const end = window_start_unix + window;
      if (now < end && failures >= (limits.get(key) ?? Infinity)) retryAfter = Math.max(retryAfter, end - now);
    }
    if (retryAfter > 0) throw new TooManyRequestsError('too many failed sign-in attempts, try again later', retryAfter);

    const result = await check();
    if (result === null) {
      const at = nowUnix();
      await this.store.addFailure(keys, at, window);
      // Failures are the rare path: tidying ended windows there keeps the hot path to its one read. Tidying is
      // housekeeping (another server may be deleting the same rows): its failure must not fail the sign-in.
      await this.store.deleteStarted(at - window).catch(() => undefined);
    } else if (accountKey && counters.some((c) => c.key === accountKey)) {
      await this.store.delete(accountKey);
    }
    return result;
  }
}

function counterKey(kind: 'account' | 'address', value: string): string {
  const key = `${kind}:${value}`;
  if (key.length <= MAX_PLAIN_KEY && isStorableText(key)) return key;
  // No account name or email is this long, but every attempt still counts: under a digest of what was typed.
  return `${kind}#${createHash('sha256').update(value).digest('hex')}`;
}

/** An IPv4 client seen through an IPv6 socket (`::ffff:192.0.2.1`) counts as the IPv4 address it is. */
function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(.+)$/i.exec(address)?.[1];
  return mapped && isIP(mapped) === 4 ? mapped : address.toLowerCase();
}
