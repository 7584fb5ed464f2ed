/**
 * The SQL of repository search. It reads `repository` and, read-only, its owner's row in `user` (visibility
 * and name): which repositories a caller may see depends on both, and the page and its count must come from the
 * same filter. Owners' full rows are loaded afterwards in one query through UsersPort.
 */
import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import { Store } from '../storage/index.js';
import { containsText as like } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { Visibility, type User, type UsersTables } from '../users/index.js';
import { AccessPort } from '../access/index.js';
import type { Repository, ReposTables } from './tables.js';
import type { SearchVisibility } from './types.js';

type SearchTables = ReposTables & Pick<UsersTables, 'user'>;
/** The tables as a search query sees them: the owner's row joined as `owner`. */
type Joined = SearchTables & { owner: UsersTables['user'] };
type Eb = ExpressionBuilder<Joined, 'repository' | 'owner'>;

// Defined with the domain's other shared types, and re-exported for this folder's files.
export type { AccountGrants, SearchVisibility } from './types.js';

/** A column repositories are ordered by, and the direction. */
export type SearchOrderColumn = 'owner_name' | 'lower_name' | 'created_unix' | 'updated_unix' | 'size' | 'lfs_size' | 'id' | 'num_stars' | 'num_forks';
export type SearchOrdering = readonly (readonly [SearchOrderColumn, 'asc' | 'desc'])[];

/** Without `sort`: by name (the order the catalog keeps its rows in). */
export const DEFAULT_ORDERING: SearchOrdering = [['lower_name', 'asc'], ['id', 'asc']];

/** What a search asks for, resolved from the request: every field is a condition the SQL applies. */
export interface SearchFilter {
  visibility: SearchVisibility;
  /** Lower-cased keyword parts (the keyword split at commas); absent: no keyword. */
  keywords?: readonly string[];
  /** Keywords name whole topics only. */
  topicOnly: boolean;
  includeDescription: boolean;
  /** `owner/repo`: the keyword's two halves, lower-cased, also matched against owner and repository names. */
  ownerAndName?: { readonly owner: string; readonly name: string };
  /** Repositories this account owns (and, unless `collaborate` is false, collaborates on). */
  ownerId?: number;
  /** undefined: owned and collaborations; false: owned only; true: collaborations only. */
  collaborate?: boolean;
  /**
   * With `ownerId`: collaborations also take the public repositories of the private organizations the account
   * belongs to (Forgejo's userOrgPublicRepoCondPrivate). SQL only: set by lists that never read the catalog.
   */
  memberOrgPublic?: boolean;
  /** Repositories of this team (listed, or all of its organization's). */
  teamId?: number;
  isPrivate?: boolean;
  template?: boolean;
  archived?: boolean;
  fork?: boolean;
  mirror?: boolean;
  /** A condition nothing can meet yet (stars, teams): the answer is empty. */
  impossible: boolean;
  ordering: SearchOrdering;
  /** Repositories of this owner first, then by owner id (Forgejo's `priority_owner_id`). */
  priorityOwnerId?: number;
  /** Repositories whose owner is named this (lower-cased) first. */
  preferOwnerName?: string;
}

/** Characters a topic name is made of: a keyword with any other can be no part of one. */
export const TOPIC_TEXT = /^[-.a-z0-9]*$/;

/** Beyond this many repositories a search reads SQL each time rather than holding them all in memory. */
export const CATALOG_MAX_REPOSITORIES = 20_000;

/** Every repository and the accounts that own them, read at one moment (see `RepoSearchStore.catalogRows`). */
export interface CatalogRows {
  repos: Repository[];
  owners: User[];
}

/** The `repository` rows a search returns, with the owner rows it filters on. */
export class RepoSearchStore extends Store<SearchTables> {
  private readonly stampQuery = this.db
    .selectNoFrom([
      sql<number>`total_changes()`.as('changes'),
      sql<number>`(SELECT data_version FROM pragma_data_version)`.as('version'),
      sql<number>`(SELECT schema_version FROM pragma_schema_version)`.as('schema'),
    ])
    .compile();
  private readonly countQuery = this.db.selectFrom('repository').select((eb) => eb.fn.countAll<number>().as('n')).compile();
  private readonly reposQuery = this.db.selectFrom('repository').selectAll().orderBy('lower_name').orderBy('id').compile();
  private readonly ownersQuery = this.db
    .selectFrom('user')
    .selectAll()
    .where('id', 'in', (eb) => eb.selectFrom('repository').select('owner_id'))
    .compile();

