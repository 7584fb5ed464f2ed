/**
 * The access domain's SQL: collaborations (its own table) and the grants the permission question reads, which
 * also come from the organizations domain's membership and team tables (read here, never written).
 */
import { sql, type RawBuilder } from 'kysely';
import { Store } from '../storage/index.js';
import type { Schema } from '../storage/index.js';
import type { AccessTables, Collaboration } from './tables.js';
import { combineGrants, NO_GRANTS, type GrantSource, type RepoGrants } from './permissions.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';

type Tables = AccessTables & Pick<Schema, 'team' | 'team_repo' | 'team_user' | 'org_user' | 'repository'>;

/** One row of the grants query: 0 a collaboration, 1 a team with access, 2 a membership of the owner. */
interface GrantRow {
  kind: number;
  mode: number;
  units: string;
}

/**
 * The ids of the repositories an account was given access to: its collaborations, and repositories of teams it
 * belongs to (listed, or all of the organization's). A parenthesized subquery for `IN` in other domains' queries.
 */
export function grantedRepoIds(userId: number): RawBuilder<number> {
  return sql<number>`(SELECT repo_id FROM collaboration WHERE user_id = ${userId}
    UNION SELECT team_repo.repo_id FROM team_repo INNER JOIN team_user ON team_user.team_id = team_repo.team_id
      INNER JOIN team ON team.id = team_repo.team_id WHERE team_user.uid = ${userId} AND team.authorize > 0
    UNION SELECT repository.id FROM repository INNER JOIN team ON team.org_id = repository.owner_id
      INNER JOIN team_user ON team_user.team_id = team.id
      WHERE team.includes_all_repositories = 1 AND team.authorize > 0 AND team_user.uid = ${userId})`;
}

/** The ids of a team's repositories (listed, or all of its organization's). */
export function teamRepoIds(teamId: number): RawBuilder<number> {
  return sql<number>`(SELECT team_repo.repo_id FROM team_repo WHERE team_repo.team_id = ${teamId}
    UNION SELECT repository.id FROM repository INNER JOIN team ON team.org_id = repository.owner_id
      WHERE team.id = ${teamId} AND team.includes_all_repositories = 1)`;
}

/** The ids of the organizations an account belongs to, for `IN (…)` inside other domains' queries. */
export function memberOrgIds(userId: number): RawBuilder<number> {
  return sql<number>`(SELECT org_id FROM org_user WHERE uid = ${userId})`;
}

function parseUnits(text: string): Record<string, number> | undefined {
  if (text === '' || text === '{}') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, number>) : undefined;
  } catch {
    return undefined;
  }
}

export class AccessStore extends Store<Tables> {
  /** Compiled once: asked on every request that reads someone else's repository as a signed-in account. */
  private readonly grantsQuery = this.precompiled<GrantRow, 'repo' | 'user' | 'org'>('grants', (db, param) =>
    db
      .selectFrom('collaboration')
      .select([sql<number>`0`.as('kind'), 'mode', sql<string>`''`.as('units')])
      .where('repo_id', '=', param('repo'))
      .where('user_id', '=', param('user'))
      .unionAll(
        db
          .selectFrom('team_user')
          .innerJoin('team', 'team.id', 'team_user.team_id')
          .select([sql<number>`1`.as('kind'), 'team.authorize as mode', 'team.units as units'])
          .where('team_user.uid', '=', param('user'))
          .where('team_user.org_id', '=', param('org'))
          .where((eb) =>
            eb.or([
              eb('team.includes_all_repositories', '=', sql.lit(1)),
              eb.exists(
                eb.selectFrom('team_repo').select('team_repo.id').whereRef('team_repo.team_id', '=', 'team.id').where('team_repo.repo_id', '=', param('repo')),
              ),
            ]),
          ),
      )
      .unionAll(
        db
          .selectFrom('org_user')
          .select([sql<number>`2`.as('kind'), sql<number>`0`.as('mode'), sql<string>`''`.as('units')])
          .where('uid', '=', param('user'))
          .where('org_id', '=', param('org')),
      ),
  );
  private readonly collaborationQuery = this.precompiled<{ mode: number }, 'repo' | 'user'>('collaborationMode', (db, param) =>
    db.selectFrom('collaboration').select('mode').where('repo_id', '=', param('repo')).where('user_id', '=', param('user')),
  );
  private readonly memberQuery = this.precompiled<{ id: number }, 'user' | 'org'>('member', (db, param) =>
    db.selectFrom('org_user').select('id').where('uid', '=', param('user')).where('org_id', '=', param('org')),
  );

