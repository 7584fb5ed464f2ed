/**
 * Deleting and renaming organizations: the changes that reach repositories and their storage, kept apart from
 * `OrgsService` (here, above orgs and repos) because the repositories domain asks that service (who may create
 * repositories where).
 */
import '../users/index.js';
import '../orgs/index.js';
import { ConflictError, ForbiddenError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { isSiteAdmin, type Actor } from '../users/index.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { OwnerStorageExistsError } from '../git/index.js';
import { ReposService } from '../repos/index.js';
import { RepoStorageService } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import { UserAvatarsService } from '../users/index.js';
import { assertValidUsername } from '../users/index.js';
import type { User } from '../users/index.js';
import { OrgsPort } from '../orgs/index.js';
import { OrgsService } from '../orgs/index.js';
import { RenameOrgOptionSchema, type RenameOrgOption } from '../orgs/index.js';

export class OrgLifecycleService {
  constructor(private readonly ctx: CoreContext) {}

  private get orgs(): OrgsService {
    return this.ctx.service(OrgsService);
  }

  /**
   * `DELETE /orgs/{org}`: refused (422) while the organization owns repositories, as Forgejo refuses it. The row
   * goes through the users domain's delete, announcing `org.deleted` and `user.deleted` so that every domain
   * forgets it (teams, memberships, collaborations, stars, follows…) in the same transaction.
   */
  async delete(actor: Actor, org: User): Promise<void> {
    await this.orgs.assertOwner(actor, org);
    await this.remove(actor, org, { purge: false });
  }

  /**
   * Deletes the organization with its repositories (rows and storage): Forgejo's `DeleteOrganization(ctx, org,
   * true)`, which purging a user who was its last owner does. Site administrators only.
   */
  async purge(actor: Actor, org: User): Promise<void> {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('only site administrators may purge organizations');
    await this.remove(actor, org, { purge: true });
  }

  /** The deletion; a repository created meanwhile refuses it (422), purged or not. */
  private async remove(actor: Actor, org: User, options: { purge: boolean }): Promise<void> {
    try {
      await this.ctx.service(ReposService).withOwnedRepositoriesRemoved(org, { allowAny: options.purge, actor }, async (tx) => {
        // Checked again inside the transaction: a repository created meanwhile must not lose its owner.
        if (await tx.port(ReposPort).ownsAny(org.id)) throw new ConflictError(`user still has ownership of repositories [uid: ${org.id}]`);
        tx.emit('org.deleted', { org, actor });
        await tx.port(OrgsPort).deleteOrgRows(org.id);
        await tx.port(UsersPort).delete(org.id);
        tx.emit('user.deleted', { user: org, actor });
      });
    } catch (error) {
      if (error instanceof ConflictError) throw new ValidationError('', error.message);
      throw error;
    }
    if (org.use_custom_avatar === 1) await this.ctx.service(UserAvatarsService).discardIfUnused(org.avatar);
  }

  /**
   * `POST /orgs/{org}/rename`: the same rules as renaming an account (a usable, unused name; 422 otherwise); the
   * organization's folder of repositories moves with the row.
   */
  async rename(actor: Actor, org: User, input: RenameOrgOption): Promise<User> {
    await this.orgs.assertOwner(actor, org);
    const name = acceptInput(RenameOrgOptionSchema, input).new_name;
    assertValidUsername(name, 'new_name');
    if (name === org.name) return org;
    const lower = name.toLowerCase();
    const taken = () => new ValidationError('', `user already exists [name: ${name}]`);
    if (lower !== org.lower_name && (await this.ctx.port(UsersPort).byName(lower))) throw taken();
    try {
      return await this.ctx.service(RepoStorageService).renameOwnerWithStorage({ userId: org.id, from: org.lower_name, to: lower }, async (tx) => {
        let updated: User;
        try {
          updated = await tx.port(UsersPort).update(org.id, { name, lower_name: lower, updated_unix: nowUnix() });
        } catch (error) {
          if (isUniqueViolation(error)) throw taken();
          throw error;
        }
        tx.emit('user.renamed', { user: updated, oldName: org.name, actor });
        tx.emit('org.updated', { org: updated, actor });
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
