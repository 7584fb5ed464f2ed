/**
 * Answers "what may this actor do here" for every entry point (the API's route groups, git over HTTP and SSH,
 * lists and searches), loading what the actor was granted in a fixed number of queries.
 */
import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import { isOrganization, type User } from '../users/index.js';
import { AccessStore } from './store.js';
import {
  canSeeUser,
  NO_GRANTS,
  ownedRepoFilter,
  repoPermission,
  type OwnedRepoFilter,
  type RepoAccessOf,
  type RepoGrants,
  type RepoSubject,
} from './permissions.js';

export class AccessService {
  constructor(private readonly ctx: CoreContext) {}

  /**
   * Collaborations go with their account and repository; a repository moving to a new owner keeps its
   * collaborators but not the new owner's own collaboration (owners need none). Once per host.
   */
  subscribe(): void {
    this.ctx.events.withinTransaction('user.deleted', async ({ payload }, tx) => tx.store(AccessStore).deleteCollaborationsOfUser(payload.user.id));
    this.ctx.events.withinTransaction('repo.deleted', async ({ payload }, tx) => tx.store(AccessStore).deleteCollaborationsOfRepo(payload.repo.id));
    this.ctx.events.withinTransaction('repo.transferred', async ({ payload }, tx) => {
      await tx.store(AccessStore).deleteCollaboration(payload.repo.id, payload.owner.id);
    });
  }

  private get store(): AccessStore {
    return this.ctx.store(AccessStore);
  }

  /** The grants that could change the answer for `actor` on `repo`; none are read when they cannot. */
  private async grantsOn(actor: Actor, repo: RepoSubject, owner: User): Promise<RepoGrants> {
    // The owner and site administrators own the repository whatever they were given.
    // A public-only token keeps its account's grants on public repositories of public owners (Forgejo's
    // PublicReposAuthorizationReducer); `repoPermission` answers None for the rest. A workflow task's token is
    // given nothing: its task decides.
    if (actor.kind !== 'user' || actor.task || actor.user.id === owner.id || actor.user.is_admin === 1) return NO_GRANTS;
    return this.store.grantsOn(actor.user.id, repo.id, owner.id, isOrganization(owner));
  }

  /** `repo` with what `actor` may do to it (mode None: the actor may not see it). */
  async repoAccess<R extends RepoSubject>(actor: Actor, repo: R, owner: User): Promise<RepoAccessOf<R>> {
    return { repo, owner, ...repoPermission(actor, repo, owner, await this.grantsOn(actor, repo, owner)) };
  }

  /** The same for a page of repositories, in a fixed number of queries. */
  async repoAccessMany<R extends RepoSubject & { owner_id: number }>(actor: Actor, pairs: readonly { repo: R; owner: User }[]): Promise<RepoAccessOf<R>[]> {
    const asking = actor.kind === 'user' && !actor.task ? actor.user : undefined;
    const needing = asking && asking.is_admin !== 1 ? pairs.filter(({ owner }) => owner.id !== asking.id) : [];
    const grants = asking && needing.length > 0 ? await this.store.grantsOnMany(asking.id, needing.map(({ repo }) => repo)) : new Map<number, RepoGrants>();
    return pairs.map(({ repo, owner }) => ({ repo, owner, ...repoPermission(actor, repo, owner, grants.get(repo.id) ?? NO_GRANTS) }));
  }

  /** Is `actor` a member of organization `org`? */
  async isMember(actor: Actor, org: User): Promise<boolean> {
    if (actor.kind !== 'user' || !isOrganization(org)) return false;
    return this.store.isMember(actor.user.id, org.id);
  }

  /** May `actor` see account `user`? Non-public organizations are visible to their members. */
  async canSee(actor: Actor, user: User): Promise<boolean> {
    if (canSeeUser(actor, user)) return true;
    if (actor.kind !== 'user' || actor.publicOnly || !isOrganization(user)) return false;
    return this.store.isMember(actor.user.id, user.id);
  }

  /** Which of `owner`'s repositories `actor` may list (see `ownedRepoFilter`). */
  async ownedRepoFilter(actor: Actor, owner: User): Promise<OwnedRepoFilter> {
    const member = isOrganization(owner) ? await this.isMember(actor, owner) : false;
    return ownedRepoFilter(actor, owner, member);
  }

  /** Every repository a signed-in account was given and its organizations (for searches held in memory). */
  accountGrants(userId: number): Promise<{ repoIds: Set<number>; orgIds: Set<number> }> {
    return this.store.accountGrants(userId);
  }
}