  /**
   * What account `userId` was given on repository `repo` (owned by `ownerId`); only a collaboration can be given
   * on a repository of an individual (`ownerIsOrg` false), which is a cheaper question.
   */
  async grantsOn(userId: number, repoId: number, ownerId: number, ownerIsOrg: boolean): Promise<RepoGrants> {
    if (!ownerIsOrg) {
      const [row] = await this.collaborationQuery({ repo: repoId, user: userId });
      return row ? combineGrants(false, [{ mode: Number(row.mode) }]) : NO_GRANTS;
    }
    const rows = await this.grantsQuery({ repo: repoId, user: userId, org: ownerId });
    if (rows.length === 0) return NO_GRANTS;
    return grantsOf(rows);
  }

  /** The grants of one account on several repositories, in a fixed number of queries. */
  async grantsOnMany(userId: number, repos: readonly { id: number; owner_id: number }[]): Promise<Map<number, RepoGrants>> {
    const result = new Map<number, RepoGrants>();
    if (repos.length === 0) return result;
    const repoIds = [...new Set(repos.map((r) => r.id))];
    const ownerIds = [...new Set(repos.map((r) => r.owner_id))];
    const [collaborations, teams, members] = await Promise.all([
      this.db.selectFrom('collaboration').select(['repo_id', 'mode']).where('user_id', '=', userId).where('repo_id', 'in', repoIds).execute(),
      this.db
        .selectFrom('team_user')
        .innerJoin('team', 'team.id', 'team_user.team_id')
        .select(['team.id', 'team.org_id', 'team.authorize', 'team.units', 'team.includes_all_repositories'])
        .where('team_user.uid', '=', userId)
        .where('team_user.org_id', 'in', ownerIds)
        .execute(),
      this.db.selectFrom('org_user').select('org_id').where('uid', '=', userId).where('org_id', 'in', ownerIds).execute(),
    ]);
    const listed = teams.some((t) => t.includes_all_repositories !== 1)
      ? await this.db
          .selectFrom('team_repo')
          .select(['team_id', 'repo_id'])
          .where('team_id', 'in', teams.map((t) => t.id))
          .where('repo_id', 'in', repoIds)
          .execute()
      : [];
    const listedPairs = new Set(listed.map((r) => `${r.team_id}:${r.repo_id}`));
    const memberOf = new Set(members.map((m) => m.org_id));
    const collaborationOf = new Map(collaborations.map((c) => [c.repo_id, c.mode]));
    for (const repo of repos) {
      const sources: GrantSource[] = [];
      const collaboration = collaborationOf.get(repo.id);
      if (collaboration !== undefined) sources.push({ mode: collaboration });
      for (const team of teams) {
        if (team.org_id !== repo.owner_id) continue;
        if (team.includes_all_repositories === 1 || listedPairs.has(`${team.id}:${repo.id}`)) sources.push({ mode: team.authorize, units: parseUnits(team.units) ?? {} });
      }
      const member = memberOf.has(repo.owner_id);
      result.set(repo.id, sources.length === 0 && !member ? NO_GRANTS : combineGrants(member, sources));
    }
    return result;
  }

  /** What each of several accounts was given on one repository, in a fixed number of queries. */
  async grantsOfUsers(userIds: readonly number[], repoId: number, ownerId: number): Promise<Map<number, RepoGrants>> {
    const result = new Map<number, RepoGrants>();
    if (userIds.length === 0) return result;
    const ids = [...new Set(userIds)];
    const [collaborations, teams, members] = await Promise.all([
      this.db.selectFrom('collaboration').select(['user_id', 'mode']).where('repo_id', '=', repoId).where('user_id', 'in', ids).execute(),
      this.db
        .selectFrom('team_user')
        .innerJoin('team', 'team.id', 'team_user.team_id')
        .select(['team_user.uid', 'team.authorize', 'team.units'])
        .where('team_user.uid', 'in', ids)
        .where('team_user.org_id', '=', ownerId)
        .where((eb) =>
          eb.or([
            eb('team.includes_all_repositories', '=', 1),
            eb.exists(eb.selectFrom('team_repo').select('team_repo.id').whereRef('team_repo.team_id', '=', 'team.id').where('team_repo.repo_id', '=', repoId)),
          ]),
        )
        .execute(),
      this.db.selectFrom('org_user').select('uid').where('org_id', '=', ownerId).where('uid', 'in', ids).execute(),
    ]);
    const memberIds = new Set(members.map((m) => m.uid));
    for (const id of ids) {
      const sources: GrantSource[] = [];
      for (const c of collaborations) if (c.user_id === id) sources.push({ mode: c.mode });
      for (const t of teams) if (t.uid === id) sources.push({ mode: t.authorize, units: parseUnits(t.units) ?? {} });
      const member = memberIds.has(id);
      result.set(id, sources.length === 0 && !member ? NO_GRANTS : combineGrants(member, sources));
    }
    return result;
  }

