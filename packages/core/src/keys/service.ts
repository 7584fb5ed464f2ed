import './events.js';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { SYSTEM, isSelf, isSiteAdmin, userActor, type Actor } from '../users/index.js';
import { AccessMode, type AccessModeValue } from '../access/index.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { canSignIn, isOrganization, type User } from '../users/index.js';
import { UsersPort } from '../users/index.js';
import type { RepoAccess } from '../repos/index.js';
import type { RenameFollower } from '../repos/index.js';
import type { GitService } from '../git/index.js';
import { ReposService } from '../repos/index.js';
import { CreateKeyOptionSchema, type CreateKeyOption } from './schemas.js';
import { KeyType, type DeployKey, type PublicKey } from './tables.js';
import { KeysStore, type DeployKeyWithContent } from './store.js';
import { KeyParseError, checkKeySize, parsePublicKey, type ParsedPublicKey } from './openssh.js';
import { keyBlobOf, verifySshSignature } from './sshsig.js';
import { GpgKeysService } from '../gpg/index.js';

/** A key that may sign in, with the account it signs in as. */
export interface AuthenticatedKey {
  key: PublicKey;
  user: User;
}

/**
 * What a key presented to the SSH server is: a user's key signs in as its owner; a deploy key signs in as
 * nobody, and may only reach the repositories it is a deploy key of ({@link KeysService.sshActor}).
 */
export type SshIdentity = ({ kind: 'user' } & AuthenticatedKey) | { kind: 'deploy'; key: PublicKey };

/** A repository a deploy key may reach, and its grant there. */
export interface DeployKeyAccess {
  /** The repository, with the mode the key grants on it. */
  access: RepoAccess;
  deployKey: DeployKey;
}

/** What a deploy key listing may be narrowed to (Forgejo's `key_id` and `fingerprint` query parameters). */
export interface DeployKeyFilter {
  keyId?: number;
  fingerprint?: string;
}

/** Forgejo's `MaxSize(50)` on a key's title. */
const MAX_TITLE_LENGTH = 50;
/** A key's use is recorded (its update time) at most this often, so that busy keys do not mean a write per fetch. */
const TOUCH_INTERVAL_SECONDS = 60;

/** SSH public keys: the keys users add to their account, and finding them again when a client presents one. */
export class KeysService {
  private readonly store: KeysStore;
  private readonly users: UsersPort;

  constructor(private readonly ctx: CoreContext) {
    this.store = ctx.store(KeysStore);
    this.users = ctx.port(UsersPort);
  }

  private get repos(): ReposService {
    return this.ctx.service(ReposService);
  }

