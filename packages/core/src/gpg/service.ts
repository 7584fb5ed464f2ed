import './events.js';
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { isSelf, isSiteAdmin, type Actor } from '../users/index.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import type { User } from '../users/index.js';
import { UsersPort } from '../users/index.js';
import { CreateGPGKeyOptionSchema, VerifyGPGKeyOptionSchema, type CreateGPGKeyOption, type VerifyGPGKeyOption } from './schemas.js';
import { GpgKeysStore } from './store.js';
import type { GpgKey, GpgKeyWithSubkeys } from './tables.js';
import type { ParsedGpgKey } from './openpgp.js';

type OpenPgp = typeof import('./openpgp.js');
let openpgpModule: Promise<OpenPgp> | undefined;

/** openpgp.js is large (~50 ms and several MiB to load): loaded when a GPG key is first read, not at start-up. */
function loadOpenPgp(): Promise<OpenPgp> {
  return (openpgpModule ??= import('./openpgp.js'));
}

/** A key found by the id a signature names, with the whole public key to check the signature with. */
export interface GpgKeyForVerification {
  /** The row of the key id asked for (a primary key or a subkey). */
  key: GpgKey;
  /** The primary key's row (the same as `key` for a primary key). */
  primary: GpgKey;
  /** The primary key, armored, with all its subkeys and user ids. */
  armored: string;
}

const KEY_ID = /^[0-9A-F]{1,16}$/;
const FINGERPRINT = /^[0-9A-F]{40}$|^[0-9A-F]{64}$/;

/**
 * GPG keys of accounts: adding (optionally proving possession with a signed token), listing, verifying, deleting;
 * and finding a key by the key id a signature names, for commit and tag verification.
 */
export class GpgKeysService {
  private readonly store: GpgKeysStore;
  private tokenKeyBytes: Buffer | undefined;

  constructor(private readonly ctx: CoreContext) {
    this.store = ctx.store(GpgKeysStore);
  }

  /** An account's keys go with it. Registered once per host. */
  subscribe(): void {
    this.ctx.events.withinTransaction('user.deleted', async ({ payload }, tx) => {
      await tx.store(GpgKeysStore).deleteAllOf(payload.user.id);
    });
  }

  /** Keys are managed by their owner, or by a site administrator. */
  private assertMayManage(actor: Actor, user: User): void {
    if (!isSelf(actor, user) && !isSiteAdmin(actor)) throw new ForbiddenError('doer should be the site admin or be same as the contextUser');
  }

  /** The owner's verified addresses, lower-cased: those activated in `email_address`, and the primary one of an active account. */
  async verifiedEmailsOf(user: User): Promise<Set<string>> {
    const emails = new Set<string>();
    for (const email of await this.ctx.port(UsersPort).activatedEmailsOf(user.id)) emails.add(email);
    if (user.is_active === 1 && user.email) emails.add(user.email.toLowerCase());
    return emails;
  }

  /**
   * The token an account signs to prove it holds a key: the same for a minute, then the next (`minutesAhead` 1 is
   * the current token, 0 the one before it, still accepted). Keyed by a key derived from `[security] SECRET_KEY`,
   * so only this server can foresee it.
   */
  verificationToken(user: User, minutesAhead = 1): string {
    const minute = Math.floor(Date.now() / 60_000) + minutesAhead;
    return createHmac('sha256', this.tokenKey())
      .update(`${minute}:${user.created_unix}:${user.name}:${user.email}:${user.id}`)
      .digest('hex');
  }

  /**
   * The HMAC key of verification tokens: derived from SECRET_KEY (its own purpose, so a token says nothing of the
   * key used elsewhere). A host allowed to run with the empty key gets a random one instead: anyone could compute
   * tokens from the empty key; a random one only changes tokens at a restart, within which they are short-lived anyway.
   */
  private tokenKey(): Buffer {
    const secretKey = this.ctx.settings.security.SECRET_KEY;
    this.tokenKeyBytes ??= secretKey === '' ? randomBytes(32) : Buffer.from(hkdfSync('sha256', secretKey, 'repohost', 'gpg verification token', 32));
    return this.tokenKeyBytes;
  }

