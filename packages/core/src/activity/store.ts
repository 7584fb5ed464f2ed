/**
 * The SQL of activity feeds. It owns `action` and reads, to decide what a viewer may see, the repository an
 * action names with its owner's row and the row of the account that did it: the page and its count come from
 * the same filter, as Forgejo's `activityQueryCondition` builds it.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { Visibility, type UsersTables } from '../users/index.js';
import type { Repository, ReposTables } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import type { SearchVisibility } from '../repos/index.js';
import { AccessPort } from '../access/index.js';
import type { Action, ActivityTables, NewAction } from './tables.js';

type FeedTables = ActivityTables & Pick<ReposTables, 'repository'> & Pick<UsersTables, 'user'>;
type Joined = FeedTables & { owner: UsersTables['user']; act: UsersTables['user'] };
type Eb = ExpressionBuilder<Joined, 'action' | 'repository' | 'owner' | 'act'>;

/** Whose actions a viewer may see, by who did them (their visibility and their "hide activity" switch). */
export type ActUserRule =
  /** Site administrators: everyone's. */
  | { readonly kind: 'any' }
  /** Anonymous viewers and public-only tokens: public accounts that do not hide their activity. */
  | { readonly kind: 'public' }
  /** A signed-in account: its own, and those of public and limited accounts that do not hide their activity. */
  | { readonly kind: 'signed-in'; readonly userId: number };

/** What a feed or a heatmap reads: every field is a condition the SQL applies. */
export interface FeedFilter {
  /** `action.user_id`: whose feed. */
  receiverId?: number;
  /** `action.act_user_id`: who did it. */
  performerId?: number;
  repoId?: number;
  /** Only actions on the repositories of this team. */
  teamId?: number;
  /** Only the rows of the doer's own feed (one row per action, however many feeds it reached). */
  ownRowsOnly?: boolean;
  /** Actions on repositories that were private when they happened. */
  includePrivate: boolean;
  /** Which repositories' actions (the rule repository search applies). */
  repos: SearchVisibility;
  actUsers: ActUserRule;
  /** Only this action. */
  actionId?: number;
  /** Unix seconds, both inclusive. */
  createdFrom?: number;
  createdTo?: number;
}

/** One bucket of a heatmap: actions in the 15 minutes from `timestamp`. */
export interface HeatmapBucket {
  timestamp: number;
  contributions: number;
}

/** Heatmap buckets are this many seconds: fine enough for a client to shift them into any time zone (+05:30, +12:45). */
export const HEATMAP_BUCKET_SECONDS = 900;

export class ActivityStore extends Store<FeedTables> {
  /** Writes actions in one statement (one per feed they reach). */
  async insertMany(rows: readonly NewAction[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 500) await this.db.insertInto('action').values(rows.slice(i, i + 500)).execute();
  }

  /** Keeps `is_private` of a repository's actions in step with the repository, as Forgejo does on a visibility change. */
  async setPrivacyOfRepo(repoId: number, isPrivate: boolean): Promise<void> {
    await this.db.updateTable('action').set({ is_private: isPrivate ? 1 : 0 }).where('repo_id', '=', repoId).execute();
  }

  private filtered(filter: FeedFilter) {
    return this.db
      .selectFrom('action')
      .innerJoin('repository', 'repository.id', 'action.repo_id')
      .innerJoin('user as owner', 'owner.id', 'repository.owner_id')
      .innerJoin('user as act', 'act.id', 'action.act_user_id')
      .where((eb) => matching(eb, filter));
  }

  /** A page of actions, newest first, and how many there are. */
  feed(filter: FeedFilter, page: PageRequest): Promise<Page<Action>> {
    const base = this.filtered(filter);
    return Store.page(
      base.selectAll('action').orderBy('action.created_unix', 'desc').orderBy('action.id', 'desc').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Actions counted per 15 minutes, oldest bucket first. */
  async heatmap(filter: FeedFilter): Promise<HeatmapBucket[]> {
    const bucket = sql<number>`${sql.ref('action.created_unix')} / ${sql.lit(HEATMAP_BUCKET_SECONDS)} * ${sql.lit(HEATMAP_BUCKET_SECONDS)}`;
    const rows = await this.filtered(filter)
      .select((eb) => [bucket.as('timestamp'), eb.fn.countAll<number>().as('contributions')])
      .groupBy(bucket)
      .orderBy('timestamp')
      .execute();
    // PostgreSQL returns bigint arithmetic and counts as strings.
    return rows.map((r) => ({ timestamp: Number(r.timestamp), contributions: Number(r.contributions) }));
  }

  /** The repositories with these ids, by id, in one query per 500. */
  async repositories(ids: readonly number[]): Promise<Map<number, Repository>> {
    const unique = [...new Set(ids)];
    const found = new Map<number, Repository>();
    for (let i = 0; i < unique.length; i += 500) {
      for (const repo of await this.db.selectFrom('repository').selectAll().where('id', 'in', unique.slice(i, i + 500)).execute()) found.set(repo.id, repo);
    }
    return found;
  }
}

function matching(eb: Eb, filter: FeedFilter): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [readableRepo(eb, filter.repos), visibleActor(eb, filter.actUsers)];
  if (filter.receiverId !== undefined) all.push(eb('action.user_id', '=', filter.receiverId));
  if (filter.performerId !== undefined) all.push(eb('action.act_user_id', '=', filter.performerId));
  if (filter.actionId !== undefined) all.push(eb('action.id', '=', filter.actionId));
  if (filter.repoId !== undefined) all.push(eb('action.repo_id', '=', filter.repoId));
  if (filter.teamId !== undefined) all.push(eb('action.repo_id', 'in', AccessPort.teamRepoIds(filter.teamId)));
  if (filter.ownRowsOnly) all.push(eb('action.user_id', '=', eb.ref('action.act_user_id')));
  if (!filter.includePrivate) all.push(eb('action.is_private', '=', 0));
  if (filter.createdFrom !== undefined) all.push(eb('action.created_unix', '>=', filter.createdFrom));
  if (filter.createdTo !== undefined) all.push(eb('action.created_unix', '<=', filter.createdTo));
  all.push(eb('action.is_deleted', '=', 0));
  return eb.and(all);
}

/**
 * The repositories a viewer may read: repository search's rule itself (the same `repository` and `owner` joins;
 * this query's builder also knows `action` and `act`, which the rule does not use).
 */
function readableRepo(eb: Eb, visibility: SearchVisibility): Expression<SqlBool> {
  return ReposPort.visible(eb as unknown as Parameters<typeof ReposPort.visible>[0], visibility);
}

function visibleActor(eb: Eb, rule: ActUserRule): Expression<SqlBool> {
  switch (rule.kind) {
    case 'any':
      return sql<SqlBool>`1 = 1`;
    case 'public':
      return eb.and([eb('act.keep_activity_private', '=', 0), eb('act.visibility', '=', Visibility.Public)]);
    case 'signed-in':
      return eb.or([
        eb('act.id', '=', rule.userId),
        eb.and([eb('act.keep_activity_private', '=', 0), eb('act.visibility', 'in', [Visibility.Public, Visibility.Limited])]),
      ]);
  }
}
