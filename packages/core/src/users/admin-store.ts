import { sql, type Generated, type Updateable } from 'kysely';
import { Store } from '../storage/index.js';
import { isStorableText } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { UserType, type User, type UserTable } from './tables.js';
import type { AdminUserSearch, AdminUserSort } from './admin-schemas.js';

/** Columns of `user` only administration reads and writes (migration 0015). */
export interface UserAdminColumns {
  /** Repositories the account may create; -1 (or less): `[repository] MAX_CREATION_LIMIT`. */
  max_repo_creation: Generated<number>;
  allow_create_organization: Generated<number>;
  /** May edit repositories' server-side git hooks (migration 0055). */
  allow_git_hook: Generated<number>;
}

export interface UserAdminTables {
  user: UserTable & UserAdminColumns;
}

/** What an edit may change on the `user` row. */
export type UserAdminPatch = Updateable<UserTable & UserAdminColumns>;

/** Forgejo's orders; each ends with the id so that pages never overlap. */
const SORTS: ReadonlyMap<AdminUserSort, readonly [column: 'created_unix' | 'name' | 'updated_unix', direction: 'asc' | 'desc']> = new Map([
  ['oldest', ['created_unix', 'asc']],
  ['newest', ['created_unix', 'desc']],
  ['alphabetically', ['name', 'asc']],
  ['reversealphabetically', ['name', 'desc']],
  ['recentupdate', ['updated_unix', 'desc']],
  ['leastupdate', ['updated_unix', 'asc']],
]);

/** Administration's queries on the `user` table. */
export class UserAdminStore extends Store<UserAdminTables> {
  /** A page of individual accounts matching `search`, and how many match. */
  search(search: AdminUserSearch, page: PageRequest): Promise<Page<User>> {
    let base = this.db.selectFrom('user').where('type', '=', sql.lit(UserType.Individual));
    if (search.sourceId !== undefined) base = base.where('login_source', '=', search.sourceId);
    if (search.loginName) base = isStorableText(search.loginName) ? base.where('login_name', '=', search.loginName) : base.where(sql<boolean>`1 = 0`);
    if (search.isAdmin !== undefined) base = base.where('is_admin', '=', search.isAdmin ? 1 : 0);
    // Confirmed two-factor authentication (the twofactor domain's table; a pending enrolment does not count).
    if (search.twoFactorEnabled !== undefined) {
      const enrolled = sql<boolean>`${sql.ref('user.id')} IN (SELECT uid FROM two_factor WHERE is_confirmed = 1)`;
      base = base.where(search.twoFactorEnabled ? enrolled : sql<boolean>`NOT (${enrolled})`);
    }
    const [column, direction] = SORTS.get(search.sort as AdminUserSort) ?? SORTS.get('alphabetically')!;
    return Store.page(
      base.selectAll().orderBy(column, direction).orderBy('id', direction).limit(page.limit).offset(offsetOf(page)).execute() as Promise<User[]>,
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** The administration settings of an account. */
  async limitsOf(id: number): Promise<{ max_repo_creation: number; allow_create_organization: number; allow_git_hook: number }> {
    const row = await this.db.selectFrom('user').select(['max_repo_creation', 'allow_create_organization', 'allow_git_hook']).where('id', '=', id).executeTakeFirst();
    return row ?? { max_repo_creation: -1, allow_create_organization: 1, allow_git_hook: 0 };
  }

  /** Changes the row and returns it as it is now (undefined when it is gone). */
  update(id: number, patch: UserAdminPatch): Promise<User | undefined> {
    return this.db.updateTable('user').set(patch).where('id', '=', id).returningAll().executeTakeFirst() as Promise<User | undefined>;
  }

  /**
   * Ids of the site administrators who can act as one (active, allowed to sign in). On PostgreSQL their rows
   * stay locked until the transaction ends, taken in id order: two administrators demoting each other at once
   * then run one after the other (the second sees the first's change) instead of both succeeding or deadlocking.
   * SQLite runs one writing transaction at a time anyway.
   */
  async workingAdminIds(): Promise<number[]> {
    let query = this.db
      .selectFrom('user')
      .select('id')
      .where('is_admin', '=', 1)
      .where('is_active', '=', 1)
      .where('prohibit_login', '=', 0)
      .orderBy('id');
    if (this.scope.storage.dialect === 'postgres' && this.scope.inTransaction) query = query.forUpdate();
    return (await query.execute()).map((row) => row.id);
  }

  /**
   * Sets `must_change_password` on the individual accounts named in `include` (or all with `all`), except those
   * in `exclude` (lower-case names). Returns how many rows it touched.
   */
  async setMustChangePassword(target: { all: boolean; include: string[]; exclude: string[] }, value: boolean): Promise<number> {
    let query = this.db.updateTable('user').set({ must_change_password: value ? 1 : 0 }).where('type', '=', sql.lit(UserType.Individual));
    if (!target.all) query = query.where('lower_name', 'in', target.include);
    if (target.exclude.length > 0) query = query.where('lower_name', 'not in', target.exclude);
    return Number((await query.executeTakeFirst()).numUpdatedRows);
  }
}
