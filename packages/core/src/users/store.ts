import { sql, type Insertable, type Updateable } from 'kysely';
import { Store } from '../storage/index.js';
import type { Schema } from '../storage/index.js';
import { isStorableText, likeContaining } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { UserType, type EmailAddress, type EmailAddressTable, type User, type UserTable, type UsersTables } from './tables.js';
import { userVisibleSql, type UserVisibilityFilter } from './visibility.js';

/** Orders `/users/search` accepts (Forgejo's names); names sort case-insensitively, the same on every database. */
export const USER_SEARCH_ORDERS = {
  alphabetically: [['lower_name', 'asc']],
  reversealphabetically: [['lower_name', 'desc']],
  oldest: [['created_unix', 'asc'], ['id', 'asc']],
  newest: [['created_unix', 'desc'], ['id', 'desc']],
  recentupdate: [['updated_unix', 'desc'], ['id', 'desc']],
  leastupdate: [['updated_unix', 'asc'], ['id', 'asc']],
} as const satisfies Record<string, readonly (readonly ['lower_name' | 'created_unix' | 'updated_unix' | 'id', 'asc' | 'desc'])[]>;
export type UserSearchOrder = keyof typeof USER_SEARCH_ORDERS;

export interface UserSearchOptions {
  /** Lower-cased; matched anywhere in the name, the full name and (where `emailsOf` allows) the email. */
  keyword: string;
  /** Only this account (0: any). */
  uid: number;
  order: UserSearchOrder;
  visible: UserVisibilityFilter;
  /** Whose email a keyword may match: everyone's (admins), those not kept private, plus this account's own. */
  emailsOf: { all: true } | { all: false; selfId: number | null };
  page: PageRequest;
}

/**
 * The `user` table. Names and emails are looked up lower-cased; a NUL can be in neither. Reads the orgs domain's
 * `org_user` to answer whether an account may see a non-public organization.
 */
export class UsersStore extends Store<UsersTables & Pick<Schema, 'org_user'>> {
  /** Compiled once: names are looked up on every repository read, ids on every token-authenticated request. */
  private readonly byLowerName = this.precompiled<User, 'name'>('byLowerName', (db, param) =>
    db.selectFrom('user').selectAll().where('lower_name', '=', param('name')),
  );
  private readonly byIdQuery = this.precompiled<User, 'id'>('byId', (db, param) => db.selectFrom('user').selectAll().where('id', '=', param('id')));
  /**
   * One commit email (a page of commits or branches by one author, the usual case), compiled once: the account it
   * is an activated address of, and the individual whose own email it is. Longer lists are built per call.
   */
  private readonly byActivatedAddress = this.precompiled<User & { matched_email: string }, 'email'>('byActivatedAddress', (db, param) =>
    db
      .selectFrom('user')
      .where('type', '=', sql.lit(UserType.Individual))
      .innerJoin('email_address', 'email_address.uid', 'user.id')
      .selectAll('user')
      .select('email_address.lower_email as matched_email')
      .where('email_address.lower_email', '=', param('email'))
      .where('email_address.is_activated', '=', sql.lit(1)),
  );
  private readonly byOwnEmail = this.precompiled<User, 'email'>('byOwnEmail', (db, param) =>
    db.selectFrom('user').where('type', '=', sql.lit(UserType.Individual)).selectAll().where('lower_email', '=', param('email')),
  );
  private readonly nameByActivatedAddress = this.precompiled<{ lower_email: string; name: string }, 'email'>('nameByActivatedAddress', (db, param) =>
    db
      .selectFrom('email_address')
      .innerJoin('user', 'user.id', 'email_address.uid')
      .select(['email_address.lower_email', 'user.name'])
      .where('email_address.lower_email', '=', param('email'))
      .where('email_address.is_activated', '=', sql.lit(1)),
  );

  async findByName(name: string): Promise<User | undefined> {
    if (!isStorableText(name)) return undefined;
    return (await this.byLowerName({ name: name.toLowerCase() }))[0];
  }

