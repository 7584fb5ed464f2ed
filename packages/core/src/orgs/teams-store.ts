/**
 * Teams, their members and their repositories (`team`, `team_user`, `team_repo`). Members' rows come from the
 * users domain's `user` table and repositories' from `repository`, read here, never written.
 */
import { sql, type Insertable, type Updateable } from 'kysely';
import { Store } from '../storage/index.js';
import { isStorableText, likeContaining } from '../storage/index.js';
import type { Row, Schema } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { AccessPort } from '../access/index.js';
import type { OwnedRepoFilter } from '../access/index.js';
import type { User, UsersTables } from '../users/index.js';
import { OWNER_TEAM_NAME, type OrgsTables, type Team, type TeamTable } from './tables.js';

type Tables = OrgsTables & Pick<UsersTables, 'user'> & Pick<Schema, 'repository'>;

/** Which teams a list shows: of one organization, of one member, matching a keyword. */
export interface TeamFilter {
  orgId?: number;
  memberId?: number;
  /** Lower-cased; matched inside the name (and the description when `includeDescription`). */
  keyword?: string;
  includeDescription?: boolean;
}

export class TeamsStore extends Store<Tables> {
  /** Compiled once: every `/teams/{id}/…` request loads its team. */
  private readonly byIdQuery = this.precompiled<Team, 'id'>('teamById', (db, param) => db.selectFrom('team').selectAll().where('id', '=', param('id')));
  private readonly memberQuery = this.precompiled<{ id: number }, 'team' | 'user'>('teamMember', (db, param) =>
    db.selectFrom('team_user').select('id').where('team_id', '=', param('team')).where('uid', '=', param('user')),
  );
  private readonly orgRepoQuery = this.precompiled<Row<'repository'>, 'owner' | 'name'>('orgRepo', (db, param) =>
    db.selectFrom('repository').selectAll().where('owner_id', '=', param('owner')).where('lower_name', '=', param('name')),
  );

  async byId(id: number): Promise<Team | undefined> {
    return (await this.byIdQuery({ id }))[0];
  }

  byName(orgId: number, name: string): Promise<Team | undefined> {
    return this.db.selectFrom('team').selectAll().where('org_id', '=', orgId).where('lower_name', '=', name.toLowerCase()).executeTakeFirst();
  }

  /**
   * The repository `name` of organization `orgId`: what a team's repository routes name (read here, as the repos
   * domain's own lookup reads it, so orgs needs no import of repos).
   */
  async orgRepo(orgId: number, name: string): Promise<Row<'repository'> | undefined> {
    if (!isStorableText(name)) return undefined;
    return (await this.orgRepoQuery({ owner: orgId, name: name.toLowerCase() }))[0];
  }