  /** Every repository an account was given and every organization it belongs to (for the search catalog). */
  async accountGrants(userId: number): Promise<{ repoIds: Set<number>; orgIds: Set<number> }> {
    const [repos, orgs] = await Promise.all([
      sql<{ repo_id: number }>`SELECT repo_id FROM ${grantedRepoIds(userId)} AS granted`.execute(this.db),
      sql<{ org_id: number }>`SELECT org_id FROM ${memberOrgIds(userId)} AS orgs`.execute(this.db),
    ]);
    return { repoIds: new Set(repos.rows.map((r) => Number(r.repo_id))), orgIds: new Set(orgs.rows.map((r) => Number(r.org_id))) };
  }

  async isMember(userId: number, orgId: number): Promise<boolean> {
    return (await this.memberQuery({ user: userId, org: orgId })).length > 0;
  }

  // Collaborations.

  async collaboration(repoId: number, userId: number): Promise<Collaboration | undefined> {
    return this.db.selectFrom('collaboration').selectAll().where('repo_id', '=', repoId).where('user_id', '=', userId).executeTakeFirst();
  }

  /** Adds the collaboration or changes its mode. */
  async upsertCollaboration(repoId: number, userId: number, mode: number, now: number): Promise<void> {
    const updated = await this.db
      .updateTable('collaboration')
      .set({ mode, updated_unix: now })
      .where('repo_id', '=', repoId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return;
    await this.db.insertInto('collaboration').values({ repo_id: repoId, user_id: userId, mode, created_unix: now, updated_unix: now }).execute();
  }

  async deleteCollaboration(repoId: number, userId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('collaboration').where('repo_id', '=', repoId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** A repository's collaborations, oldest first. */
  async collaborationsOf(repoId: number, page: PageRequest): Promise<Page<Collaboration>> {
    const base = this.db.selectFrom('collaboration').where('repo_id', '=', repoId);
    return Store.page(
      base.selectAll().orderBy('id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** The ids of a repository's collaborators with at least `minMode`. */
  async collaboratorIds(repoId: number, minMode: number): Promise<number[]> {
    const rows = await this.db.selectFrom('collaboration').select('user_id').where('repo_id', '=', repoId).where('mode', '>=', minMode).execute();
    return rows.map((r) => r.user_id);
  }

  /** Removes every collaboration of a repository or of an account (they are being deleted). */
  async deleteCollaborationsOfRepo(repoId: number): Promise<void> {
    await this.db.deleteFrom('collaboration').where('repo_id', '=', repoId).execute();
  }

  /** Ends `userId`'s collaborations on the repositories `ownerId` owns (a block ends them); the repository ids. */
  async deleteCollaborationsOnReposOf(ownerId: number, userId: number): Promise<void> {
    await this.db
      .deleteFrom('collaboration')
      .where('user_id', '=', userId)
      .where('repo_id', 'in', (eb) => eb.selectFrom('repository').select('repository.id').where('repository.owner_id', '=', ownerId))
      .execute();
  }

  async deleteCollaborationsOfUser(userId: number): Promise<void> {
    await this.db.deleteFrom('collaboration').where('user_id', '=', userId).execute();
  }
}

function grantsOf(rows: readonly GrantRow[]): RepoGrants {
  let member = false;
  const sources: GrantSource[] = [];
  for (const row of rows) {
    const kind = Number(row.kind);
    if (kind === 2) member = true;
    else if (kind === 1) sources.push({ mode: Number(row.mode), units: parseUnits(row.units) ?? {} });
    else sources.push({ mode: Number(row.mode) });
  }
  return combineGrants(member, sources);
}
