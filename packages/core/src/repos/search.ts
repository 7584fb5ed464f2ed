/**
 * Repository search (`GET /repos/search`): Forgejo's filters, keyword matching and orderings, over exactly the
 * repositories the caller may see, so that the page and its total always agree.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { clampPage, type Page, type PageRequest, type Paging } from '../paging.js';
import type { Settings } from '../config/index.js';
import type { Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { AccessService } from '../access/index.js';
import { acceptInput } from '../validation/index.js';
import { UsersPort } from '../users/index.js';
import { RepositorySchema } from './schemas.js';
import type { RepoAccess } from './access.js';
import { DEFAULT_ORDERING, RepoSearchStore, type SearchFilter, type SearchOrdering, type SearchVisibility } from './search-store.js';
import { catalogAnswers, SearchCatalog } from './search-catalog.js';
import type { Repository } from './tables.js';
import type { User } from '../users/index.js';

export const REPO_SEARCH_SORTS = ['alpha', 'created', 'updated', 'size', 'git_size', 'lfs_size', 'id', 'stars', 'forks'] as const;
export const REPO_SEARCH_MODES = ['fork', 'source', 'mirror', 'collaborative'] as const;

/**
 * `GET /repos/search`'s query. `sort`, `order` and `mode` are plain strings: Forgejo answers an unknown value with
 * its own message (and ignores `order` without `sort`), so they are checked by the service, not the parser.
 */
export const RepoSearchQuerySchema = Type.Object({
  q: Type.Optional(Type.String({ description: 'keyword' })),
  topic: Type.Optional(Type.Boolean({ description: 'Limit search to repositories with keyword as topic' })),
  includeDesc: Type.Optional(Type.Boolean({ description: 'include search of keyword within repository description' })),
  uid: Type.Optional(Type.Integer({ format: 'int64', description: 'search only for repos that the user with the given id owns or contributes to' })),
  priority_owner_id: Type.Optional(Type.Integer({ format: 'int64', description: 'repo owner to prioritize in the results' })),
  team_id: Type.Optional(Type.Integer({ format: 'int64', description: 'search only for repos that belong to the given team id' })),
  starredBy: Type.Optional(Type.Integer({ format: 'int64', description: 'search only for repos that the user with the given id has starred' })),
  private: Type.Optional(Type.Boolean({ description: 'include private repositories this user has access to (defaults to true)' })),
  is_private: Type.Optional(Type.Boolean({ description: 'show only public, private or all repositories (defaults to all)' })),
  template: Type.Optional(Type.Boolean({ description: 'show only template, non-template or all repositories (defaults to all)' })),
  archived: Type.Optional(Type.Boolean({ description: 'show only archived, non-archived or all repositories (defaults to all)' })),
  mode: Type.Optional(Type.String({ description: 'type of repository to search for. Supported values are "fork", "source", "mirror" and "collaborative"' })),
  exclusive: Type.Optional(Type.Boolean({ description: 'if `uid` is given, search only for repos that the user owns' })),
  sort: Type.Optional(Type.String({ enum: [...REPO_SEARCH_SORTS], description: 'sort repos by attribute. Supported values are "alpha", "created", "updated", "size", "git_size", "lfs_size", "stars", "forks" and "id". Default is "alpha"' })),
  order: Type.Optional(Type.String({ enum: ['asc', 'desc'], description: 'sort order, either "asc" (ascending) or "desc" (descending). Default is "asc", ignored if "sort" is not specified.' })),
  page: Type.Optional(Type.Integer({ description: 'page number of results to return (1-based)' })),
  limit: Type.Optional(Type.Integer({ description: 'page size of results' })),
});
export type RepoSearchQuery = Static<typeof RepoSearchQuerySchema>;

/** The answer of a successful search. */
export const SearchResultsSchema = Type.Object(
  { ok: Type.Boolean(), data: Type.Array(RepositorySchema) },
  { $id: 'SearchResults', description: 'SearchResults results of a successful search' },
);
export type ApiSearchResults = Static<typeof SearchResultsSchema>;

/** The answer of a search that failed inside the server (500). */
export const SearchErrorSchema = Type.Object(
  { ok: Type.Boolean(), error: Type.String() },
  { $id: 'SearchError', description: 'SearchError error of a failed search' },
);
export type ApiSearchError = Static<typeof SearchErrorSchema>;

