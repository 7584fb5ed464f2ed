import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { TooManyRequestsError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { isStorableText, nowUnix } from '../storage/index.js';
import { SecurityStore, type AttemptSlot } from './store.js';

/**
 * Who tries to sign in: the login name (or email) as typed, the account it names when there is one, and the
 * client's address when the caller knows it.
 */
export interface SignInAttempt {
  login: string;
  /** The account's id: its name and its emails then count as one account. Unknown names count as typed. */
  userId?: number;
  address?: string;
}

/** The longest key stored as is (the column holds 300); longer ones, and ones PostgreSQL cannot store, are hashed. */
const MAX_PLAIN_KEY = 290;
const DAY = 86_400;
/** A known network's last sign-in is written again at most this often, so signing in is not a write each time. */
const KNOWN_REFRESH = DAY;

/**
 * Throttles password (and two-factor code) checks, `[security] LOGIN_*`. Every check first takes a slot from
 * counters in the database, in one atomic statement, so no number of concurrent attempts in any number of server
 * processes checks more than the limits allow. The counters:
 *  - the account from one address (`pair`): one guesser cannot go on, and locks out only themself;
 *  - the address, whatever account it tries (`address`): spraying many accounts;
 *  - the account from every address it never signed in from (`account`): many addresses guessing one account.
 * Addresses an account signed in from (`sign_in_known`; IPv6 by its /64) skip the last two, so neither strangers
 * guessing an account nor a shared NAT's failures keep its owner out.
 */
export class SecurityService {
  private readonly store: SecurityStore;

  constructor(private readonly ctx: CoreContext) {
    this.store = ctx.store(SecurityStore);
  }

  /**
   * Runs `check` (a password verification, with its second factor) once a slot is taken from each counter that
   * applies; when one is full it throws TooManyRequestsError without checking, whatever the password. A null
   * result keeps the slots as failures. Success clears the account's failures from this address, gives back the
   * other slots (it was no failure; an attacker cannot reset an address's count with an account of their own)
   * and makes the address known to the account. A check that throws keeps its slots: it may have been evaluated.
   */
  async throttleSignIn<T>(attempt: SignInAttempt, check: () => Promise<T | null>): Promise<T | null> {
    const security = this.ctx.settings.security;
    const window = security.LOGIN_FAILURE_WINDOW;
    if (window <= 0) return check();
    const now = nowUnix();
    const network = attempt.address ? networkOf(attempt.address) : undefined;
    const account = attempt.userId !== undefined ? `user:${attempt.userId}` : `name:${attempt.login.toLowerCase()}`;
    const knownKey = network && security.LOGIN_KNOWN_ADDRESS_DAYS > 0 ? digest(`${network} ${account}`) : undefined;
    const knownAt = knownKey ? await this.store.knownAfter(knownKey, now - security.LOGIN_KNOWN_ADDRESS_DAYS * DAY) : undefined;

    // The address goes first and never holds a space, so no pair of account and address reads as another.
    const pairKey = security.LOGIN_MAX_FAILURES_PER_ACCOUNT > 0 ? counterKey('pair', `${network ?? ''} ${account}`) : undefined;
    const slots: AttemptSlot[] = [];
    if (pairKey) slots.push({ key: pairKey, limit: security.LOGIN_MAX_FAILURES_PER_ACCOUNT });
    if (knownAt === undefined) {
      if (network && security.LOGIN_MAX_FAILURES_PER_ADDRESS > 0) slots.push({ key: counterKey('address', network), limit: security.LOGIN_MAX_FAILURES_PER_ADDRESS });
      const fromUnknown = security.LOGIN_MAX_FAILURES_PER_ACCOUNT_FROM_UNKNOWN_ADDRESSES;
      if (fromUnknown > 0) slots.push({ key: counterKey('account', account), limit: fromUnknown });
    }
    if (slots.length === 0) return check();

    const taken = await this.store.reserve(slots, now, window);
    const full = slots.filter((slot) => !taken.has(slot.key)).map((slot) => slot.key);
    if (full.length > 0) {
      await this.release(taken);
      const starts = await this.store.windowStarts(full);
      // A full counter's window outlasts `now` (else its slot would have been taken); 1 s if it just vanished.
      const retryAfter = Math.max(1, ...[...starts.values()].map((start) => start + window - nowUnix()));
      throw new TooManyRequestsError('too many failed sign-in attempts, try again later', retryAfter);
    }

    const result = await check();
    if (result === null) {
      // Failures are the rare path: tidying ended windows there keeps the table small between cron runs. It is
      // housekeeping (another server may be deleting the same rows): its failure must not fail the sign-in.
      await this.store.deleteStarted(nowUnix() - window).catch(() => undefined);
      return result;
    }
    if (pairKey) {
      taken.delete(pairKey);
      await this.store.delete(pairKey);
    }
    await this.release(taken);
    if (knownKey && (knownAt === undefined || knownAt <= now - KNOWN_REFRESH)) await this.store.recordKnown(knownKey, now);
    return result;
  }

  /** Gives slots back one statement each: a statement that locks a single row can never be part of a deadlock. */
  private async release(taken: ReadonlyMap<string, number>): Promise<void> {
    for (const [key, start] of taken) await this.store.release(key, start);
  }
}

function counterKey(kind: 'pair' | 'address' | 'account', value: string): string {
  const key = `${kind}:${value}`;
  if (key.length <= MAX_PLAIN_KEY && isStorableText(key)) return key;
  // No account name or email is this long, but every attempt still counts: under a digest of what was typed.
  return `${kind}#${digest(value)}`;
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * What one client is: an IPv4 address (also seen through an IPv6 socket as `::ffff:a.b.c.d`), or an IPv6 /64, the
 * block one subscriber gets (counting single IPv6 addresses would give an attacker 2^64 fresh counters).
 */
export function networkOf(address: string): string {
  const mapped = /^::ffff:(.+)$/i.exec(address)?.[1];
  if (mapped && isIP(mapped) === 4) return mapped;
  // Without the zone (`fe80::1%eth0`).
  const zone = address.indexOf('%');
  const bare = zone < 0 ? address : address.slice(0, zone);
  if (isIP(bare) !== 6) return address.toLowerCase();
  const groups = ipv6Groups(bare);
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 as two groups). */
function ipv6Groups(address: string): number[] {
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = '', tail] = address.split('::');
  const first = parse(head);
  if (tail === undefined) return first;
  const last = parse(tail);
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}
