/**
 * The organization tables protection rules read (never write): team names and ids, team members, and which
 * teams cover a repository.
 */
import { Store } from '../storage/index.js';
import type { OrgsTables } from '../orgs/index.js';

type Tables = Pick<OrgsTables, 'team' | 'team_user' | 'team_repo'>;

export class ProtectionTeamsStore extends Store<Tables> {
  /** Teams of `orgId` by lower-cased name. */
  async idsByNames(orgId: number, lowerNames: readonly string[]): Promise<Map<string, number>> {
    if (lowerNames.length === 0) return new Map();
    const rows = await this.db.selectFrom('team').select(['id', 'lower_name']).where('org_id', '=', orgId).where('lower_name', 'in', [...new Set(lowerNames)]).execute();
    return new Map(rows.map((r) => [r.lower_name, r.id]));
  }

  /** Names of the teams with these ids, by id. */
  async namesByIds(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('team').select(['id', 'name']).where('id', 'in', [...new Set(ids)]).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** Is the user a member of any of these teams? */
  async inAnyTeam(userId: number, teamIds: readonly number[]): Promise<boolean> {
    if (teamIds.length === 0) return false;
    const row = await this.db.selectFrom('team_user').select('id').where('uid', '=', userId).where('team_id', 'in', [...new Set(teamIds)]).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Among `teamIds`, the teams of the repository's organization that cover it (listed on it, or covering all of
   * the organization's repositories): Forgejo keeps only those in a rule's team whitelists.
   */
  async coveringRepo(orgId: number, repoId: number, teamIds: readonly number[]): Promise<Set<number>> {
    if (teamIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('team')
      .select('team.id')
      .where('team.org_id', '=', orgId)
      .where('team.id', 'in', [...new Set(teamIds)])
      .where((eb) =>
        eb.or([
          eb('team.includes_all_repositories', '=', 1),
          eb('team.id', 'in', eb.selectFrom('team_repo').select('team_repo.team_id').where('team_repo.repo_id', '=', repoId)),
        ]),
      )
      .execute();
    return new Set(rows.map((r) => r.id));
  }
}
