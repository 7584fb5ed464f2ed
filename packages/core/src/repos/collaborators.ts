/**
 * Collaborators: accounts given read, write or admin access to one repository they do not own
 * (`/repos/{owner}/{repo}/collaborators…`), with Forgejo's rules for who may add whom and what a collaborator's
 * permission reads as.
 */
import './collaborator-events.js';
import type { CoreContext } from '../context.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { nowUnix } from '../storage/index.js';
import { UsersPort } from '../users/index.js';
import { isOrganization, type User } from '../users/index.js';
import type { RepoAccess } from './access.js';
import { acceptInput } from '../validation/index.js';
import { isSelf, isSiteAdmin, userActor, type Actor } from '../users/index.js';
import { AccessMode, accessModeName, accessModeOf, type AccessModeName, type AccessModeValue } from '../access/index.js';
import { AccessService } from '../access/index.js';
import { AccessPort } from '../access/index.js';
import { AddCollaboratorOptionSchema, type AddCollaboratorOption } from './collaborator-schemas.js';

/** What Forgejo answers when a block stands between the repository's owner and the account. */
const BLOCKED_MESSAGE = 'user is blocked by the poster or repository owner';

/** What a missing account is called in Forgejo's error (`ErrUserNotExist`). */
function noSuchUser(name: string): string {
  return `user does not exist [uid: 0, name: ${name}]`;
}

/** A collaborator's permission on a repository, as `GET …/collaborators/{collaborator}/permission` reports it. */
export interface CollaboratorPermission {
  user: User;
  mode: AccessModeValue;
  /** The mode's name (`none` … `owner`): Forgejo's `permission` and `role_name`. */
  name: AccessModeName;
}

function assertRepoAdmin(actor: Actor, access: RepoAccess): void {
  if (access.mode < AccessMode.Admin && !isSiteAdmin(actor)) {
    throw new ForbiddenError('user should be an owner or a collaborator with admin write of a repository');
  }
}

export class CollaboratorsService {
  constructor(private readonly ctx: CoreContext) {}

  private get access(): AccessPort {
    return this.ctx.port(AccessPort);
  }

  /**
   * The account a collaborator path names. Forgejo answers a missing one with 422 on the collaborator routes
   * (`missing: 'validation'`) and 404 on the permission route (`missing: 'not_found'`).
   */
  async resolveAccount(name: string, missing: 'validation' | 'not_found' = 'validation'): Promise<User> {
    const user = await this.ctx.port(UsersPort).byName(name);
    if (user) return user;
    if (missing === 'not_found') throw new NotFoundError(noSuchUser(name));
    throw new ValidationError('', noSuchUser(name));
  }

  /** The repository's collaborators, oldest collaboration first (anyone who can see the repository may list them). */
  async list(_actor: Actor, access: RepoAccess, paging?: Paging): Promise<Page<User>> {
    const { items, total } = await this.access.collaborationsOf(access.repo.id, clampPage(this.ctx.settings, paging));
    const users = await this.ctx.port(UsersPort).byIds(items.map((c) => c.user_id));
    return { items: items.flatMap((c) => users.get(c.user_id) ?? []), total };
  }

  /** Is `user` a collaborator of the repository (a collaboration row, whatever its mode)? */
  async isCollaborator(_actor: Actor, access: RepoAccess, user: User): Promise<boolean> {
    return (await this.access.collaboration(access.repo.id, user.id)) !== undefined;
  }

  /**
   * Adds `user` as a collaborator (mode `write` unless `permission` says otherwise), or changes the mode of an
   * existing collaboration when `permission` is given, as Forgejo's `PUT`. Repository administrators may; the
   * account must be an active individual other than the owner, and no block may stand between it and the owner.
   */
  async add(actor: Actor, access: RepoAccess, user: User, input: AddCollaboratorOption = {}): Promise<void> {
    const opts = acceptInput(AddCollaboratorOptionSchema, input);
    assertRepoAdmin(actor, access);
    const { repo, owner } = access;
    // Forgejo's API answers an inactive account with a 500; the caller's input is what is wrong, so 422.
    if (user.is_active !== 1) throw new ValidationError('', "collaborator's account is inactive");
    if (isOrganization(user)) throw new ValidationError('', 'an organization cannot be a collaborator');
    if (user.id === owner.id) throw new ValidationError('', 'the owner of a repository cannot be its collaborator');
    const requested = opts.permission === undefined ? undefined : accessModeOf(opts.permission);
    const now = nowUnix();
    await this.ctx.transaction(async (tx) => {
      if (await tx.port(UsersPort).eitherBlocked(owner.id, user.id)) throw new ForbiddenError(BLOCKED_MESSAGE);
      const collaborations = tx.port(AccessPort);
      const existing = await collaborations.collaboration(repo.id, user.id);
      if (existing) {
        if (requested === undefined || requested === existing.mode) return;
        await collaborations.upsertCollaboration(repo.id, user.id, requested, now);
        tx.emit('repo.collaborator_added', {
          repo,
          owner,
          collaborator: user,
          mode: requested,
          created: false,
          previousMode: existing.mode as AccessModeValue,
          actor,
        });
        return;
      }
      const mode = requested ?? AccessMode.Write;
      await collaborations.upsertCollaboration(repo.id, user.id, mode, now);
      tx.emit('repo.collaborator_added', { repo, owner, collaborator: user, mode, created: true, actor });
    });
  }

  /** Removes the collaboration of `user` (nothing to remove is not an error, as in Forgejo). Repository administrators may. */
  async remove(actor: Actor, access: RepoAccess, user: User): Promise<void> {
    assertRepoAdmin(actor, access);
    const { repo, owner } = access;
    await this.ctx.transaction(async (tx) => {
      if (await tx.port(AccessPort).deleteCollaboration(repo.id, user.id)) {
        tx.emit('repo.collaborator_removed', { repo, owner, collaborator: user, actor });
      }
    });
  }

  /**
   * What `user` may do to the repository, whether a collaborator or not (the owner, site administrators, team
   * members, anyone). Forgejo lets site administrators, repository administrators and the account itself ask.
   */
  async permission(actor: Actor, access: RepoAccess, user: User): Promise<CollaboratorPermission> {
    if (!isSiteAdmin(actor) && !isSelf(actor, user) && access.mode < AccessMode.Admin) {
      throw new ForbiddenError('Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own');
    }
    const { mode } = await this.ctx.service(AccessService).repoAccess(userActor(user), access.repo, access.owner);
    return { user, mode, name: accessModeName(mode) };
  }
}