  /** Deploy keys go with their repository; a key no repository uses any more goes too. Registered once per host. */
  subscribe(): void {
    this.ctx.events.withinTransaction('repo.deleted', async ({ payload }, tx) => {
      const keys = tx.store(KeysStore);
      await keys.deleteUnusedDeployPublicKeys(await keys.deleteDeployKeysOfRepo(payload.repo.id), KeyType.Deploy);
    });
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
    checkTitleAndKey(opts);
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

  /**
   * `/user/keys/{id}`: one of the actor's own keys, with its owner; a site administrator may read (and delete)
   * any user's key this way, as in Forgejo. Anyone else's key is not found (Forgejo shows it without its private
   * details; here a key of an account the caller may not see must not be learnt by its number).
   */
  async getForActor(actor: Actor, id: number): Promise<{ key: PublicKey; owner: User }> {
    const key = await this.findById(id);
    const self = actor.kind === 'user' ? actor.user : undefined;
    if (key && key.type === KeyType.User && self) {
      if (key.owner_id === self.id) return { key, owner: self };
      const owner = isSiteAdmin(actor) ? await this.users.byId(key.owner_id) : undefined;
      if (owner) return { key, owner };
    }
    throw new NotFoundError(`public key does not exist [id: ${id}]`);
  }

  /**
   * `/user/keys?fingerprint=…`: Forgejo searches every account for the fingerprint there. A site administrator
   * does so here too (user and deploy keys); anyone else finds among their own keys.
   */
  async searchByFingerprint(actor: Actor, user: User, fingerprint: string): Promise<Page<{ key: PublicKey; owner: User | undefined }>> {
    if (!isSiteAdmin(actor)) {
      const own = await this.store.listOf(user.id, KeyType.User, { page: 1, limit: 1 }, fingerprint);
      return { items: own.items.map((key) => ({ key, owner: user })), total: own.total };
    }
    const key = await this.store.byFingerprint(fingerprint);
    if (!key) return { items: [], total: 0 };
    const owner = key.owner_id === user.id ? user : key.owner_id > 0 ? await this.users.byId(key.owner_id) : undefined;
    return { items: [{ key, owner }], total: 1 };
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

  /** The token a user signs (`ssh-keygen -Y sign -n gitea`) to prove they hold a key: the GPG keys' token. */
  verificationToken(user: User): string {
    return this.ctx.service(GpgKeysService).verificationToken(user);
  }

  /**
   * Marks one of `user`'s keys verified when `signature` is its SSH signature (namespace "gitea", as Forgejo asks)
   * of the current or previous {@link verificationToken}. Only verified keys vouch for SSH-signed commits.
   */
  async verify(actor: Actor, user: User, id: number, signature: string): Promise<PublicKey> {
    this.assertMayManage(actor, user);
    const key = await this.get(actor, user, id);
    const blob = keyBlobOf(key.content);
    const gpg = this.ctx.service(GpgKeysService);
    // A Windows shell piping the token to ssh-keygen adds CR LF; Forgejo accepts that too.
    const tokens = [gpg.verificationToken(user, 1), gpg.verificationToken(user, 0)].flatMap((token) => [token, `${token}\r\n`]);
    if (!blob || !tokens.some((token) => verifySshSignature(Buffer.from(token), signature, blob, 'gitea'))) {
      throw new ValidationError('', `The provided SSH key, signature or token do not match or token is out of date. Provide a valid signature for the token: ${this.verificationToken(user)}`);
    }
    const now = nowUnix();
    await this.store.markVerified(key.id, now);
    return { ...key, verified: 1, updated_unix: now };
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
    return this.userOf(found);
  }

  /**
   * Who a key presented over SSH is: a user key of an account that may sign in, or a deploy key (which reaches
   * its repositories only, through {@link authorizeDeployKey}). Null for anything else.
   */
  async identify(key: { content: string } | { id: number }): Promise<SshIdentity | null> {
    const found = 'id' in key ? await this.findById(key.id) : await this.findByContent(key.content);
    if (!found) return null;
    if (found.type === KeyType.Deploy) return { kind: 'deploy', key: found };
    if (found.type !== KeyType.User) return null;
    const account = await this.userOf(found);
    return account && { kind: 'user', ...account };
  }

  private async userOf(found: PublicKey): Promise<AuthenticatedKey | null> {
    const user = await this.users.byId(found.owner_id);
    if (!user || isOrganization(user) || !canSignIn(user)) return null;
    const now = nowUnix();
    if (now - found.updated_unix >= TOUCH_INTERVAL_SECONDS) {
      await this.store.touch(found.id, now);
      found.updated_unix = now;
    }
    return { key: found, user };
  }

  /**
   * May deploy key `key` run a git service needing `needed` on `ownerName/repoName`? Only on a repository it is a
   * deploy key of (any other is not found, public or not), and pushing only with a read-write grant. Returns the
   * repository with the mode the key grants; git then runs as the repository's owner, as Forgejo records a
   * deploy key's push.
   */
  async authorizeDeployKey(key: PublicKey, ownerName: string, repoName: string, needed: AccessModeValue, followRenames?: RenameFollower): Promise<DeployKeyAccess> {
    if (key.type !== KeyType.Deploy) throw new NotFoundError('Repository not found');
    let access: RepoAccess;
    const name = repoName.replace(/\.git$/i, '');
    try {
      access = await this.repos.resolve(SYSTEM, ownerName, name);
    } catch (error) {
      // Deploy keys are for SSH, which serves a renamed or transferred repository under its old names too.
      const moved = error instanceof NotFoundError && followRenames ? await followRenames(SYSTEM, ownerName, name) : undefined;
      if (moved) access = moved;
      else if (error instanceof NotFoundError) throw new NotFoundError('Repository not found');
      else throw error;
    }
    const deployKey = await this.store.deployKeyOf(key.id, access.repo.id);
    if (!deployKey) throw new NotFoundError('Repository not found');
    if (deployKey.mode < needed) {
      throw new ForbiddenError(`Deploy Key: ${key.id}:${deployKey.name} is not authorized to write to ${access.owner.name}/${access.repo.name}.`);
    }
    const now = nowUnix();
    if (now - deployKey.updated_unix >= TOUCH_INTERVAL_SECONDS) {
      await this.store.touchDeployKey(deployKey.id, now);
      deployKey.updated_unix = now;
    }
    return { access: { ...access, mode: deployKey.mode as AccessModeValue }, deployKey };
  }

  /**
   * Who git runs as when `identity` asks over SSH for `request`: the one decision shared by the built-in SSH server
   * and `repohost serv` (OpenSSH). A user key: its account (the transfer then checks its access as smart HTTP does).
   * A deploy key: its grant on that repository first (none is not found, read-only refuses a push), then the
   * repository's owner, as Forgejo records a deploy key's push.
   */
  async sshActor(identity: SshIdentity, request: { owner: string; name: string; service: GitService; followRenames?: RenameFollower }): Promise<Actor> {
    if (identity.kind === 'user') return userActor(identity.user);
    const needed = request.service === 'receive-pack' ? AccessMode.Write : AccessMode.Read;
    const { access } = await this.authorizeDeployKey(identity.key, request.owner, request.name, needed, request.followRenames);
    return userActor(access.owner);
  }

  // Deploy keys: `/repos/{owner}/{repo}/keys`, for the repository's administrators.

  /** Forgejo's reqToken and reqAdmin on the deploy key routes. */
  private assertRepoAdmin(actor: Actor, access: RepoAccess): void {
    if (actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
    if (access.mode < AccessMode.Admin) throw new ForbiddenError('user should be an owner or a collaborator with admin write of a repository');
  }

  /** A repository's deploy keys, oldest first. */
  listDeployKeys(actor: Actor, access: RepoAccess, options: Paging & DeployKeyFilter = {}): Promise<Page<DeployKeyWithContent>> {
    this.assertRepoAdmin(actor, access);
    const filter: DeployKeyFilter = {};
    if (options.keyId) filter.keyId = options.keyId;
    if (options.fingerprint) filter.fingerprint = options.fingerprint;
    return this.store.listDeployKeys(access.repo.id, clampPage(this.ctx.settings, options), filter);
  }

  /** One of a repository's deploy keys; NotFound when it is not one of this repository's. */
  async getDeployKey(actor: Actor, access: RepoAccess, id: number): Promise<DeployKeyWithContent> {
    this.assertRepoAdmin(actor, access);
    const key = Number.isSafeInteger(id) && id > 0 ? await this.store.deployKeyById(id) : undefined;
    if (!key || key.repo_id !== access.repo.id) throw new NotFoundError(`deploy key does not exist [id: ${id}]`);
    return key;
  }

  /**
   * Adds a deploy key to a repository, read-only unless `read_only` is false. A key already used as a user key is
   * refused; a key that is a deploy key elsewhere is shared (one `public_key`), each repository with its own title
   * and mode.
   */
  async addDeployKey(actor: Actor, access: RepoAccess, input: CreateKeyOption): Promise<DeployKeyWithContent> {
    this.assertRepoAdmin(actor, access);
    const opts = acceptInput(CreateKeyOptionSchema, input);
    checkTitleAndKey(opts);
    const parsed = this.checkKeyContent(opts.key);
    // Go's zero value: an absent `read_only` grants write.
    const mode = opts.read_only ? AccessMode.Read : AccessMode.Write;
    const { repo, owner } = access;
    // A concurrent addition of the same key can win the race for its `public_key` row: the second try finds it.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.ctx.transaction(async (tx) => {
          const keys = tx.store(KeysStore);
          const now = nowUnix();
          let key = await keys.byFingerprint(parsed.fingerprint);
          if (key && key.type !== KeyType.Deploy) throw new ValidationError('', 'Key content has been used as non-deploy key');
          if (key && (await keys.deployKeyOf(key.id, repo.id))) throw new ValidationError('', 'This key has already been added to this repository');
          if (await keys.deployKeyNameTaken(repo.id, opts.title)) throw new ValidationError('', 'A key with the same name already exists');
          key ??= await keys.insert({
            owner_id: 0,
            name: opts.title,
            fingerprint: parsed.fingerprint,
            content: parsed.content,
            mode,
            type: KeyType.Deploy,
            created_unix: now,
            updated_unix: now,
          });
          const deployKey = await keys.insertDeployKey({
            key_id: key.id,
            repo_id: repo.id,
            name: opts.title,
            fingerprint: key.fingerprint,
            mode,
            created_unix: now,
            updated_unix: now,
          });
          tx.emit('deploy_key.added', { deployKey, repo, owner, actor });
          return { ...deployKey, content: key.content };
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (attempt >= 2) throw new ValidationError('', 'This key has already been added to this repository');
      }
    }
  }

  /** Removes a deploy key from a repository; its key goes too once no repository uses it. */
  async deleteDeployKey(actor: Actor, access: RepoAccess, id: number): Promise<void> {
    const key = await this.getDeployKey(actor, access, id);
    const { repo, owner } = access;
    await this.ctx.transaction(async (tx) => {
      const keys = tx.store(KeysStore);
      if (!(await keys.deleteDeployKey(repo.id, key.id))) throw new NotFoundError(`deploy key does not exist [id: ${id}]`);
      await keys.deleteUnusedDeployPublicKeys([key.key_id], KeyType.Deploy);
      const { content: _content, ...deployKey } = key;
      tx.emit('deploy_key.deleted', { deployKey, repo, owner, actor });
    });
  }
}

/** Forgejo's binding on `CreateKeyOption`: both required, the title at most 50 characters. */
function checkTitleAndKey(opts: CreateKeyOption): void {
  if (opts.title === '') throw new ValidationError('title', 'Required');
  if ([...opts.title].length > MAX_TITLE_LENGTH) throw new ValidationError('title', `MaxSize(${MAX_TITLE_LENGTH})`);
  if (opts.key.trim() === '') throw new ValidationError('key', 'Required');
}
