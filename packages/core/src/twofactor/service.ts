import { pbkdf2Sync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { CoreContext, CoreTransaction } from '../context.js';
import { isSelf, isSiteAdmin, type Actor } from '../users/index.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { nowUnix } from '../storage/index.js';
import { countRekey, decryptSecret, emptyRekeyCounts, encryptSecret, forEachRowInBatches, rekeySecret, type RekeyCounts, type SecretRekey } from '../security/index.js';
import type { User } from '../users/index.js';
import { TwoFactorStore } from './store.js';
import type { TwoFactor } from './tables.js';
import { trimEnd } from '../text.js';

/** What `enrol` hands the user once: the secret for an authenticator app, as text and as an `otpauth://` URI. */
export interface TwoFactorEnrolment {
  secret: string;
  uri: string;
}

/** What `confirm` hands the user once: the scratch code, which signs in once when the device is lost. */
export interface TwoFactorConfirmation {
  scratch: string;
}

/** Forgejo's TOTP parameters (pquerna/otp defaults): SHA-1, six digits, 30-second steps, one step of skew. */
const PERIOD = 30;
const DIGITS = 6;
const SKEW = 1;
const SECRET_PURPOSE = 'two-factor totp secret';
const SCRATCH_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SCRATCH_LENGTH = 10;

type OtpAuth = typeof import('otpauth');
let otpauthModule: Promise<OtpAuth> | undefined;
/** Loaded on first use: only accounts with two-factor authentication ever need it. */
function otpauth(): Promise<OtpAuth> {
  return (otpauthModule ??= import('otpauth'));
}

/**
 * Two-factor authentication by TOTP (RFC 6238), as Forgejo has it: enrol (pending) → confirm with a first code
 * (which returns the scratch code) → codes on password sign-ins → disable. Each code is accepted once: the step
 * it belongs to is recorded and codes of that step or an earlier one are refused.
 */
export class TwoFactorService {
  private readonly store: TwoFactorStore;

  constructor(private readonly ctx: CoreContext) {
    this.store = ctx.store(TwoFactorStore);
  }

  /** Moves the stored TOTP secrets (pending ones too) to a new key, inside the caller's transaction. */
  async reencryptSecrets(tx: CoreTransaction, rekey: SecretRekey): Promise<RekeyCounts> {
    const store = tx.store(TwoFactorStore);
    const counts = emptyRekeyCounts();
    await forEachRowInBatches(
      (after, limit) => store.secretsAfter(after, limit),
      async (row) => {
        const stored = countRekey(counts, rekeySecret(rekey, SECRET_PURPOSE, row.secret_encrypted), `two-factor secret of user ${row.uid}`);
        if (stored !== undefined) await store.setSecret(row.id, stored);
      },
    );
    return counts;
  }

  /** Whether `user` has confirmed two-factor authentication (a pending enrolment does not count). */
  async isEnrolled(user: Pick<User, 'id'>): Promise<boolean> {
    return (await this.store.byUid(user.id))?.is_confirmed === 1;
  }

  /** Which of `userIds` have confirmed two-factor authentication: one query per 500 ids, for lists. */
  async enrolledAmong(userIds: readonly number[]): Promise<Set<number>> {
    const enrolled = new Set<number>();
    for (let i = 0; i < userIds.length; i += 500) {
      for (const uid of await this.store.enrolledAmong(userIds.slice(i, i + 500))) enrolled.add(uid);
    }
    return enrolled;
  }

  /**
   * Starts enrolment with a new secret (20 random bytes, as Forgejo); it takes effect at `confirm`. Enrolling
   * again while pending replaces the secret; an account already enrolled must disable first.
   */
  async enrol(actor: Actor, user: User): Promise<TwoFactorEnrolment> {
    this.assertMayManage(actor, user);
    const { Secret, TOTP } = await otpauth();
    const secret = new Secret({ size: 20 }).base32;
    const stored = encryptSecret(this.ctx.settings.security.SECRET_KEY, SECRET_PURPOSE, secret);
    if (!(await this.store.putPending(user.id, stored, nowUnix()))) {
      throw new ConflictError('two-factor authentication is already enrolled');
    }
    // Forgejo's issuer: the site's name and its URL, so two sites' entries are told apart in the app.
    const appName = (this.ctx.settings as unknown as Record<string, { APP_NAME?: string } | undefined>)['']?.APP_NAME || 'RepoHost';
    const issuer = `${appName} (${trimEnd(this.ctx.settings.server.ROOT_URL, '/')})`;
    const uri = new TOTP({ issuer, label: user.name, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: DIGITS, period: PERIOD }).toString();
    return { secret, uri };
  }

  /** Puts a pending enrolment in force once `code` proves the device has the secret; returns the scratch code. */
  async confirm(actor: Actor, user: User, code: string): Promise<TwoFactorConfirmation> {
    this.assertMayManage(actor, user);
    const row = await this.store.byUid(user.id);
    if (!row) throw new NotFoundError('two-factor authentication is not being enrolled');
    if (row.is_confirmed === 1) throw new ConflictError('two-factor authentication is already enrolled');
    const counter = await this.matchingCounter(row, code);
    if (counter === null) throw new ValidationError('passcode', 'invalid passcode');
    const scratch = randomScratch();
    if (!(await this.store.confirm(row.id, counter, hashScratch(scratch), nowUnix()))) {
      throw new ConflictError('two-factor authentication is already enrolled');
    }
    return { scratch };
  }

  /** Removes the account's two-factor authentication (pending or in force); false when there was none. */
  async disable(actor: Actor, user: User): Promise<boolean> {
    this.assertMayManage(actor, user);
    return this.store.deleteOf(user.id);
  }

  /** A new scratch code, replacing the previous one (Forgejo's "regenerate scratch token"). */
  async regenerateScratch(actor: Actor, user: User): Promise<string> {
    this.assertMayManage(actor, user);
    const row = await this.store.byUid(user.id);
    if (!row || row.is_confirmed !== 1) throw new NotFoundError('two-factor authentication is not enrolled');
    const scratch = randomScratch();
    await this.store.replaceScratch(row.id, row.scratch_hash, hashScratch(scratch), nowUnix());
    return scratch;
  }

  /**
   * Checks a code of an enrolled account: a current TOTP code not used before, or else the scratch code, which
   * is then replaced by one nobody knows (Forgejo: the scratch code signs in once; two-factor stays enrolled
   * and the user is sent to regenerate it or disable). Null when neither matches or the account is not enrolled.
   */
  async verify(user: Pick<User, 'id'>, code: string): Promise<'totp' | 'scratch' | null> {
    const row = await this.store.byUid(user.id);
    if (!row || row.is_confirmed !== 1) return null;
    const counter = await this.matchingCounter(row, code);
    if (counter !== null) return (await this.store.useCounter(row.id, counter)) ? 'totp' : null;
    if (!row.scratch_hash || !scratchMatches(row, code)) return null;
    return (await this.store.replaceScratch(row.id, row.scratch_hash, hashScratch(randomScratch()), nowUnix())) ? 'scratch' : null;
  }

  /**
   * The second factor of a password sign-in (`X-Forgejo-OTP`): 'none' when the account has no two-factor
   * authentication, else whether `code` is a current TOTP code not used before. TOTP only, as Forgejo's basic auth
   * (the scratch code is for the web sign-in). Pass it to `users.authenticate` as `secondFactor`, so a wrong code
   * counts in the `[security] LOGIN_*` throttle as a wrong password does.
   */
  async signInFactor(user: Pick<User, 'id'>, code: string): Promise<'none' | 'accepted' | 'refused'> {
    const row = await this.store.byUid(user.id);
    if (!row || row.is_confirmed !== 1) return 'none';
    const counter = await this.matchingCounter(row, code);
    return counter !== null && (await this.store.useCounter(row.id, counter)) ? 'accepted' : 'refused';
  }

  /** A current TOTP code not used before; records its step as used. */
  async verifyTotp(user: Pick<User, 'id'>, code: string): Promise<boolean> {
    const row = await this.store.byUid(user.id);
    if (!row || row.is_confirmed !== 1) return false;
    const counter = await this.matchingCounter(row, code);
    return counter !== null && (await this.store.useCounter(row.id, counter));
  }

  /** The time step (within the skew) whose code is `code`, compared in constant time; null when none. */
  private async matchingCounter(row: TwoFactor, code: string): Promise<number | null> {
    const trimmed = code.trim();
    if (!/^\d{6}$/.test(trimmed)) return null;
    const base32 = decryptSecret(this.ctx.settings.security.SECRET_KEY, SECRET_PURPOSE, row.secret_encrypted);
    // SECRET_KEY changed: the secret is lost, and no code can match (the admin resets two-factor).
    if (!base32) return null;
    const { HOTP, Secret } = await otpauth();
    const secret = Secret.fromBase32(base32);
    const now = Math.floor(Date.now() / 1000 / PERIOD);
    const given = Buffer.from(trimmed);
    let found: number | null = null;
    // Every candidate is computed and compared, so the time taken tells nothing about which matched.
    for (let counter = now - SKEW; counter <= now + SKEW; counter++) {
      const expected = Buffer.from(HOTP.generate({ secret, counter, digits: DIGITS, algorithm: 'SHA1' }));
      if (timingSafeEqual(expected, given) && found === null && counter > row.last_used_counter) found = counter;
    }
    return found;
  }

  private assertMayManage(actor: Actor, user: Pick<User, 'id'>): void {
    if (!isSelf(actor, user) && !isSiteAdmin(actor)) throw new ForbiddenError('you may not manage this user\'s two-factor authentication');
  }
}

function randomScratch(): string {
  let code = '';
  for (let i = 0; i < SCRATCH_LENGTH; i++) code += SCRATCH_ALPHABET[randomInt(SCRATCH_ALPHABET.length)];
  return code;
}

function hashScratch(code: string, salt = randomBytes(16).toString('hex')): { salt: string; hash: string } {
  return { salt, hash: pbkdf2Sync(code, salt, 10_000, 50, 'sha256').toString('hex') };
}

function scratchMatches(row: TwoFactor, code: string): boolean {
  const given = Buffer.from(hashScratch(code.trim(), row.scratch_salt).hash, 'hex');
  const stored = Buffer.from(row.scratch_hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
