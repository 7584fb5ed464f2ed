import { sql, type RawBuilder } from 'kysely';
import { Store } from '../storage/index.js';
import type { ReposTables } from '../repos/index.js';
import type { UsersTables } from '../users/index.js';
import type { ActivityTables } from '../activity/index.js';
import type { WebhooksTables } from '../webhooks/index.js';
import { UserType } from '../users/index.js';
import { WATCHING_MODES } from '../repos/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';

/** Rows deleted per statement, so that no one statement holds the tables for long. */
const DELETE_BATCH = 10_000;
/** Drifted rows corrected per counter in one run (the next run takes the rest). */
const RECOUNT_BATCH = 1000;

/** One stored repository as the housekeeping tasks walk them: its id, key parts and git facts. */
export interface RepoListing {
  id: number;
  owner: string;
  name: string;
  object_format_name: string;
  default_branch: string;
}

/**
 * The cron tasks' reads and writes over several domains' tables: housekeeping that spans them on purpose
 * (recounting stored counters from the rows they count, pruning old rows). Each is one statement over all rows,
 * never a statement per row.
 */
export class MaintenanceStore extends Store<ReposTables & UsersTables & ActivityTables & WebhooksTables> {
  /** Repositories after `afterId`, by id, with their owners' names: one page of a walk over all of them. */
  async repositoriesAfter(afterId: number, limit: number): Promise<RepoListing[]> {
    const rows = await this.db
      .selectFrom('repository')
      .innerJoin('user', 'user.id', 'repository.owner_id')
      .select(['repository.id', 'user.lower_name as owner', 'repository.lower_name as name', 'repository.object_format_name', 'repository.default_branch'])
      .where('repository.id', '>', afterId)
      .orderBy('repository.id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  /**
   * Sets every stored counter that drifted from the rows it counts (Forgejo's CheckRepoStats, and the account
   * counters beside them); returns how many rows were corrected. Per counter: one statement finds the rows that
   * disagree, and one transaction locks just those and sets them, so a change counting concurrently (which holds
   * the same row lock while it moves the counter) is never overwritten with a count taken before it committed.
   */
  async recountAll(): Promise<{ fixed: number; byCounter: Record<string, number> }> {
    const byCounter: Record<string, number> = {};
    let fixed = 0;
    for (const { table, column, count } of this.recounts()) {
      const drifted = await sql<{ id: number | string }>`SELECT id FROM ${sql.table(table)} WHERE ${sql.ref(column)} <> (${count}) LIMIT ${sql.lit(RECOUNT_BATCH)}`.execute(this.db);
      const ids = drifted.rows.map((row) => Number(row.id));
      if (ids.length === 0) continue;
      const idList = sql.join(ids.map((id) => sql.lit(id)));
      const n = await this.db.transaction().execute(async (trx) => {
        if (this.scope.storage.dialect === 'postgres') await sql`SELECT id FROM ${sql.table(table)} WHERE id IN (${idList}) FOR UPDATE`.execute(trx);
        const result = await sql`UPDATE ${sql.table(table)} SET ${sql.ref(column)} = (${count}) WHERE id IN (${idList}) AND ${sql.ref(column)} <> (${count})`.execute(trx);
        return Number(result.numAffectedRows ?? 0n);
      });
      byCounter[`${table}.${column}`] = n;
      fixed += n;
    }
    return { fixed, byCounter };
  }

  /** Each counter with the count it should hold (a subquery over the counted rows, correlated by the table name). */
  private recounts(): { table: string; column: string; count: RawBuilder<unknown> }[] {
    const watching = sql.join(WATCHING_MODES.map((mode) => sql.lit(mode)));
    const conversation = sql.join([COMMENT_TYPES.comment, COMMENT_TYPES.review].map((type) => sql.lit(type)));
    const recount = (table: string, column: string, count: RawBuilder<unknown>) => ({ table, column, count });
    const issues = (isPull: number, closedOnly: boolean) =>
      sql`SELECT count(*) FROM issue WHERE issue.repo_id = repository.id AND issue.is_pull = ${sql.lit(isPull)}${closedOnly ? sql` AND issue.is_closed = 1` : sql``}`;
    return [
      recount('repository', 'num_stars', sql`SELECT count(*) FROM star WHERE star.repo_id = repository.id`),
      recount('repository', 'num_watches', sql`SELECT count(*) FROM watch WHERE watch.repo_id = repository.id AND watch.mode IN (${watching})`),
      recount('repository', 'num_forks', sql`SELECT count(*) FROM repository AS fork WHERE fork.fork_id = repository.id`),
      recount('repository', 'num_issues', issues(0, false)),
      recount('repository', 'num_closed_issues', issues(0, true)),
      recount('repository', 'num_pulls', issues(1, false)),
      recount('repository', 'num_closed_pulls', issues(1, true)),
      recount('repository', 'num_releases', sql`SELECT count(*) FROM release WHERE release.repo_id = repository.id AND release.is_draft = 0 AND release.is_tag = 0`),
      recount('user', 'num_repos', sql`SELECT count(*) FROM repository WHERE repository.owner_id = "user".id`),
      recount('user', 'num_stars', sql`SELECT count(*) FROM star WHERE star.uid = "user".id`),
      recount('user', 'num_followers', sql`SELECT count(*) FROM follow WHERE follow.follow_id = "user".id`),
      recount('user', 'num_following', sql`SELECT count(*) FROM follow WHERE follow.user_id = "user".id`),
      recount('issue', 'num_comments', sql`SELECT count(*) FROM comment WHERE comment.issue_id = issue.id AND comment.type IN (${conversation})`),
      recount('label', 'num_issues', sql`SELECT count(*) FROM issue_label WHERE issue_label.label_id = label.id`),
      recount(
        'label',
        'num_closed_issues',
        sql`SELECT count(*) FROM issue_label INNER JOIN issue ON issue.id = issue_label.issue_id WHERE issue_label.label_id = label.id AND issue.is_closed = 1`,
      ),
      recount('milestone', 'num_issues', sql`SELECT count(*) FROM issue WHERE issue.milestone_id = milestone.id`),
      recount('milestone', 'num_closed_issues', sql`SELECT count(*) FROM issue WHERE issue.milestone_id = milestone.id AND issue.is_closed = 1`),
    ];
  }

  /** Activity feed entries created before `before` (Forgejo's DeleteOldActions), a bounded batch at a time. */
  async deleteActionsBefore(before: number, signal: AbortSignal): Promise<number> {
    let deleted = 0;
    for (;;) {
      const batch = this.db.selectFrom('action').select('id').where('created_unix', '<', before).limit(DELETE_BATCH);
      const result = await this.db.deleteFrom('action').where('id', 'in', batch).executeTakeFirst();
      const n = Number(result.numDeletedRows);
      deleted += n;
      if (n < DELETE_BATCH || signal.aborted) return deleted;
    }
  }

  /** Deliveries recorded before `before` (a bounded batch at a time), then the delivered tasks left without any (`OlderThan`). */
  async deleteDeliveriesBefore(before: number, signal: AbortSignal): Promise<number> {
    let deleted = 0;
    for (;;) {
      const batch = this.db.selectFrom('hook_delivery').select('id').where('delivered_unix', '<', before).limit(DELETE_BATCH);
      const result = await this.db.deleteFrom('hook_delivery').where('id', 'in', batch).executeTakeFirst();
      const n = Number(result.numDeletedRows);
      deleted += n;
      if (n < DELETE_BATCH || signal.aborted) break;
    }
    await this.deleteOrphanedDeliveredTasks(before);
    return deleted;
  }

  /** All but the newest `keep` deliveries of each hook, then the delivered tasks left without any (`PerWebhook`). */
  async deleteDeliveriesBeyond(keep: number): Promise<number> {
    const ranked = this.db
      .selectFrom('hook_delivery')
      .select(['id', sql<number>`row_number() over (partition by hook_id order by id desc)`.as('position')])
      .as('ranked');
    const result = await this.db
      .deleteFrom('hook_delivery')
      .where('id', 'in', this.db.selectFrom(ranked).select('ranked.id').where('ranked.position', '>', Math.max(0, keep)))
      .executeTakeFirst();
    await this.deleteOrphanedDeliveredTasks(Number.MAX_SAFE_INTEGER);
    return Number(result.numDeletedRows);
  }

  private async deleteOrphanedDeliveredTasks(createdBefore: number): Promise<void> {
    await this.db
      .deleteFrom('hook_task')
      .where('is_delivered', '=', 1)
      .where('created_unix', '<', createdBefore)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('hook_delivery').select('hook_delivery.id').whereRef('hook_delivery.task_id', '=', 'hook_task.id'))))
      .execute();
  }

  /** Individual accounts never activated, created before `before`, after `afterId` by id (Forgejo's GetInactiveUsers). */
  async inactiveUsersAfter(afterId: number, before: number, limit: number): Promise<{ id: number; lower_name: string }[]> {
    const rows = await this.db
      .selectFrom('user')
      .select(['id', 'lower_name'])
      .where('type', '=', sql.lit(UserType.Individual))
      .where('is_active', '=', 0)
      .where('created_unix', '<', before)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ id: Number(row.id), lower_name: row.lower_name }));
  }
}