/** Forgejo's orderings by `order` then `sort`; the repository id breaks ties so that pages never overlap. */
const ORDERINGS: ReadonlyMap<string, ReadonlyMap<string, SearchOrdering>> = new Map(
  (['asc', 'desc'] as const).map((direction) => [
    direction,
    new Map<string, SearchOrdering>([
      ['alpha', [['owner_name', direction], ['lower_name', direction], ['id', direction]]],
      ['created', [['created_unix', direction], ['id', direction]]],
      ['updated', [['updated_unix', direction], ['id', direction]]],
      ['size', [['size', direction], ['id', direction]]],
      // All of a repository's bytes are git objects: its git size is its size.
      ['git_size', [['size', direction], ['id', direction]]],
      ['lfs_size', [['lfs_size', direction], ['id', direction]]],
      ['id', [['id', direction]]],
      ['stars', [['num_stars', direction], ['id', direction]]],
      ['forks', [['num_forks', direction], ['id', direction]]],
    ]),
  ]),
);

/**
 * Which repositories `actor` may find: the same answer `repoPermission` gives one repository at a time (see
 * access/permissions.ts), as a filter. `includePrivate` is the `private` parameter: without it (and for
 * anonymous callers and public-only tokens) only public repositories of public owners are searched.
 */
export function searchVisibility(actor: Actor, includePrivate: boolean): SearchVisibility {
  const visibility = accountVisibility(actor, includePrivate);
  return actor.kind === 'user' && actor.repoIds ? { ...visibility, tokenRepos: actor.repoIds } : visibility;
}

function accountVisibility(actor: Actor, includePrivate: boolean): SearchVisibility {
  if (actor.kind === 'system') return includePrivate ? { kind: 'all' } : { kind: 'public' };
  if (actor.kind === 'anonymous') return { kind: 'public' };
  const { user } = actor;
  const wide = includePrivate && !actor.publicOnly;
  if (user.is_admin === 1) return wide ? { kind: 'all' } : { kind: 'public' };
  if (user.is_restricted === 1) return wide ? { kind: 'own', userId: user.id } : { kind: 'public', onlyOwner: user.id };
  return wide ? { kind: 'signed-in', userId: user.id } : { kind: 'public' };
}

export interface RepoSearchOptions {
  /**
   * false: read SQL even where the in-memory catalog could answer (tests hold both paths to the same answers).
   */
  catalog?: boolean;
}

/** A search's page: the usual clamping, and a page of at most `[ui] EXPLORE_PAGING_NUM` repositories. */
export function searchPage(settings: Settings, paging: Paging): PageRequest {
  const page = clampPage(settings, paging);
  const cap = Math.max(1, settings.ui.EXPLORE_PAGING_NUM);
  return page.limit > cap ? clampPage(settings, { page: page.page, limit: cap }) : page;
}

export class RepoSearchService {
  /** Every repository and owner as of `catalog.stamp`, on SQLite; rebuilt once the database is quiet again. */
  private catalog: SearchCatalog | undefined;
  /** The stamp last seen without a catalog for it: the next search that sees it unchanged builds one. */
  private quietSince: string | undefined;
  /** The stamp at which building one was found impossible (too many repositories). */
  private declinedAt: string | undefined;

  constructor(private readonly ctx: CoreContext) {}

  /** How many repositories the in-memory catalog holds; undefined while searches read SQL (diagnostics, tests). */
  get catalogSize(): number | undefined {
    return this.catalog?.size;
  }

  /** A page of the repositories matching `input` that `actor` may see, with the actor's access to each. */
  async search(actor: Actor, input: RepoSearchQuery, options: RepoSearchOptions = {}): Promise<Page<RepoAccess>> {
    const query = acceptInput(RepoSearchQuerySchema, input);
    const filter = searchFilter(actor, query);
    const page = searchPage(this.ctx.settings, query);
    const catalog = options.catalog === false || !catalogAnswers(filter) || filter.visibility.tokenRepos ? undefined : this.currentCatalog();
    if (catalog) {
      const visibility = filter.visibility;
      if (visibility.kind === 'signed-in' || visibility.kind === 'own') {
        filter.visibility = { ...visibility, grants: await this.ctx.service(AccessService).accountGrants(visibility.userId) };
      }
      const { items, total } = catalog.search(filter, page);
      return { items: await this.withAccess(actor, items), total };
    }
    const { items, total } = await this.ctx.store(RepoSearchStore).search(filter, page);
    const owners = await this.ctx.port(UsersPort).byIds(items.map((r) => r.owner_id));
    return { items: await this.withAccess(actor, items.map((repo) => ({ repo, owner: owners.get(repo.owner_id) }))), total };
  }

