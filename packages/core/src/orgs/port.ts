import type { StoreScope } from '../storage/index.js';
import { TeamsStore } from './teams-store.js';
import { TeamLookupStore } from './team-lookup-store.js';
import { OrgDirectoryStore } from './org-directory-store.js';
import { OrgsStore } from './store.js';
import type { Team } from './tables.js';

/**
 * What other domains may read and write of organizations and their teams: review requests name teams, a transfer
 * gives teams the repository, deleting an account asks about its memberships. The orgs stores stay private to
 * this folder.
 */
export class OrgsPort {
  constructor(private readonly scope: StoreScope) {}

  // ---- teams ----

  /** An organization's team by name, any case. */
  teamByName(orgId: number, name: string): Promise<Team | undefined> {
    return this.scope.store(TeamsStore).byName(orgId, name);
  }

  /** Teams by id, in one query (a page of reviews shows their requested teams). */
  teamsByIds(ids: readonly number[]): Promise<Team[]> {
    return this.scope.store(TeamLookupStore).byIds(ids);
  }

  /** Which of these teams the account belongs to, in one query. */
  teamsOfMember(userId: number, teamIds: readonly number[]): Promise<Set<number>> {
    return this.scope.store(TeamLookupStore).teamsOfMember(userId, teamIds);
  }

  /** Does the team cover the repository: listed, or all of its organization's? */
  teamHasRepo(team: Team, repo: { id: number; owner_id: number }): Promise<boolean> {
    return this.scope.store(TeamsStore).hasRepo(team, repo);
  }

  /** Lists the repository on those of `teamIds` that are teams of `orgId` (a transfer names the teams to get it). */
  async addRepoToTeams(orgId: number, teamIds: readonly number[], repoId: number): Promise<void> {
    const teams = this.scope.store(TeamsStore);
    for (const id of await teams.idsInOrg(orgId, teamIds)) await teams.addRepo({ id, org_id: orgId }, repoId);
  }

  // ---- memberships ----

  /**
   * Serializes, until the transaction ends, with every other change of the memberships of the organizations the
   * account belongs to (another process removing their other owners): the first statement of the transaction.
   */
  lockMembershipsOf(userId: number): Promise<void> {
    return this.scope.store(OrgsStore).lockMembershipsOf(userId);
  }

  /** How many organizations the account belongs to (an account still in one is not deleted unless purged). */
  membershipCount(userId: number): Promise<number> {
    return this.scope.store(OrgDirectoryStore).membershipCount(userId);
  }

  /**
   * The organizations whose Owners team has `userId` as its only member, by id (a purge deletes them). Typed from
   * the store: their rows are the users domain's, whose folder this port does not import.
   */
  solelyOwnedBy(userId: number): ReturnType<OrgDirectoryStore['solelyOwnedBy']> {
    return this.scope.store(OrgDirectoryStore).solelyOwnedBy(userId);
  }

  /** Deletes an organization's own rows: teams (their members and repositories cascade) and memberships. */
  deleteOrgRows(orgId: number): Promise<void> {
    return this.scope.store(OrgsStore).deleteOrgRows(orgId);
  }
}
