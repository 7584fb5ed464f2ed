/**
 * The organizations domain's lists: organizations (rows of the users domain's `user` table, read here, never
 * written) and their members, each as one page and the count of what the caller may see of the whole list.
 */
import { sql, type SqlBool } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { UserType, type User, type UsersTables } from '../users/index.js';
import { OWNER_TEAM_NAME, type OrgsTables } from './tables.js';

type Tables = OrgsTables & Pick<UsersTables, 'user'>;

/**
 * Which organizations a list shows: all; or those of the given visibilities and (when `memberId` is set) those
 * that account belongs to.
 */
export type OrgListFilter = { readonly all: true } | { readonly all: false; readonly visibilities: readonly number[]; readonly memberId?: number };

export class OrgDirectoryStore extends Store<Tables> {
  private organizations() {
    return this.db.selectFrom('user').where('user.type', '=', sql.lit(UserType.Organization));
  }

  /** Organizations passing `filter`, alphabetically (Forgejo's order for `/orgs` and `/admin/orgs`). */
  list(filter: OrgListFilter, page: PageRequest): Promise<Page<User>> {
    let base = this.organizations();
    if (!filter.all) {
      const parts = [];
      if (filter.visibilities.length > 0) parts.push(sql<SqlBool>`${sql.ref('user.visibility')} IN (${sql.join(filter.visibilities)})`);
      if (filter.memberId !== undefined) parts.push(sql<SqlBool>`${sql.ref('user.id')} IN (SELECT org_id FROM org_user WHERE uid = ${filter.memberId})`);
      base = base.where(parts.length > 0 ? sql<SqlBool>`(${sql.join(parts, sql` OR `)})` : sql<SqlBool>`1 = 0`);
    }
    return Store.page(
      base.selectAll('user').orderBy('user.lower_name').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /**
   * The organizations `userId` belongs to, alphabetically: all of them, or (`publicOnly`) only public
   * organizations where the membership is public, as Forgejo shows another account's organizations.
   */
  ofMember(userId: number, options: { publicOnly: boolean; visibilities?: readonly number[]; page: PageRequest }): Promise<Page<User>> {
    let base = this.organizations().innerJoin('org_user', 'org_user.org_id', 'user.id').where('org_user.uid', '=', userId);
    if (options.publicOnly) base = base.where('org_user.is_public', '=', 1);
    if (options.visibilities) base = base.where('user.visibility', 'in', options.visibilities.length > 0 ? [...options.visibilities] : [-1]);
    return Store.page(
      base.selectAll('user').orderBy('user.lower_name').limit(options.page.limit).offset(offsetOf(options.page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** An organization's members (all, or those whose membership is public), by name. */
  members(orgId: number, options: { publicOnly: boolean; page: PageRequest }): Promise<Page<User>> {
    let base = this.db.selectFrom('org_user').innerJoin('user', 'user.id', 'org_user.uid').where('org_user.org_id', '=', orgId);
    if (options.publicOnly) base = base.where('org_user.is_public', '=', 1);
    return Store.page(
      base.selectAll('user').orderBy('user.lower_name').limit(options.page.limit).offset(offsetOf(options.page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** How many organizations the account belongs to. */
  async membershipCount(userId: number): Promise<number> {
    return Store.count(await this.db.selectFrom('org_user').select((eb) => eb.fn.countAll<number>().as('n')).where('uid', '=', userId).executeTakeFirst());
  }

  /**
   * The organizations whose Owners team has `userId` as its only member: those Forgejo's purge deletes (removing
   * that member would answer `ErrLastOrgOwner`), by id.
   */
  solelyOwnedBy(userId: number): Promise<User[]> {
    return this.organizations()
      .innerJoin('team', (join) => join.onRef('team.org_id', '=', 'user.id').on('team.lower_name', '=', OWNER_TEAM_NAME.toLowerCase()))
      .innerJoin('team_user', 'team_user.team_id', 'team.id')
      .where('team_user.uid', '=', userId)
      .where((eb) => eb(eb.selectFrom('team_user as others').select((o) => o.fn.countAll<number>().as('n')).whereRef('others.team_id', '=', 'team.id'), '=', 1))
      .selectAll('user')
      .orderBy('user.id')
      .execute();
  }

  /** How many members the Owners team of the organization has. */
  async ownerCount(orgId: number, ownerTeamId: number): Promise<number> {
    return Store.count(
      await this.db
        .selectFrom('team_user')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', orgId)
        .where('team_id', '=', ownerTeamId)
        .executeTakeFirst(),
    );
  }
}
