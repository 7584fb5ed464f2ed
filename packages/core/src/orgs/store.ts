/** Organization membership and the teams' rows that membership and the Owners team need (see teams-store.ts). */
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { AccessMode } from '../access/index.js';
import { OWNER_TEAM_NAME, type OrgsTables, type OrgUser, type Team } from './tables.js';

export class OrgsStore extends Store<OrgsTables> {
  private readonly memberQuery = this.precompiled<OrgUser, 'user' | 'org'>('member', (db, param) =>
    db.selectFrom('org_user').selectAll().where('uid', '=', param('user')).where('org_id', '=', param('org')),
  );
  private readonly ownerQuery = this.precompiled<{ id: number }, 'user' | 'org' | 'owner'>('owner', (db, param) =>
    db
      .selectFrom('team_user')
      .innerJoin('team', 'team.id', 'team_user.team_id')
      .select('team.id')
      .where('team_user.uid', '=', param('user'))
      .where('team_user.org_id', '=', param('org'))
      .where('team.authorize', '=', param('owner')),
  );

  membership(userId: number, orgId: number): Promise<OrgUser | undefined> {
    return this.memberQuery({ user: userId, org: orgId }).then((rows) => rows[0]);
  }

  /** Is the account in the organization's Owners team? */
  async isOwner(userId: number, orgId: number): Promise<boolean> {
    return (await this.ownerQuery({ user: userId, org: orgId, owner: AccessMode.Owner })).length > 0;
  }

  /** Adds the account to the organization's members (no-op when it is one). */
  async addMember(userId: number, orgId: number): Promise<void> {
    if (await this.membership(userId, orgId)) return;
    await this.db.insertInto('org_user').values({ uid: userId, org_id: orgId, is_public: 0 }).execute();
  }

  /** Removes the account from the organization: its membership and every team of the organization. */
  async removeMember(userId: number, orgId: number): Promise<boolean> {
    await this.db.deleteFrom('team_user').where('uid', '=', userId).where('org_id', '=', orgId).execute();
    const result = await this.db.deleteFrom('org_user').where('uid', '=', userId).where('org_id', '=', orgId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async setPublic(userId: number, orgId: number, isPublic: boolean): Promise<void> {
    await this.db.updateTable('org_user').set({ is_public: isPublic ? 1 : 0 }).where('uid', '=', userId).where('org_id', '=', orgId).execute();
  }

  /** The ids of an organization's members (all, or the public ones), by membership, one page and the count. */
  async memberIds(orgId: number, options: { publicOnly: boolean; page: PageRequest }): Promise<Page<number>> {
    let base = this.db.selectFrom('org_user').where('org_id', '=', orgId);
    if (options.publicOnly) base = base.where('is_public', '=', 1);
    const { items, total } = await Store.page(
      base.select('uid').orderBy('id').limit(options.page.limit).offset(offsetOf(options.page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
    return { items: items.map((r) => r.uid), total };
  }

  /** The ids of the organizations an account belongs to, oldest membership first. */
  async orgIdsOf(userId: number): Promise<number[]> {
    return (await this.db.selectFrom('org_user').select('org_id').where('uid', '=', userId).orderBy('id').execute()).map((r) => r.org_id);
  }

  /**
   * Serializes changes of the organization's membership (its members, its teams' members) until the transaction
   * ends, so that a check of what the membership is (the last owner, the last team) holds when the change writes:
   * on PostgreSQL the Owners team's row is locked (`FOR UPDATE`); on SQLite, which has one writer, the transaction
   * becomes the writer now, before it reads anything. The first statement of the transaction.
   */
  async lockMembership(orgId: number): Promise<void> {
    const owners = OWNER_TEAM_NAME.toLowerCase();
    if (this.scope.storage.dialect === 'postgres') {
      await this.db.selectFrom('team').select('id').where('org_id', '=', orgId).where('lower_name', '=', owners).forUpdate().execute();
    } else {
      await this.db.updateTable('team').set((eb) => ({ updated_unix: eb.ref('updated_unix') })).where('org_id', '=', orgId).where('lower_name', '=', owners).execute();
    }
  }

  /** `lockMembership` of every organization the account belongs to, in one statement (in team order). */
  async lockMembershipsOf(userId: number): Promise<void> {
    const owners = OWNER_TEAM_NAME.toLowerCase();
    const orgsOf = this.db.selectFrom('org_user').select('org_id').where('uid', '=', userId);
    if (this.scope.storage.dialect === 'postgres') {
      await this.db.selectFrom('team').select('id').where('lower_name', '=', owners).where('org_id', 'in', orgsOf).orderBy('id').forUpdate().execute();
    } else {
      await this.db.updateTable('team').set((eb) => ({ updated_unix: eb.ref('updated_unix') })).where('lower_name', '=', owners).where('org_id', 'in', orgsOf).execute();
    }
  }

  // Team membership and the Owners team: what membership and owner checks need (teams themselves: TeamsStore).

  async addTeamMember(teamId: number, orgId: number, userId: number): Promise<void> {
    const existing = await this.db.selectFrom('team_user').select('id').where('team_id', '=', teamId).where('uid', '=', userId).executeTakeFirst();
    if (existing) return;
    await this.db.insertInto('team_user').values({ team_id: teamId, org_id: orgId, uid: userId }).execute();
    await this.addMember(userId, orgId);
  }

  ownersTeam(orgId: number): Promise<Team | undefined> {
    return this.db.selectFrom('team').selectAll().where('org_id', '=', orgId).where('lower_name', '=', OWNER_TEAM_NAME.toLowerCase()).executeTakeFirst();
  }

  /** The teams of `orgId` that `userId` belongs to. */
  teamsOfMember(orgId: number, userId: number): Promise<Team[]> {
    return this.db
      .selectFrom('team')
      .innerJoin('team_user', 'team_user.team_id', 'team.id')
      .selectAll('team')
      .where('team.org_id', '=', orgId)
      .where('team_user.uid', '=', userId)
      .orderBy('team.id')
      .execute();
  }

  /** Everything that refers to a deleted account or repository (their `user.deleted` / `repo.deleted` handlers). */
  async forgetUser(userId: number): Promise<void> {
    await this.db.deleteFrom('team_user').where('uid', '=', userId).execute();
    await this.db.deleteFrom('org_user').where('uid', '=', userId).execute();
  }

  async forgetRepo(repoId: number): Promise<void> {
    await this.db.deleteFrom('team_repo').where('repo_id', '=', repoId).execute();
  }

  /** A repository moved to `ownerId`: teams of other organizations no longer cover it. */
  async forgetRepoOutside(repoId: number, ownerId: number): Promise<void> {
    await this.db.deleteFrom('team_repo').where('repo_id', '=', repoId).where('org_id', '!=', ownerId).execute();
  }

  /** An organization's own rows: teams (their members and repositories cascade) and memberships. */
  async deleteOrgRows(orgId: number): Promise<void> {
    await this.db.deleteFrom('team').where('org_id', '=', orgId).execute();
    await this.db.deleteFrom('org_user').where('org_id', '=', orgId).execute();
  }
}