  /** `user`'s primary keys with their subkeys, oldest first. Public, as in Forgejo: whoever may see the user. */
  list(_actor: Actor, user: User, paging: Paging = {}): Promise<Page<GpgKeyWithSubkeys>> {
    return this.store.listOf(user.id, clampPage(this.ctx.settings, paging));
  }

  /** One of `user`'s keys by its id (a subkey's id finds the subkey, as in Forgejo). */
  async get(actor: Actor, user: User, id: number): Promise<GpgKeyWithSubkeys> {
    this.assertMayManage(actor, user);
    const key = Number.isSafeInteger(id) && id > 0 ? await this.store.byIdOf(user.id, id) : undefined;
    if (!key) throw new NotFoundError(`GPG key does not exist [id: ${id}]`);
    return key;
  }

  private invalidSignature(user: User): ValidationError {
    return new ValidationError(
      '',
      `The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: ${this.verificationToken(user)}`,
    );
  }

  /**
   * Adds the armored public key(s) to `user`'s account and returns the first. With `armored_signature` (the
   * verification token signed by the key) only the key that signed is added, verified. Without one, a key must
   * carry one of the account's verified addresses (Forgejo's rule), and stays unverified.
   */
  async add(actor: Actor, user: User, input: CreateGPGKeyOption): Promise<GpgKeyWithSubkeys> {
    this.assertMayManage(actor, user);
    const opts = acceptInput(CreateGPGKeyOptionSchema, input);
    if (opts.armored_public_key.trim() === '') throw new ValidationError('armored_public_key', 'Required');
    const { GpgKeyParseError, readArmoredPublicKeys, tokenSigner } = await loadOpenPgp();
    let parsed: ParsedGpgKey[];
    try {
      parsed = await readArmoredPublicKeys(opts.armored_public_key);
    } catch (error) {
      if (error instanceof GpgKeyParseError) throw new ValidationError('', `failed to parse gpg key: ${error.message}`);
      throw error;
    }
    let verified = false;
    if (opts.armored_signature) {
      const keys = parsed.map((p) => p.key);
      const signer =
        (await tokenSigner(keys, this.verificationToken(user, 1), opts.armored_signature)) ??
        (await tokenSigner(keys, this.verificationToken(user, 0), opts.armored_signature));
      const signed = signer && parsed.find((p) => p.keyId === signer || p.subkeys.some((s) => s.keyId === signer));
      if (!signed) throw this.invalidSignature(user);
      parsed = [signed];
      verified = true;
    }
    // A key registered already (by this account or another) is refused before its addresses are looked at: Forgejo's
    // AddGPGKey checks the id first (after the signature, when there is one).
    const ids = parsed.flatMap((key) => [key.keyId, ...key.subkeys.map((s) => s.keyId)]);
    if (new Set(ids).size !== ids.length || (await this.ctx.store(GpgKeysStore).existingKeyIds(ids)).length > 0) {
      throw new ValidationError('', 'A key with the same id already exists');
    }
    if (!verified) {
      const emails = await this.verifiedEmailsOf(user);
      for (const key of parsed) {
        if (!key.emails.some((email) => emails.has(email.toLowerCase()))) {
          throw new NotFoundError(
            `None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: ${this.verificationToken(user)}`,
          );
        }
      }
    }
    try {
      return await this.ctx.transaction(async (tx) => {
        const store = tx.store(GpgKeysStore);
        if ((await store.existingKeyIds(ids)).length > 0) throw new ValidationError('', 'A key with the same id already exists');
        const now = nowUnix();
        const added: GpgKeyWithSubkeys[] = [];
        for (const key of parsed) {
          await store.insertImport({ key_id: key.keyId, content: key.armored });
          const flags = (k: ParsedGpgKey | ParsedGpgKey['subkeys'][number]) => ({
            can_sign: k.canSign ? 1 : 0,
            can_encrypt_comms: k.canEncryptComms ? 1 : 0,
            can_encrypt_storage: k.canEncryptStorage ? 1 : 0,
            can_certify: k.canCertify ? 1 : 0,
          });
          const primary = await store.insert({
            owner_id: user.id,
            key_id: key.keyId,
            primary_key_id: '',
            content: key.content,
            emails: JSON.stringify(key.emails),
            verified: verified ? 1 : 0,
            ...flags(key),
            created_unix: key.createdUnix,
            expired_unix: key.expiresUnix,
            added_unix: now,
          });
          const subkeys: GpgKey[] = [];
          for (const subkey of key.subkeys) {
            subkeys.push(
              await store.insert({
                owner_id: user.id,
                key_id: subkey.keyId,
                primary_key_id: key.keyId,
                content: subkey.content,
                verified: verified ? 1 : 0,
                ...flags(subkey),
                created_unix: subkey.createdUnix,
                expired_unix: subkey.expiresUnix,
                added_unix: now,
              }),
            );
          }
          added.push({ key: primary, subkeys });
        }
        tx.emit('gpg_key.added', { keys: added.map((a) => a.key), user, actor });
        return added[0]!;
      });
    } catch (error) {
      // The same key added at the same moment elsewhere won the race for its ids.
      if (isUniqueViolation(error)) throw new ValidationError('', 'A key with the same id already exists');
      throw error;
    }
  }