  /** Found repositories with the actor's access: the filter and `repoPermission` must agree that each is visible. */
  private async withAccess(actor: Actor, found: readonly { repo: Repository; owner: User | undefined }[]): Promise<RepoAccess[]> {
    const pairs = found.map(({ repo, owner }) => {
      if (!owner) throw new Error(`repository ${repo.id} was found by search without its owner`);
      return { repo, owner };
    });
    const accesses = await this.ctx.service(AccessService).repoAccessMany(actor, pairs);
    // Better no answer than a repository the caller may not see.
    for (const access of accesses) if (access.mode === AccessMode.None) throw new Error(`repository ${access.repo.id} was found by search but is not readable`);
    return accesses;
  }

  /**
   * The catalog, when the database has not changed since it was read (one small synchronous query tells). After
   * a change, searches read SQL until one finds the database unchanged since the previous one: the catalog is
   * rebuilt then, so a stream of writes never pays for rebuilding it again and again.
   */
  private currentCatalog(): SearchCatalog | undefined {
    const store = this.ctx.store(RepoSearchStore);
    const stamp = store.changeStamp();
    if (stamp === undefined) return undefined;
    if (this.catalog?.stamp === stamp) return this.catalog;
    this.catalog = undefined;
    if (this.quietSince !== stamp || this.declinedAt === stamp) {
      this.quietSince = stamp;
      return undefined;
    }
    const rows = store.catalogRows();
    // Too many to hold (or no synchronous read): not tried again until the database changes.
    if (!rows) {
      this.declinedAt = stamp;
      return undefined;
    }
    // Read synchronously, so only another process could have written meanwhile; then the stamp says so.
    if (store.changeStamp() !== stamp) return undefined;
    this.catalog = new SearchCatalog(stamp, rows.repos, rows.owners);
    return this.catalog;
  }
}

/** The request, read as Forgejo reads it, as the conditions the store applies. */
export function searchFilter(actor: Actor, query: RepoSearchQuery): SearchFilter {
  const signedIn = actor.kind !== 'anonymous';
  const filter: SearchFilter = {
    visibility: searchVisibility(actor, signedIn && query.private !== false),
    topicOnly: query.topic === true,
    includeDescription: query.includeDesc === true,
    impossible: false,
    ordering: DEFAULT_ORDERING,
  };
  const keyword = (query.q ?? '').trim();
  if (keyword !== '') {
    filter.keywords = keyword.split(',').map((part) => part.toLowerCase());
    const halves = keyword.split('/');
    if (halves.length === 2 && !query.team_id) filter.ownerAndName = { owner: halves[0]!.toLowerCase(), name: halves[1]!.toLowerCase() };
    if (halves.length === 2) filter.preferOwnerName = halves[0]!.toLowerCase();
  }
  if (query.uid) filter.ownerId = query.uid;
  if (query.priority_owner_id !== undefined && query.priority_owner_id > 0) filter.priorityOwnerId = query.priority_owner_id;
  // Starred repositories are listed by `/users/{username}/starred`; this filter does not read stars yet.
  if ((query.starredBy ?? 0) > 0) filter.impossible = true;
  if ((query.team_id ?? 0) > 0) filter.teamId = query.team_id;
  if (query.template !== undefined) filter.template = query.template;
  if (query.archived !== undefined) filter.archived = query.archived;
  if (query.is_private !== undefined) filter.isPrivate = query.is_private;
  if (query.exclusive === true) filter.collaborate = false;
  switch (query.mode ?? '') {
    case '':
      break;
    case 'source':
      filter.fork = false;
      filter.mirror = false;
      break;
    case 'fork':
      filter.fork = true;
      break;
    case 'mirror':
      filter.mirror = true;
      break;
    case 'collaborative':
      filter.mirror = false;
      filter.collaborate = true;
      break;
    default:
      throw new ValidationError('', `Invalid search mode: "${query.mode}"`);
  }
  if (query.sort) {
    const order = query.order || 'asc';
    const byOrder = ORDERINGS.get(order);
    if (!byOrder) throw new ValidationError('', `Invalid sort order: "${order}"`);
    const ordering = byOrder.get(query.sort);
    if (!ordering) throw new ValidationError('', `Invalid sort mode: "${query.sort}"`);
    filter.ordering = ordering;
  }
  return filter;
}