  /** The ids among `ids` that name teams of `orgId`. */
  async idsInOrg(orgId: number, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('team').select('id').where('org_id', '=', orgId).where('id', 'in', [...ids]).execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Teams passing `filter`, by name (Forgejo's order), one page and the count. */
  list(filter: TeamFilter, page: PageRequest): Promise<Page<Team>> {
    let base = this.db.selectFrom('team');
    if (filter.orgId !== undefined) base = base.where('team.org_id', '=', filter.orgId);
    if (filter.memberId !== undefined) {
      const memberId = filter.memberId;
      base = base.where('team.id', 'in', (eb) => eb.selectFrom('team_user').select('team_user.team_id').where('team_user.uid', '=', memberId));
    }
    if (filter.keyword) {
      const pattern = likeContaining(filter.keyword);
      base = base.where((eb) => {
        const any = [sql<boolean>`${sql.ref('team.lower_name')} LIKE ${pattern} ESCAPE '\\'`];
        if (filter.includeDescription) any.push(sql<boolean>`LOWER(${sql.ref('team.description')}) LIKE ${pattern} ESCAPE '\\'`);
        return eb.or(any);
      });
    }
    return Store.page(
      base.selectAll('team').orderBy('team.lower_name').orderBy('team.id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  insert(row: Insertable<TeamTable>): Promise<Team> {
    return this.db.insertInto('team').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, changes: Updateable<TeamTable>): Promise<Team> {
    return this.db.updateTable('team').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /** The team and what hangs off it: its members and repositories. */
  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('team_user').where('team_id', '=', id).execute();
    await this.db.deleteFrom('team_repo').where('team_id', '=', id).execute();
    await this.db.deleteFrom('team').where('id', '=', id).execute();
  }

  /** The ids of a team's members (for what deleting it leaves behind). */
  async memberIds(teamId: number): Promise<number[]> {
    return (await this.db.selectFrom('team_user').select('uid').where('team_id', '=', teamId).execute()).map((r) => r.uid);
  }

  async isMember(teamId: number, userId: number): Promise<boolean> {
    return (await this.memberQuery({ team: teamId, user: userId })).length > 0;
  }

  /** A team's members, by full name then name (Forgejo's order), one page and the count. */
  members(teamId: number, page: PageRequest): Promise<Page<User>> {
    const base = this.db.selectFrom('user').where('user.id', 'in', (eb) => eb.selectFrom('team_user').select('team_user.uid').where('team_user.team_id', '=', teamId));
    return Store.page(
      base.selectAll('user').orderBy('user.full_name').orderBy('user.name').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  async memberCount(teamId: number): Promise<number> {
    return Store.count(await this.db.selectFrom('team_user').select((eb) => eb.fn.countAll<number>().as('n')).where('team_id', '=', teamId).executeTakeFirst());
  }

  /** How many teams of `orgId` the account belongs to. */
  async teamCountOf(userId: number, orgId: number): Promise<number> {
    return Store.count(
      await this.db.selectFrom('team_user').select((eb) => eb.fn.countAll<number>().as('n')).where('uid', '=', userId).where('org_id', '=', orgId).executeTakeFirst(),
    );
  }

  async removeMember(teamId: number, userId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('team_user').where('team_id', '=', teamId).where('uid', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Does the team cover the repository: listed, or all of its organization's? */
  async hasRepo(team: Team, repo: Pick<Row<'repository'>, 'id' | 'owner_id'>): Promise<boolean> {
    if (repo.owner_id !== team.org_id) return false;
    if (team.includes_all_repositories === 1) return true;
    const row = await this.db.selectFrom('team_repo').select('id').where('team_id', '=', team.id).where('repo_id', '=', repo.id).executeTakeFirst();
    return row !== undefined;
  }

  /** Lists the repository on the team (no-op when it is listed). */
  async addRepo(team: Pick<Team, 'id' | 'org_id'>, repoId: number): Promise<boolean> {
    const existing = await this.db.selectFrom('team_repo').select('id').where('team_id', '=', team.id).where('repo_id', '=', repoId).executeTakeFirst();
    if (existing) return false;
    await this.db.insertInto('team_repo').values({ org_id: team.org_id, team_id: team.id, repo_id: repoId }).execute();
    return true;
  }

  /** Lists every repository of the team's organization on the team (those not listed yet). */
  async addAllRepos(team: Team): Promise<void> {
    await this.db
      .insertInto('team_repo')
      .columns(['org_id', 'team_id', 'repo_id'])
      .expression((eb) =>
        eb
          .selectFrom('repository')
          .select([eb.val(team.org_id).as('org_id'), eb.val(team.id).as('team_id'), 'repository.id as repo_id'])
          .where('repository.owner_id', '=', team.org_id)
          .where('repository.id', 'not in', eb.selectFrom('team_repo').select('team_repo.repo_id').where('team_repo.team_id', '=', team.id)),
      )
      .execute();
  }

  async removeRepo(teamId: number, repoId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('team_repo').where('team_id', '=', teamId).where('repo_id', '=', repoId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * A page of the team's repositories that `visible` lets through (the same filter an owner's repository list
   * applies, so the page and its count agree with single reads), by name, and their count.
   */
  async repos(team: Team, visible: OwnedRepoFilter, page: PageRequest): Promise<Page<Row<'repository'>>> {
    if (!visible.all && !visible.publicRepos && visible.grantedTo === undefined) return { items: [], total: 0 };
    let base = this.db.selectFrom('repository').where('repository.owner_id', '=', team.org_id);
    if (team.includes_all_repositories !== 1) {
      base = base.where('repository.id', 'in', (eb) => eb.selectFrom('team_repo').select('team_repo.repo_id').where('team_repo.team_id', '=', team.id));
    }
    if (!visible.all) {
      base = base.where((eb) => {
        const any = [];
        if (visible.publicRepos) any.push(eb('repository.is_private', '=', 0));
        if (visible.grantedTo !== undefined) any.push(eb('repository.id', 'in', AccessPort.grantedRepoIds(visible.grantedTo)));
        return eb.or(any);
      });
    }
    const { limit } = visible;
    if (limit) {
      base = base.where((eb) => eb.or([eb('repository.id', 'in', limit.ids.length > 0 ? [...limit.ids] : [0]), ...(limit.publicToo ? [eb('repository.is_private', '=', 0)] : [])]));
    }
    return Store.page(
      base.selectAll('repository').orderBy('repository.lower_name').orderBy('repository.id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** The teams of `orgId` that cover the repository, the Owners team first, then by name (Forgejo's order). */
  teamsOfRepo(orgId: number, repoId: number): Promise<Team[]> {
    return this.db
      .selectFrom('team')
      .selectAll()
      .where('org_id', '=', orgId)
      .where((eb) =>
        eb.or([
          eb('includes_all_repositories', '=', 1),
          eb('id', 'in', eb.selectFrom('team_repo').select('team_repo.team_id').where('team_repo.repo_id', '=', repoId)),
        ]),
      )
      .orderBy(sql`CASE WHEN lower_name = ${OWNER_TEAM_NAME.toLowerCase()} THEN 0 ELSE 1 END`)
      .orderBy('lower_name')
      .orderBy('id')
      .execute();
  }
}