  /**
   * SQLite only, outside any transaction: a stamp that differs whenever the database may have changed since it
   * was taken, by this connection (`total_changes()`, which counts every row it wrote; `schema_version`, for
   * tables it altered) or by another one (`PRAGMA data_version`). Undefined when it cannot be read synchronously
   * (PostgreSQL, a transaction open).
   */
  changeStamp(): string | undefined {
    const row = this.direct<{ changes: number; version: number; schema: number }>(this.stampQuery)?.[0];
    return row ? `${row.changes}:${row.version}:${row.schema}` : undefined;
  }

  /**
   * Every repository (by name) and its owners, read synchronously, so that nothing in this process writes in
   * between; undefined when that cannot be done, or when there are too many to hold.
   */
  catalogRows(): CatalogRows | undefined {
    const count = this.direct<{ n: number }>(this.countQuery)?.[0]?.n;
    if (count === undefined || count > CATALOG_MAX_REPOSITORIES) return undefined;
    const repos = this.direct<Repository>(this.reposQuery);
    const owners = this.direct<User>(this.ownersQuery);
    return repos && owners ? { repos, owners } : undefined;
  }

  private direct<Row>(query: { sql: string; parameters: readonly unknown[] }): Row[] | undefined {
    if (this.scope.inTransaction) return undefined;
    return this.scope.storage.directRead?.(query.sql, query.parameters) as Row[] | undefined;
  }

  /**
   * The ids of the repositories `visibility` lets through (optionally of one owner), as a subquery for another
   * domain's list (issues across repositories) to filter by.
   */
  visibleIds(visibility: SearchVisibility, options: { ownerId?: number; unit?: 'issues' | 'pulls'; exceptIds?: readonly number[] } = {}): Expression<number> {
    let query = this.db
      .selectFrom('repository')
      .innerJoin('user as owner', 'owner.id', 'repository.owner_id')
      .select('repository.id')
      .where((eb) => visible(eb, visibility));
    if (options.ownerId !== undefined) query = query.where('repository.owner_id', '=', options.ownerId);
    // `units` is '' (the defaults: every unit on) or JSON whose top-level keys are the units that are on.
    if (options.unit !== undefined) query = query.where((eb) => eb.or([eb('repository.units', '=', ''), like(eb.ref('repository.units'), `"${options.unit}":`)]));
    if (options.exceptIds && options.exceptIds.length > 0) query = query.where('repository.id', 'not in', [...options.exceptIds]);
    return query as unknown as Expression<number>;
  }

  /**
   * The private repositories an account reads only because it was given access (collaborations, teams): those
   * are the ones where a team's per-unit rights can hide a unit the repository shows to others.
   */
  privateGrantedTo(userId: number): Promise<Repository[]> {
    return this.db
      .selectFrom('repository')
      .selectAll()
      .where('repository.is_private', '=', 1)
      .where('repository.owner_id', '!=', userId)
      .where('repository.id', 'in', AccessPort.grantedRepoIds(userId))
      .execute();
  }

  /** A page of matching repositories and the number of all of them, from one filter. */
  async search(filter: SearchFilter, page: PageRequest): Promise<Page<Repository>> {
    if (filter.impossible) return { items: [], total: 0 };
    const base = this.db
      .selectFrom('repository')
      .innerJoin('user as owner', 'owner.id', 'repository.owner_id')
      .where((eb) => matching(eb, filter));
    let query = base.selectAll('repository');
    if (filter.priorityOwnerId !== undefined) {
      query = query.orderBy(sql`CASE WHEN repository.owner_id = ${filter.priorityOwnerId} THEN 0 ELSE repository.owner_id END`);
    } else if (filter.preferOwnerName !== undefined) {
      query = query.orderBy(sql`CASE WHEN owner.lower_name = ${filter.preferOwnerName} THEN 0 ELSE 1 END`);
    }
    for (const [column, direction] of filter.ordering) {
      if (column === 'owner_name') query = query.orderBy('owner.lower_name', direction);
      // No repository stores LFS objects: every size is 0 and the next key decides.
      else if (column !== 'lfs_size') query = query.orderBy(`repository.${column}`, direction);
    }
    return Store.page(
      query.limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }
}

/** The WHERE of a search: visibility, keyword, ownership and the flags. */
function matching(eb: Eb, filter: SearchFilter): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [visible(eb, filter.visibility)];
  if (filter.keywords) all.push(keywordMatch(eb, filter));
  if (filter.ownerId !== undefined) {
    const owned = eb('repository.owner_id', '=', filter.ownerId);
    const given = [eb('repository.id', 'in', AccessPort.grantedRepoIds(filter.ownerId))];
    if (filter.memberOrgPublic) {
      given.push(
        eb.and([eb('repository.is_private', '=', 0), eb('owner.visibility', '=', Visibility.Private), eb('repository.owner_id', 'in', AccessPort.memberOrgIds(filter.ownerId))]),
      );
    }
    const granted = eb.and([eb('repository.owner_id', '!=', filter.ownerId), eb.or(given)]);
    all.push(filter.collaborate === true ? granted : filter.collaborate === false ? owned : eb.or([owned, granted]));
  }
  if (filter.teamId !== undefined) all.push(eb('repository.id', 'in', AccessPort.teamRepoIds(filter.teamId)));
  const flags: [keyof Pick<Repository, 'is_private' | 'is_template' | 'is_archived' | 'is_fork' | 'is_mirror'>, boolean | undefined][] = [
    ['is_private', filter.isPrivate],
    ['is_template', filter.template],
    ['is_archived', filter.archived],
    ['is_fork', filter.fork],
    ['is_mirror', filter.mirror],
  ];
  for (const [column, value] of flags) if (value !== undefined) all.push(eb(`repository.${column}`, '=', value ? 1 : 0));
  return eb.and(all);
}

