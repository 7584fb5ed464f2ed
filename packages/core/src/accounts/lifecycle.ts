/**
 * Deleting and renaming individual accounts: the changes that reach repositories, organizations, credentials and
 * git storage. They sit here, above the users domain, because they span users, orgs, repos, tokens, two-factor and
 * keys, which all sit above users (see `org-lifecycle.ts` for organizations).
 */
import '../users/index.js';
import '../users/index.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { isSelf, isSiteAdmin, type Actor } from '../users/index.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { OwnerStorageExistsError } from '../git/index.js';
import { TokensPort } from '../tokens/index.js';
import { TwoFactorPort } from '../twofactor/index.js';
import { KeysPort } from '../keys/index.js';
import { ReposService } from '../repos/index.js';
import { RepoStorageService } from '../repos/index.js';
import { OrgsPort } from '../orgs/index.js';
import { UsersPort } from '../users/index.js';
import { UserAvatarsService } from '../users/index.js';
import { assertValidUsername } from '../users/index.js';
import { RenameUserOptionSchema, type RenameUserOption } from '../users/index.js';
import { isOrganization, type User } from '../users/index.js';
import { OrgLifecycleService } from './org-lifecycle.js';

export interface DeleteUserOptions {
  /** Also delete the user's repositories (otherwise a user who owns any is refused). */
  purge?: boolean;
}

/** What Forgejo says of a name that `assertValidUsername` refuses (its `user.form.*` texts), or the refusal itself. */
function usernameRefusal(error: ValidationError, name: string): ValidationError {
  if (error.reason.startsWith('name is reserved')) return new ValidationError('', `The username "${name}" is reserved.`);
  if (error.reason.startsWith('name pattern')) return new ValidationError('', `The pattern "${name}" is not allowed in a username.`);
  if (error.reason === 'invalid username') return new ValidationError('', `User name "${name}" contains invalid characters.`);
  return error;
}

const USERNAME_TAKEN = 'The username is already taken.';

/** Within `deleteUser`'s transaction: the account became the last owner of an organization after the purge looked. */
class LastOwnerMeanwhile extends Error {
  constructor(readonly refusal: ValidationError) {
    super(refusal.message);
  }
}

export class AccountLifecycleService {
  constructor(private readonly ctx: CoreContext) {}

  /**
   * Deletes an account with its tokens. A user who still owns repositories is refused unless `purge` is set, in
   * which case the repositories go too, and so do the organizations it is the last owner of, with theirs. The last
   * site administrator cannot be deleted.
   */
  async deleteUser(actor: Actor, user: User, options: DeleteUserOptions = {}): Promise<void> {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('only site administrators may delete users');
    const repos = this.ctx.service(ReposService);
    for (let attempt = 1; ; attempt++) {
      if (options.purge) {
        // Checked before anything goes (and again below, in the transaction), as Forgejo's DeleteUser does.
        if (user.is_admin === 1 && (await this.ctx.port(UsersPort).countAdmins()) <= 1) throw new ValidationError('username', 'can not delete the last admin user');
        // Forgejo's purge: organizations this account is the last owner of go, with their repositories; from the
        // others its memberships go with the account (below).
        const lifecycle = this.ctx.service(OrgLifecycleService);
        for (const org of await this.ctx.port(OrgsPort).solelyOwnedBy(user.id)) await lifecycle.purge(actor, org);
      }
      try {
        await this.deleteAccountRows(actor, user, options.purge ?? false, repos);
        break;
      } catch (error) {
        // Another owner of one of its organizations left meanwhile: that organization is purged now too.
        if (!(error instanceof LastOwnerMeanwhile) || attempt >= 3) throw error instanceof LastOwnerMeanwhile ? error.refusal : error;
      }
    }
    if (user.use_custom_avatar === 1) await this.ctx.service(UserAvatarsService).discardIfUnused(user.avatar);
  }