  /**
   * Proves `user` holds one of their keys: `armored_signature` must be a detached signature of the current (or
   * previous) verification token by the key or one of its subkeys. Marks the key verified and returns it.
   */
  async verify(actor: Actor, user: User, input: VerifyGPGKeyOption): Promise<GpgKeyWithSubkeys> {
    this.assertMayManage(actor, user);
    const opts = acceptInput(VerifyGPGKeyOptionSchema, input);
    const keyId = normalizeKeyId(opts.key_id);
    const row = keyId ? await this.store.byKeyId(keyId) : undefined;
    if (!row || row.owner_id !== user.id) throw new NotFoundError(`GPG key does not exist [key_id: ${opts.key_id}]`);
    const primaryId = row.primary_key_id || row.key_id;
    const stored = await this.store.importOf(primaryId);
    const { readStoredKey, tokenSigner } = await loadOpenPgp();
    const key = stored && (await readStoredKey(stored.content));
    if (!key || !opts.armored_signature) throw this.invalidSignature(user);
    const signer =
      (await tokenSigner([key], this.verificationToken(user, 1), opts.armored_signature)) ??
      (await tokenSigner([key], this.verificationToken(user, 0), opts.armored_signature));
    if (!signer) throw this.invalidSignature(user);
    await this.store.markVerified(user.id, primaryId);
    const verified = await this.store.primaryByKeyIdOf(user.id, primaryId);
    if (!verified) throw new NotFoundError(`GPG key does not exist [key_id: ${opts.key_id}]`);
    return verified;
  }

  /** Deletes one of `user`'s keys with its subkeys (a subkey's id deletes that subkey, as in Forgejo). */
  async delete(actor: Actor, user: User, id: number): Promise<void> {
    const { key } = await this.get(actor, user, id);
    await this.ctx.transaction(async (tx) => {
      if (!(await tx.store(GpgKeysStore).deletePrimary(user.id, key.key_id))) throw new NotFoundError(`GPG key does not exist [id: ${id}]`);
      tx.emit('gpg_key.deleted', { key, user, actor });
    });
  }

  /**
   * The key a signature's issuer names (16 hex digits, or a fingerprint whose last 16 are the id), whoever owns
   * it, with its primary key and the whole armored key: what commit and tag verification start from.
   */
  async findByKeyId(keyIdOrFingerprint: string): Promise<GpgKeyForVerification | undefined> {
    const keyId = normalizeKeyId(keyIdOrFingerprint);
    const key = keyId ? await this.store.byKeyId(keyId) : undefined;
    if (!key) return undefined;
    const primary = key.primary_key_id ? await this.store.byKeyId(key.primary_key_id) : key;
    const stored = primary && (await this.store.importOf(primary.key_id));
    if (!primary || !stored) return undefined;
    return { key, primary, armored: stored.content };
  }
}

/** A key id as stored (16 upper-case hex digits, zero-padded), from an id or a fingerprint; undefined if neither. */
export function normalizeKeyId(text: string): string | undefined {
  const hex = text.trim().replace(/^0x/i, '').replace(/\s+/g, '').toUpperCase();
  // A v4 fingerprint ends with the key id; a v5 or v6 one (64 digits) starts with it.
  if (FINGERPRINT.test(hex)) return hex.length === 40 ? hex.slice(-16) : hex.slice(0, 16);
  if (!KEY_ID.test(hex)) return undefined;
  return hex.padStart(16, '0');
}