/** The repositories `visibility` lets through, with the owner's row joined as `owner` (also the starred and watched lists). */
export function visible(eb: Eb, visibility: SearchVisibility): Expression<SqlBool> {
  const base = visibleToAccount(eb, visibility);
  const limit = visibility.tokenRepos;
  if (!limit) return base;
  const open = eb.and([eb('repository.is_private', '=', 0), eb('owner.visibility', '=', Visibility.Public)]);
  return eb.and([base, eb.or([eb('repository.id', 'in', limit.length > 0 ? [...limit] : [0]), open])]);
}

function visibleToAccount(eb: Eb, visibility: SearchVisibility): Expression<SqlBool> {
  switch (visibility.kind) {
    case 'all':
      return sql<SqlBool>`1 = 1`;
    case 'public': {
      const open = eb.and([eb('repository.is_private', '=', 0), eb('owner.visibility', '=', Visibility.Public)]);
      return visibility.onlyOwner === undefined ? open : eb.and([open, eb('repository.owner_id', '=', visibility.onlyOwner)]);
    }
    case 'signed-in':
      return eb.or([
        eb('repository.owner_id', '=', visibility.userId),
        eb.and([eb('repository.is_private', '=', 0), eb('owner.visibility', 'in', [Visibility.Public, Visibility.Limited])]),
        ...grantedTo(eb, visibility.userId),
      ]);
    case 'own':
      return eb.or([eb('repository.owner_id', '=', visibility.userId), eb('repository.id', 'in', AccessPort.grantedRepoIds(visibility.userId))]);
  }
}

/** Repositories given to the account, and public ones of its organizations (the access domain's subqueries). */
function grantedTo(eb: Eb, userId: number): Expression<SqlBool>[] {
  return [
    eb('repository.id', 'in', AccessPort.grantedRepoIds(userId)),
    eb.and([eb('repository.is_private', '=', 0), eb('repository.owner_id', 'in', AccessPort.memberOrgIds(userId))]),
  ];
}

/**
 * Any keyword part matches: a topic (the repository's `topics` column is a JSON array of lower-case names, so a
 * part made of topic characters can only match inside one name), the name, `owner/name`, the description.
 */
function keywordMatch(eb: Eb, filter: SearchFilter): Expression<SqlBool> {
  const any: Expression<SqlBool>[] = [];
  for (const part of filter.keywords ?? []) {
    if (filter.topicOnly) {
      if (part !== '' && TOPIC_TEXT.test(part)) any.push(like(eb.ref('repository.topics'), `"${part}"`));
      continue;
    }
    if (TOPIC_TEXT.test(part)) any.push(like(eb.ref('repository.topics'), part));
    any.push(like(eb.ref('repository.lower_name'), part));
    if (filter.ownerAndName) {
      any.push(eb.and([like(eb.ref('owner.lower_name'), filter.ownerAndName.owner), like(eb.ref('repository.lower_name'), filter.ownerAndName.name)]));
    }
    if (filter.includeDescription) any.push(like(sql<string>`lower(repository.description)`, part));
  }
  return any.length > 0 ? eb.or(any) : sql<SqlBool>`1 = 0`;
}