  /** The transaction of `deleteUser`: the account's rows (and, with `purge`, its repositories) go. */
  private async deleteAccountRows(actor: Actor, user: User, purge: boolean, repos: ReposService): Promise<void> {
    await repos.withOwnedRepositoriesRemoved(user, { allowAny: purge, actor }, async (tx) => {
      const users = tx.port(UsersPort);
      // The organizations it belongs to keep their membership until this commits (another process removing their
      // other owner waits), so the count of their owners below holds: none is left without one.
      if (purge) await tx.port(OrgsPort).lockMembershipsOf(user.id);
      if (user.is_admin === 1 && (await users.countAdmins()) <= 1) throw new ValidationError('username', 'can not delete the last admin user');
      // As Forgejo: an account still in organizations is refused unless purged (then its memberships go with it).
      if (!purge && (await tx.port(OrgsPort).membershipCount(user.id)) > 0) {
        throw new ConflictError(`user still has membership of organizations [uid: ${user.id}]`);
      }
      if (purge) {
        const sole = await tx.port(OrgsPort).solelyOwnedBy(user.id);
        if (sole.length > 0) throw new LastOwnerMeanwhile(new ValidationError('', `user is the last member of owner team [uid: ${user.id}]`));
      }
      await tx.port(TokensPort).deleteAllOf(user.id);
      await tx.port(TwoFactorPort).deleteOf(user.id);
      await tx.port(KeysPort).deleteAllOf(user.id);
      await users.delete(user.id);
      tx.emit('user.deleted', { user, actor });
    });
  }

  /**
   * `DELETE /admin/users/{username}` with Forgejo's refusals (422): an organization, oneself, an account that
   * still owns repositories without `purge`, the last site administrator.
   */
  async adminDeleteUser(actor: Actor, user: User, options: { purge?: boolean } = {}): Promise<void> {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('reqSiteAdmin');
    if (isOrganization(user)) throw new ValidationError('', `${user.name} is an organization not a user`);
    if (isSelf(actor, user)) throw new ValidationError('', 'you cannot delete yourself');
    try {
      await this.deleteUser(actor, user, { purge: options.purge ?? false });
    } catch (error) {
      if (error instanceof ConflictError) throw new ValidationError('', error.message);
      if (error instanceof ValidationError && error.reason.includes('last admin')) {
        throw new ValidationError('', `can not delete the last admin user [uid: ${user.id}]`);
      }
      throw error;
    }
  }

  /**
   * `POST /admin/users/{username}/rename`. The same name changes nothing; another case of it changes only the
   * name; otherwise the account's folder of repositories moves to the new name with the row, so clone URLs follow.
   * Names taken, reserved or malformed are refused with Forgejo's messages. Site administrators and the system only.
   */
  async renameUser(actor: Actor, user: User, input: RenameUserOption): Promise<User> {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('reqSiteAdmin');
    if (isOrganization(user)) throw new ValidationError('', `${user.name} is an organization not a user`);
    const name = acceptInput(RenameUserOptionSchema, input).new_username;
    if (name === user.name) return user;
    try {
      assertValidUsername(name, 'new_username');
    } catch (error) {
      throw error instanceof ValidationError ? usernameRefusal(error, name) : error;
    }
    const lower = name.toLowerCase();
    if (lower !== user.lower_name && (await this.ctx.port(UsersPort).byName(lower))) throw new ValidationError('', USERNAME_TAKEN);
    const storage = this.ctx.service(RepoStorageService);
    try {
      return await storage.renameOwnerWithStorage({ userId: user.id, from: user.lower_name, to: lower }, async (tx) => {
        let updated: User | undefined;
        try {
          updated = await tx.port(UsersPort).updateIfPresent(user.id, { name, lower_name: lower, updated_unix: nowUnix() });
        } catch (error) {
          // Taken meanwhile by a new account.
          if (isUniqueViolation(error)) throw new ValidationError('', USERNAME_TAKEN);
          throw error;
        }
        if (!updated) throw new NotFoundError(`user redirect does not exist [name: ${user.name}]`);
        tx.emit('user.renamed', { user: updated, oldName: user.name, actor });
        return updated;
      });
    } catch (error) {
      if (error instanceof OwnerStorageExistsError) {
        throw new ValidationError('', `repository files already exist under the name "${lower}"; ask a site administrator to adopt or delete them`);
      }
      throw error;
    }
  }
}
