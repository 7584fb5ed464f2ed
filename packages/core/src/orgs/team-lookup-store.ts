import { Store } from '../storage/index.js';
import type { OrgsTables, Team } from './tables.js';

/** Teams by id, many at once (the reviews domain shows requested teams of a page of pull requests). */
export class TeamLookupStore extends Store<Pick<OrgsTables, 'team' | 'team_user'>> {
  byIds(ids: readonly number[]): Promise<Team[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('team').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  }

  /** Which of these teams the user belongs to. */
  async teamsOfMember(userId: number, teamIds: readonly number[]): Promise<Set<number>> {
    if (teamIds.length === 0) return new Set();
    const rows = await this.db.selectFrom('team_user').select('team_id').where('uid', '=', userId).where('team_id', 'in', [...new Set(teamIds)]).execute();
    return new Set(rows.map((r) => Number(r.team_id)));
  }
}
