/**
 * Repository search from memory, for SQLite: every repository and its owner, read at once and kept while the
 * database's change stamp (see `RepoSearchStore.changeStamp`) stays the same. It applies the very conditions of
 * search-store.ts, with SQLite's semantics (`LIKE` ignores ASCII case only, `lower()` folds ASCII only, text
 * compares byte-wise), so either path gives the same page and total; the tests hold them to it.
 */
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { Visibility, type User } from '../users/index.js';
import { DEFAULT_ORDERING, TOPIC_TEXT, type AccountGrants, type SearchFilter, type SearchOrderColumn, type SearchVisibility } from './search-store.js';
import type { Repository } from './tables.js';

export interface CatalogEntry {
  repo: Repository;
  owner: User;
  /**
   * `name NUL topics`: a part made of topic characters is looked for once in both; holding no NUL, it cannot
   * match across the two.
   */
  text: string;
}

/** ASCII letters lower-cased, nothing else: SQLite's `lower()`. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
}

function visible(visibility: SearchVisibility, { repo, owner }: CatalogEntry): boolean {
  switch (visibility.kind) {
    case 'all':
      return true;
    case 'public':
      return repo.is_private === 0 && owner.visibility === Visibility.Public && (visibility.onlyOwner === undefined || repo.owner_id === visibility.onlyOwner);
    case 'signed-in':
      return (
        repo.owner_id === visibility.userId ||
        (repo.is_private === 0 && (owner.visibility === Visibility.Public || owner.visibility === Visibility.Limited)) ||
        granted(visibility.grants, repo)
      );
    case 'own':
      return repo.owner_id === visibility.userId || grantedOnly(visibility.grants, repo);
  }
}

/** Given to the account, or public in one of its organizations (the same rule as search-store.ts's `grantedTo`). */
function granted(grants: AccountGrants | undefined, repo: Repository): boolean {
  if (!grants) throw new Error('the catalog needs the account grants read ahead');
  return grants.repoIds.has(repo.id) || (repo.is_private === 0 && grants.orgIds.has(repo.owner_id));
}

function grantedOnly(grants: AccountGrants | undefined, repo: Repository): boolean {
  if (!grants) throw new Error('the catalog needs the account grants read ahead');
  return grants.repoIds.has(repo.id);
}

type Test = (entry: CatalogEntry) => boolean;

/** The keyword condition as one function, with what depends on the keyword only worked out once. */
function keywordTest(filter: SearchFilter): Test | undefined {
  if (filter.keywords === undefined) return undefined;
  const inNameOrTopics: string[] = [];
  const inName: string[] = [];
  const inTopics: string[] = [];
  const inDescription: string[] = [];
  for (const part of filter.keywords) {
    const topical = TOPIC_TEXT.test(part);
    if (filter.topicOnly) {
      if (part !== '' && topical) inTopics.push(`"${part}"`);
      continue;
    }
    (topical ? inNameOrTopics : inName).push(part);
    if (filter.includeDescription) inDescription.push(part);
  }
  const halves = filter.keywords.length > 0 && !filter.topicOnly ? filter.ownerAndName : undefined;
  return ({ repo, owner, text }) => {
    for (let i = 0; i < inNameOrTopics.length; i++) if (text.includes(inNameOrTopics[i]!)) return true;
    for (const part of inName) if (repo.lower_name.includes(part)) return true;
    for (const part of inTopics) if (repo.topics.includes(part)) return true;
    if (halves && owner.lower_name.includes(halves.owner) && repo.lower_name.includes(halves.name)) return true;
    if (inDescription.length > 0) {
      const description = asciiLower(repo.description);
      for (const part of inDescription) if (description.includes(part)) return true;
    }
    return false;
  };
}

/** Every condition of the filter as one function. */
function filterTest(filter: SearchFilter): Test {
  const { visibility, ownerId } = filter;
  const flags: [keyof Pick<Repository, 'is_private' | 'is_template' | 'is_archived' | 'is_fork' | 'is_mirror'>, number][] = [];
  for (const [column, wanted] of [
    ['is_private', filter.isPrivate],
    ['is_template', filter.template],
    ['is_archived', filter.archived],
    ['is_fork', filter.fork],
    ['is_mirror', filter.mirror],
  ] as const) {
    if (wanted !== undefined) flags.push([column, wanted ? 1 : 0]);
  }
  const keyword = keywordTest(filter);
  return (entry) => {
    if (!visible(visibility, entry)) return false;
    // Collaborations and teams are SQL's to answer (`answers`): here only owned repositories are asked for.
    if (ownerId !== undefined && entry.repo.owner_id !== ownerId) return false;
    for (let i = 0; i < flags.length; i++) if (entry.repo[flags[i]![0]] !== flags[i]![1]) return false;
    return keyword === undefined || keyword(entry);
  };
}

function key(column: SearchOrderColumn, { repo, owner }: CatalogEntry): number | string {
  switch (column) {
    case 'owner_name':
      return owner.lower_name;
    case 'lfs_size':
      return 0;
    default:
      return repo[column];
  }
}

/** Byte-wise for text (names are ASCII, where UTF-16 order is byte order), numeric for numbers. */
function compare(a: number | string, b: number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Can the catalog answer this filter? Collaborations of another account and teams are read from SQL. */
export function catalogAnswers(filter: SearchFilter): boolean {
  return filter.teamId === undefined && (filter.ownerId === undefined || filter.collaborate === false);
}

export class SearchCatalog {
  private readonly entries: CatalogEntry[];

  /** `repos` in the default order (lower-cased name, then id); `owners` holds each one's owner. */
  constructor(
    readonly stamp: string,
    repos: readonly Repository[],
    owners: readonly User[],
  ) {
    // Rows come from the driver as dictionary-mode objects, slow to read field by field; copies are plain objects
    // of one shape, which every search (and every conversion of a result) reads many times.
    const byId = new Map(owners.map((o) => [o.id, { ...o }]));
    this.entries = [];
    for (const row of repos) {
      const owner = byId.get(row.owner_id);
      const repo = { ...row };
      if (owner) this.entries.push({ repo, owner, text: `${repo.lower_name}\0${repo.topics}` });
    }
  }

  /** How many repositories it holds. */
  get size(): number {
    return this.entries.length;
  }

  search(filter: SearchFilter, page: PageRequest): Page<CatalogEntry> {
    if (filter.impossible) return { items: [], total: 0 };
    const found = this.entries.filter(filterTest(filter));
    // The rows are kept in the default order: only another one needs a sort.
    if (filter.ordering !== DEFAULT_ORDERING || filter.priorityOwnerId !== undefined || filter.preferOwnerName !== undefined) {
      const { priorityOwnerId, preferOwnerName, ordering } = filter;
      found.sort((a, b) => {
        if (priorityOwnerId !== undefined) {
          const rank = (e: CatalogEntry) => (e.repo.owner_id === priorityOwnerId ? 0 : e.repo.owner_id);
          const byOwner = rank(a) - rank(b);
          if (byOwner !== 0) return byOwner;
        } else if (preferOwnerName !== undefined) {
          const rank = (e: CatalogEntry) => (e.owner.lower_name === preferOwnerName ? 0 : 1);
          const byOwner = rank(a) - rank(b);
          if (byOwner !== 0) return byOwner;
        }
        for (const [column, direction] of ordering) {
          const order = compare(key(column, a), key(column, b));
          if (order !== 0) return direction === 'asc' ? order : -order;
        }
        return 0;
      });
    }
    const start = offsetOf(page);
    return { items: found.slice(start, start + page.limit), total: found.length };
  }
}
