import type { RawBuilder } from 'kysely';
import type { StoreScope } from '../storage/index.js';
import { AccessStore, grantedRepoIds, memberOrgIds, teamRepoIds } from './store.js';
import type { RepoGrants } from './permissions.js';
import type { Collaboration } from './tables.js';
import type { Page, PageRequest } from '../paging.js';

/**
 * What other domains may read and write of access: the grants an account holds on repositories, collaborations,
 * and the SQL subqueries other domains' lists compose to filter by what was granted. The access store stays
 * private to this folder.
 */
export class AccessPort {
  constructor(private readonly scope: StoreScope) {}

  private get access(): AccessStore {
    return this.scope.store(AccessStore);
  }

  // ---- SQL for other domains' queries (no query of its own: composed into the caller's) ----

  /** The ids of the repositories an account was given (collaborations, teams), as a subquery for `IN`. */
  static grantedRepoIds(userId: number): RawBuilder<number> {
    return grantedRepoIds(userId);
  }

  /** The ids of a team's repositories (listed, or all of its organization's), as a subquery for `IN`. */
  static teamRepoIds(teamId: number): RawBuilder<number> {
    return teamRepoIds(teamId);
  }

  /** The ids of the organizations an account belongs to, as a subquery for `IN`. */
  static memberOrgIds(userId: number): RawBuilder<number> {
    return memberOrgIds(userId);
  }

  // ---- reads ----

  /** What an account was given on one repository (a cross-reference checks the doer may read its target). */
  grantsOn(userId: number, repoId: number, ownerId: number, ownerIsOrg: boolean): Promise<RepoGrants> {
    return this.access.grantsOn(userId, repoId, ownerId, ownerIsOrg);
  }

  /** What each of several accounts was given on one repository, in a fixed number of queries (watchers, reviewers). */
  grantsOfUsers(userIds: readonly number[], repoId: number, ownerId: number): Promise<Map<number, RepoGrants>> {
    return this.access.grantsOfUsers(userIds, repoId, ownerId);
  }

  /** The ids of a repository's collaborators with at least `minMode` (assignees, participants). */
  collaboratorIds(repoId: number, minMode: number): Promise<number[]> {
    return this.access.collaboratorIds(repoId, minMode);
  }

  /** `userId`'s collaboration on one repository, if any (the collaborators API). */
  collaboration(repoId: number, userId: number): Promise<Collaboration | undefined> {
    return this.access.collaboration(repoId, userId);
  }

  /** A repository's collaborations, oldest first. */
  collaborationsOf(repoId: number, page: PageRequest): Promise<Page<Collaboration>> {
    return this.access.collaborationsOf(repoId, page);
  }

  // ---- writes ----

  /** Adds the collaboration or changes its mode. */
  upsertCollaboration(repoId: number, userId: number, mode: number, now: number): Promise<void> {
    return this.access.upsertCollaboration(repoId, userId, mode, now);
  }

  /** Ends one collaboration; false when there was none. */
  deleteCollaboration(repoId: number, userId: number): Promise<boolean> {
    return this.access.deleteCollaboration(repoId, userId);
  }

  /** Ends `userId`'s collaborations on the repositories `ownerId` owns (a block ends them). */
  deleteCollaborationsOnReposOf(ownerId: number, userId: number): Promise<void> {
    return this.access.deleteCollaborationsOnReposOf(ownerId, userId);
  }
}
