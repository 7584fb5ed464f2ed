import { sql, type Insertable } from 'kysely';
import { Store } from '../storage/store.js';
import { isStorableText } from '../storage/database.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { UserType, type User, type UserTable, type UsersTables } from './tables.js';

/** The `user` table. Names and emails are looked up lower-cased; a NUL can be in neither. */
export class UsersStore extends Store<UsersTables> {
  /** Compiled once: names are looked up on every repository read, ids on every token-authenticated request. */
  private readonly byLowerName = this.precompiled<User, 'name'>('byLowerName', (db, param) =>
    db.selectFrom('user').selectAll().where('lower_name', '=', param('name')),
  );
  private readonly byIdQuery = this.precompiled<User, 'id'>('byId', (db, param) => db.selectFrom('user').selectAll().where('id', '=', param('id')));

  async findByName(name: string): Promise<User | undefined> {
    if (!isStorableText(name)) return undefined;
    return (await this.byLowerName({ name: name.toLowerCase() }))[0];
  }

  async findById(id: number): Promise<User | undefined> {
    return (await this.byIdQuery({ id }))[0];
  }

  /** The accounts with these ids, by id, in one query (a page of repositories loads its owners so). */
  async findByIds(ids: readonly number[]): Promise<Map<number, User>> {
    const unique = [...new Set(ids)];
    if (unique.length === 1) return new Map((await this.byIdQuery({ id: unique[0] })).map((u) => [u.id, u]));
    const found = new Map<number, User>();
    for (let i = 0; i < unique.length; i += 500) {
      for (const user of await this.db.selectFrom('user').selectAll().where('id', 'in', unique.slice(i, i + 500)).execute()) found.set(user.id, user);
    }
    return found;
  }

  /** Lower-cased names of the given accounts, by id. */
  async lowerNames(ids: readonly number[]): Promise<Map<number, string>> {
    const names = new Map<number, string>();
    // Chunked: SQLite and PostgreSQL both cap the number of bound parameters.
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db.selectFrom('user').select(['id', 'lower_name']).where('id', 'in', ids.slice(i, i + 500)).execute();
      for (const row of rows) names.set(row.id, row.lower_name);
    }
    return names;
  }

  /** An individual account by its email (organizations have no sign-in email). */
  findByEmail(email: string): Promise<User | undefined> {
    if (!isStorableText(email)) return Promise.resolve(undefined);
    return this.individuals().selectAll().where('lower_email', '=', email.toLowerCase()).executeTakeFirst();
  }

  /** What stands in the way of a new account: an existing name or email (lower-cased), if any. */
  findClash(lowerName: string, lowerEmail: string): Promise<{ lower_name: string; lower_email: string } | undefined> {
    return this.db
      .selectFrom('user')
      .select(['lower_name', 'lower_email'])
      .where((eb) => eb.or([eb('lower_name', '=', lowerName), eb('lower_email', '=', lowerEmail)]))
      .executeTakeFirst();
  }

  insert(row: Insertable<UserTable>): Promise<User> {
    return this.db.insertInto('user').values(row).returningAll().executeTakeFirstOrThrow();
  }

  setPassword(id: number, passwd: string, updatedUnix: number, mustChangePassword?: boolean): Promise<User> {
    return this.db
      .updateTable('user')
      .set({ passwd, updated_unix: updatedUnix, ...(mustChangePassword === undefined ? {} : { must_change_password: mustChangePassword ? 1 : 0 }) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Moves the owned-repository counter by `delta` (inside the transaction that adds or removes them). */
  async adjustRepoCount(id: number, delta: number): Promise<void> {
    await this.db.updateTable('user').set({ num_repos: sql`num_repos + ${delta}` }).where('id', '=', id).execute();
  }

  async countAdmins(): Promise<number> {
    const row = await this.db.selectFrom('user').select((eb) => eb.fn.countAll<number>().as('n')).where('is_admin', '=', 1).executeTakeFirst();
    return Store.count(row);
  }

  async countIndividuals(): Promise<number> {
    return Store.count(await this.individuals().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst());
  }

  /** Individual accounts, oldest first. */
  listIndividuals(page: PageRequest): Promise<Page<User>> {
    const base = this.individuals();
    return Store.page(
      base.selectAll().orderBy('id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  private individuals() {
    return this.db.selectFrom('user').where('type', '=', UserType.Individual);
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('user').where('id', '=', id).execute();
  }
}
