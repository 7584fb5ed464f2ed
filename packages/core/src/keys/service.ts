import './events.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { isSelf, isSiteAdmin, type Actor } from '../access/actor.js';
import { AccessMode } from '../access/permissions.js';
import { isUniqueViolation, nowUnix } from '../storage/database.js';
import { acceptInput } from '../validation/validate.js';
import { canSignIn, isOrganization, type User } from '../users/tables.js';
import { UsersStore } from '../users/store.js';
import { CreateKeyOptionSchema, type CreateKeyOption } from './schemas.js';
import { KeyType, type PublicKey } from './tables.js';
import { KeysStore } from './store.js';
import { KeyParseError, checkKeySize, parsePublicKey, type ParsedPublicKey } from './openssh.js';

/** A key that may sign in, with the account it signs in as. */
export interface AuthenticatedKey {
  key: PublicKey;
  user: User;
}

/** Forgejo's `MaxSize(50)` on a key's title. */
const MAX_TITLE_LENGTH = 50;
/** A key's use is recorded (its update time) at most this often, so that busy keys do not mean a write per fetch. */
const TOUCH_INTERVAL_SECONDS = 60;

/** SSH public keys: the keys users add to their account, and finding them again when a client presents one. */
export class KeysService {
  private readonly store: KeysStore;
  private readonly users: UsersStore;

  constructor(private readonly ctx: CoreContext) {
    this.store = ctx.store(KeysStore);
    this.users = ctx.store(UsersStore);
  }

  /** Keys are managed by their owner, or by a site administrator. */
  private assertMayManage(actor: Actor, user: User): void {
    if (!isSelf(actor, user) && !isSiteAdmin(actor)) throw new ForbiddenError('doer should be the site admin or be same as the contextUser');
  }

  /**
   * Reads and checks a public key as a user pasted it (OpenSSH line, RFC 4716 or PEM): one well-formed key, of an
   * allowed algorithm and size. Throws ValidationError with Forgejo's messages.
   */
  checkKeyContent(text: string): ParsedPublicKey {
    if (this.ctx.settings.server.DISABLE_SSH) throw new ValidationError('', 'SSH is disabled');
    try {
      const parsed = parsePublicKey(text);
      if (this.ctx.settings.server.MINIMUM_KEY_SIZE_CHECK) checkKeySize(parsed);
      return parsed;
    } catch (error) {
      if (!(error instanceof KeyParseError)) throw error;
      throw new ValidationError('', error.unverifiable ? 'Unable to verify key content' : `Invalid key content: ${error.message}`);
    }
  }

  /** Adds a key to `user`'s account. A user key always grants write access; `read_only` is for deploy keys. */
  async add(actor: Actor, user: User, input: CreateKeyOption): Promise<PublicKey> {
    this.assertMayManage(actor, user);
    const opts = acceptInput(CreateKeyOptionSchema, input);
    if (opts.title === '') throw new ValidationError('title', 'Required');
    if ([...opts.title].length > MAX_TITLE_LENGTH) throw new ValidationError('title', `MaxSize(${MAX_TITLE_LENGTH})`);
    if (opts.key.trim() === '') throw new ValidationError('key', 'Required');
    const parsed = this.checkKeyContent(opts.key);
    const now = nowUnix();
    try {
      return await this.ctx.transaction(async (tx) => {
        const keys = tx.store(KeysStore);
        if (await keys.byFingerprint(parsed.fingerprint)) throw new ValidationError('', 'Key content has been used as non-deploy key');
        if (await keys.ownerHasName(user.id, opts.title)) throw new ValidationError('', 'Key title has been used');
        const key = await keys.insert({
          owner_id: user.id,
          name: opts.title,
          fingerprint: parsed.fingerprint,
          content: parsed.content,
          mode: AccessMode.Write,
          type: KeyType.User,
          created_unix: now,
          updated_unix: now,
        });
        tx.emit('key.added', { key, user, actor });
        return key;
      });
    } catch (error) {
      // The same key added at the same moment elsewhere won the race for the fingerprint.
      if (isUniqueViolation(error)) throw new ValidationError('', 'Key content has been used as non-deploy key');
      throw error;
    }
  }

  /**
   * `user`'s keys, oldest first; only the one with `fingerprint` when given. Public keys are public, as in Forgejo:
   * whoever may see the user may list them (the converter hides the private details).
   */
  list(_actor: Actor, user: User, options: Paging & { fingerprint?: string } = {}): Promise<Page<PublicKey>> {
    return this.store.listOf(user.id, KeyType.User, clampPage(this.ctx.settings, options), options.fingerprint);
  }

  /** One of `user`'s keys; NotFound when it is not theirs. */
  async get(_actor: Actor, user: User, id: number): Promise<PublicKey> {
    const key = Number.isSafeInteger(id) ? await this.store.byId(id) : undefined;
    if (!key || key.owner_id !== user.id || key.type !== KeyType.User) throw new NotFoundError(`public key does not exist [id: ${id}]`);
    return key;
  }

  /** Deletes one of `user`'s keys (by its owner or a site administrator). */
  async delete(actor: Actor, user: User, id: number): Promise<void> {
    this.assertMayManage(actor, user);
    const key = await this.get(actor, user, id);
    await this.ctx.transaction(async (tx) => {
      if (!(await tx.store(KeysStore).deleteOne(user.id, key.id))) throw new NotFoundError(`public key does not exist [id: ${id}]`);
      tx.emit('key.deleted', { key, user, actor });
    });
  }

  /** The key with this content, in any form `parsePublicKey` reads (the comment is ignored); undefined if none. */
  async findByContent(content: string): Promise<PublicKey | undefined> {
    let normalized: string;
    try {
      normalized = parsePublicKey(content).content;
    } catch (error) {
      if (error instanceof KeyParseError) return undefined;
      throw error;
    }
    return this.store.byContent(normalized);
  }

  /** The key with this `SHA256:…` fingerprint, if any. */
  findByFingerprint(fingerprint: string): Promise<PublicKey | undefined> {
    return this.store.byFingerprint(fingerprint);
  }

  findById(id: number): Promise<PublicKey | undefined> {
    return Number.isSafeInteger(id) ? this.store.byId(id) : Promise.resolve(undefined);
  }

  /**
   * The account a presented key signs in as: a user key whose owner may sign in. Null for unknown keys, deploy
   * keys (they act on one repository, not as a user), and disabled accounts. The key's use is recorded.
   */
  async authenticate(key: { content: string } | { id: number }): Promise<AuthenticatedKey | null> {
    const found = 'id' in key ? await this.findById(key.id) : await this.findByContent(key.content);
    if (!found || found.type !== KeyType.User) return null;
    const user = await this.users.findById(found.owner_id);
    if (!user || isOrganization(user) || !canSignIn(user)) return null;
    const now = nowUnix();
    if (now - found.updated_unix >= TOUCH_INTERVAL_SECONDS) {
      await this.store.touch(found.id, now);
      found.updated_unix = now;
    }
    return { key: found, user };
  }
}