  async findById(id: number): Promise<User | undefined> {
    return (await this.byIdQuery({ id }))[0];
  }

  private readonly byIdsQuery = this.precompiledIn('byIds', (db, ids) => db.selectFrom('user').selectAll().where('id', 'in', ids));

  /** The accounts with these ids, by id, in one query (a page of repositories loads its owners so). */
  async findByIds(ids: readonly number[]): Promise<Map<number, User>> {
    const unique = [...new Set(ids)];
    if (unique.length === 1) return new Map((await this.byIdQuery({ id: unique[0] })).map((u) => [u.id, u]));
    const found = new Map<number, User>();
    for (const user of await this.byIdsQuery(unique)) found.set(user.id, user);
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

  /** The accounts named (lower-cased), e.g. the `@mentions` of a document, in one query per 500 names. */
  async findByLowerNames(lowerNames: readonly string[]): Promise<User[]> {
    const names = lowerNames.filter(isStorableText);
    const found: User[] = [];
    // Chunked: SQLite and PostgreSQL both cap the number of bound parameters.
    for (let i = 0; i < names.length; i += 500) {
      found.push(...(await this.db.selectFrom('user').selectAll().where('lower_name', 'in', names.slice(i, i + 500)).execute()));
    }
    return found;
  }

  /**
   * The account names behind commit emails, for a page of branches in one or two queries: activated addresses, and
   * the no-reply addresses (`<name>@noreply.<domain>`) commits carry. Keys are the lower-cased emails.
   */
  async usernamesByCommitEmail(emails: readonly string[], noReplyDomain: string): Promise<Map<string, string>> {
    const lower = distinctAddresses(emails);
    const found = new Map<string, string>();
    if (lower.length === 0) return found;
    const suffix = `@noreply.${noReplyDomain.toLowerCase()}`;
    const noReplyNames = new Map(lower.filter((e) => e.endsWith(suffix)).map((e) => [e.slice(0, -suffix.length), e]));
    for (let i = 0; i < lower.length; i += 500) {
      const rows =
        lower.length === 1
          ? await this.nameByActivatedAddress({ email: lower[0] })
          : await this.db
              .selectFrom('email_address')
              .innerJoin('user', 'user.id', 'email_address.uid')
              .select(['email_address.lower_email', 'user.name'])
              .where('email_address.lower_email', 'in', lower.slice(i, i + 500))
              .where('email_address.is_activated', '=', 1)
              .execute();
      for (const row of rows) found.set(row.lower_email, row.name);
    }
    const names = [...noReplyNames.keys()];
    for (let i = 0; i < names.length; i += 500) {
      const rows = await this.db.selectFrom('user').select(['lower_name', 'name']).where('lower_name', 'in', names.slice(i, i + 500)).execute();
      for (const row of rows) {
        const email = noReplyNames.get(row.lower_name);
        if (email && !found.has(email)) found.set(email, row.name);
      }
    }
    return found;
  }

  /**
   * Individual accounts by address, in one query (the authors of a page of commits): an activated address of
   * `email_address`, or the account's own email. Keys are the lower-cased addresses found.
   */
  async findByEmails(emails: readonly string[]): Promise<Map<string, User>> {
    const lower = distinctAddresses(emails).slice(0, 500);
    const found = new Map<string, User>();
    if (lower.length === 0) return found;
    // Two lookups, each on its own index: one query that ORs the account's email with a joined address scans
    // every account.
    const one = lower.length === 1 ? { email: lower[0] } : undefined;
    const [byAddress, byOwnEmail] = await Promise.all([
      one
        ? this.byActivatedAddress(one)
        : this.individuals()
            .innerJoin('email_address', 'email_address.uid', 'user.id')
            .selectAll('user')
            .select('email_address.lower_email as matched_email')
            .where('email_address.lower_email', 'in', lower)
            .where('email_address.is_activated', '=', 1)
            .execute(),
      one ? this.byOwnEmail(one) : this.individuals().selectAll().where('lower_email', 'in', lower).execute(),
    ]);
    for (const { matched_email, ...user } of byAddress) found.set(matched_email, user);
    for (const user of byOwnEmail) if (!found.has(user.lower_email)) found.set(user.lower_email, user);
    return found;
  }

  /** What stands in the way of a new account: an existing name or email (lower-cased), if any. */
  findClash(lowerName: string, lowerEmail: string): Promise<{ lower_name: string; lower_email: string } | undefined> {
    return this.db
      .selectFrom('user')
      .select(['lower_name', 'lower_email'])
      .where((eb) => eb.or([eb('lower_name', '=', lowerName), eb.and([eb('type', '=', sql.lit(UserType.Individual)), eb('lower_email', '=', lowerEmail)])]))
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

  /**
   * Moves the owned-repository counter by `delta` (inside the transaction that adds or removes them). With `below`
   * (a creation limit, when not negative) the counter moves only while it is under it, in the same statement: false
   * then means the account is at its limit, however many creations run at once in however many processes.
   */
  async adjustRepoCount(id: number, delta: number, below = -1): Promise<boolean> {
    let query = this.db.updateTable('user').set({ num_repos: sql`num_repos + ${delta}` }).where('id', '=', id);
    if (below >= 0) query = query.where('num_repos', '<', below);
    return Number((await query.executeTakeFirst()).numUpdatedRows) > 0;
  }

  private readonly orgMemberQuery = this.precompiled<{ id: number }, 'user' | 'org'>('orgMember', (db, param) =>
    db.selectFrom('org_user').select('id').where('uid', '=', param('user')).where('org_id', '=', param('org')),
  );

  /** Is account `userId` a member of organization `orgId`? */
  async isOrgMember(userId: number, orgId: number): Promise<boolean> {
    return (await this.orgMemberQuery({ user: userId, org: orgId })).length > 0;
  }

  async countAdmins(): Promise<number> {
    const row = await this.db.selectFrom('user').select((eb) => eb.fn.countAll<number>().as('n')).where('is_admin', '=', 1).executeTakeFirst();
    return Store.count(row);
  }

  async countIndividuals(): Promise<number> {
    return Store.count(await this.individuals().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst());
  }

  /** Individual accounts: all of them, and those signed in since each time given, in one query. */
  async countIndividualsSignedIn(signedInSince: readonly number[]): Promise<{ total: number; since: number[] }> {
    const row = (await this.individuals()
      .select((eb) => [
        eb.fn.countAll<number | string>().as('total'),
        ...signedInSince.map((unix, i) => sql<number | string | null>`sum(case when last_login_unix >= ${unix} then 1 else 0 end)`.as(`since${i}`)),
      ])
      .executeTakeFirstOrThrow()) as Record<string, number | string | null>;
    return { total: Number(row.total), since: signedInSince.map((_, i) => Number(row[`since${i}`] ?? 0)) };
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
    return this.db.selectFrom('user').where('type', '=', sql.lit(UserType.Individual));
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('email_address').where('uid', '=', id).execute();
    await this.db.deleteFrom('user').where('id', '=', id).execute();
  }

  /** Individual accounts matching a search, visible to the searcher, in one page and the count of all. */
  search(options: UserSearchOptions): Promise<Page<User>> {
    let base = this.individuals().where(userVisibleSql(options.visible));
    if (options.uid > 0) base = base.where('id', '=', options.uid);
    if (options.keyword) {
      const pattern = likeContaining(options.keyword);
      const matches = [sql`lower_name LIKE ${pattern} ESCAPE '\\'`, sql`lower(full_name) LIKE ${pattern} ESCAPE '\\'`];
      const { emailsOf } = options;
      if (emailsOf.all) matches.push(sql`lower_email LIKE ${pattern} ESCAPE '\\'`);
      else {
        const mayMatch = emailsOf.selfId === null ? sql`keep_email_private = 0` : sql`(keep_email_private = 0 OR id = ${emailsOf.selfId})`;
        matches.push(sql`(lower_email LIKE ${pattern} ESCAPE '\\' AND ${mayMatch})`);
      }
      base = base.where(sql<boolean>`(${sql.join(matches, sql` OR `)})`);
    }
    let rows = base.selectAll();
    for (const [column, direction] of USER_SEARCH_ORDERS[options.order]) rows = rows.orderBy(column, direction);
    return Store.page(
      rows.limit(options.page.limit).offset(offsetOf(options.page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Changes profile and settings columns; returns the updated row. */
  update(id: number, changes: Updateable<UserTable>): Promise<User> {
    return this.db.updateTable('user').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  /** How many accounts show the uploaded avatar with this hash (two may upload the same image). */
  async countAvatarUsers(hash: string): Promise<number> {
    const row = await this.db.selectFrom('user').select((eb) => eb.fn.countAll<number>().as('n')).where('avatar', '=', hash).where('use_custom_avatar', '=', 1).executeTakeFirst();
    return Store.count(row);
  }

  // ---- email addresses ----

  /** An account's addresses, oldest first (the primary one among them). */
  emailsOf(uid: number): Promise<EmailAddress[]> {
    return this.db.selectFrom('email_address').selectAll().where('uid', '=', uid).orderBy('id').execute();
  }

  /** The address row with this lower-cased address, of any account. */
  findEmail(lowerEmail: string): Promise<EmailAddress | undefined> {
    if (!isStorableText(lowerEmail)) return Promise.resolve(undefined);
    return this.db.selectFrom('email_address').selectAll().where('lower_email', '=', lowerEmail).executeTakeFirst();
  }

  insertEmail(row: Insertable<EmailAddressTable>): Promise<EmailAddress> {
    return this.db.insertInto('email_address').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async deleteEmail(id: number): Promise<void> {
    await this.db.deleteFrom('email_address').where('id', '=', id).execute();
  }

  /** Makes `id` the account's one primary address and the user row's email. */
  async setPrimaryEmail(uid: number, id: number, email: string): Promise<void> {
    await this.db.updateTable('email_address').set({ is_primary: 0 }).where('uid', '=', uid).where('is_primary', '=', 1).execute();
    await this.db.updateTable('email_address').set({ is_primary: 1, is_activated: 1 }).where('id', '=', id).execute();
    await this.db.updateTable('user').set({ email, lower_email: email.toLowerCase() }).where('id', '=', uid).execute();
  }

  /** Addresses of individual accounts matching a keyword (address, name or full name), with their owners. */
  searchEmails(keyword: string, page: PageRequest): Promise<Page<EmailAddress & { user_name: string }>> {
    let base = this.db.selectFrom('email_address').innerJoin('user', 'user.id', 'email_address.uid').where('user.type', '=', sql.lit(UserType.Individual));
    if (keyword) {
      const pattern = likeContaining(keyword.toLowerCase());
      base = base.where(
        sql<boolean>`(lower(${sql.ref('user.full_name')}) LIKE ${pattern} ESCAPE '\\' OR ${sql.ref('user.lower_name')} LIKE ${pattern} ESCAPE '\\' OR ${sql.ref('email_address.lower_email')} LIKE ${pattern} ESCAPE '\\')`,
      );
    }
    return Store.page(
      base
        .selectAll('email_address')
        .select('user.name as user_name')
        .orderBy('email_address.lower_email')
        .orderBy('email_address.is_primary', 'desc')
        .orderBy('email_address.id')
        .limit(page.limit)
        .offset(offsetOf(page))
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }
}

/**
 * The distinct lower-cased addresses among `emails` that can be looked up. A page names few accounts many times
 * (50 branches, 100 addresses, mostly one), so the same string is lower-cased and checked once.
 */
function distinctAddresses(emails: readonly string[]): string[] {
  const lower = new Set<string>();
  for (const email of new Set(emails)) {
    const address = email.toLowerCase();
    if (address !== '' && isStorableText(address)) lower.add(address);
  }
  return [...lower];
}
