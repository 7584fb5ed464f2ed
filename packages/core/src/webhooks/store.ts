import { sql, type Insertable, type Updateable } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { HookDelivery, HookDeliveryTable, HookTask, HookTaskTable, Webhook, WebhookTable, WebhooksTables } from './tables.js';

/** Where a hook belongs: one repository, one account, or the site (system and default hooks). */
export type HookScope = { kind: 'repo'; repoId: number } | { kind: 'owner'; ownerId: number } | { kind: 'admin'; which: 'system' | 'default' | 'all' };

/** What a claim of a task sets: the process taking it (`host:pid:random`), until when. */
export interface TaskLease {
  owner: string;
  now: number;
  leaseUntil: number;
}

/** How an attempt ended, as the holder of its task's lease records it. */
export interface AttemptOutcome {
  /** No further attempt: delivered, refused, out of attempts, or not sendable. */
  delivered: boolean;
  nextAttemptUnix: number;
  /** The attempt was made (counts towards `[webhook] MAX_ATTEMPTS`); false when the type sent nothing. */
  counted: boolean;
}

export class WebhooksStore extends Store<WebhooksTables> {
  private get postgres(): boolean {
    return this.scope.storage.dialect === 'postgres';
  }

  /**
   * Takes the hooks' rows' write locks until the transaction ends (PostgreSQL, lowest id first; SQLite has one writer
   * at a time), so that recording an attempt, pruning and deleting a hook run one after another for one hook, and
   * always take this lock before the rows of its tasks and deliveries (no two of them wait for each other).
   */
  async lockHooks(ids: readonly number[]): Promise<void> {
    if (!this.postgres || !this.scope.inTransaction || ids.length === 0) return;
    await this.db.selectFrom('webhook').select('id').where('id', 'in', [...new Set(ids)]).orderBy('id').forUpdate().execute();
  }

  private scoped(scope: HookScope) {
    let query = this.db.selectFrom('webhook');
    if (scope.kind === 'repo') query = query.where('repo_id', '=', scope.repoId);
    else if (scope.kind === 'owner') query = query.where('owner_id', '=', scope.ownerId).where('repo_id', '=', 0);
    else {
      query = query.where('repo_id', '=', 0).where('owner_id', '=', 0);
      if (scope.which !== 'all') query = query.where('is_system_webhook', '=', scope.which === 'system' ? 1 : 0);
    }
    return query;
  }

  list(scope: HookScope, page: PageRequest): Promise<Page<Webhook>> {
    return Store.page(
      this.scoped(scope).selectAll().orderBy('id').limit(page.limit).offset(offsetOf(page)).execute(),
      this.scoped(scope).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  find(scope: HookScope, id: number): Promise<Webhook | undefined> {
    return this.scoped(scope).selectAll().where('id', '=', id).executeTakeFirst();
  }

  findById(id: number): Promise<Webhook | undefined> {
    return this.db.selectFrom('webhook').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The active hooks an event of a repository may go to: its own, its owner's, and the system hooks (default
   * hooks live on as copies in each repository).
   */
  activeFor(repoId: number, ownerId: number): Promise<Webhook[]> {
    return this.db
      .selectFrom('webhook')
      .selectAll()
      .where('is_active', '=', 1)
      .where((eb) =>
        eb.or([
          eb('repo_id', '=', repoId),
          eb.and([eb('owner_id', '=', ownerId), eb('repo_id', '=', 0)]),
          eb.and([eb('is_system_webhook', '=', 1), eb('repo_id', '=', 0), eb('owner_id', '=', 0)]),
        ]),
      )
      .orderBy('id')
      .execute();
  }

  /** An account's active hooks and the system's: where an event without a repository goes (a package's). */
  activeForOwner(ownerId: number): Promise<Webhook[]> {
    return this.db
      .selectFrom('webhook')
      .selectAll()
      .where('is_active', '=', 1)
      .where('repo_id', '=', 0)
      .where((eb) => eb.or([eb('owner_id', '=', ownerId), eb.and([eb('is_system_webhook', '=', 1), eb('owner_id', '=', 0)])]))
      .orderBy('id')
      .execute();
  }

  /** Default hooks: neither a repository's nor an account's, and not system hooks. */
  defaults(): Promise<Webhook[]> {
    return this.db.selectFrom('webhook').selectAll().where('repo_id', '=', 0).where('owner_id', '=', 0).where('is_system_webhook', '=', 0).execute();
  }

  async insert(row: Insertable<WebhookTable>): Promise<Webhook> {
    return this.db.insertInto('webhook').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async insertMany(rows: Insertable<WebhookTable>[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('webhook').values(rows).execute();
  }

  /** Hooks with a stored `Authorization` header after `afterId`, by id (re-encryption walks them in batches). */
  authorizationHeadersAfter(afterId: number, limit: number): Promise<Pick<Webhook, 'id' | 'header_authorization_encrypted'>[]> {
    return this.db
      .selectFrom('webhook')
      .select(['id', 'header_authorization_encrypted'])
      .where('id', '>', afterId)
      .where('header_authorization_encrypted', '!=', '')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async update(id: number, changes: Updateable<WebhookTable>): Promise<void> {
    await this.db.updateTable('webhook').set(changes).where('id', '=', id).execute();
  }

  /** Deletes a hook with its tasks and deliveries (in a transaction: the hook's lock first, see `lockHooks`). */
  async delete(id: number): Promise<boolean> {
    await this.lockHooks([id]);
    await this.db.deleteFrom('hook_delivery').where('hook_id', '=', id).execute();
    await this.db.deleteFrom('hook_task').where('hook_id', '=', id).execute();
    const result = await this.db.deleteFrom('webhook').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** A deleted repository's hooks, tasks and deliveries. */
  async deleteOfRepo(repoId: number): Promise<void> {
    const ids = this.db.selectFrom('webhook').select('id').where('repo_id', '=', repoId);
    if (this.postgres) await this.lockHooks((await ids.execute()).map((row) => row.id));
    await this.db.deleteFrom('hook_delivery').where('hook_id', 'in', ids).execute();
    await this.db.deleteFrom('hook_task').where('hook_id', 'in', ids).execute();
    await this.db.deleteFrom('webhook').where('repo_id', '=', repoId).execute();
  }

  /** A deleted account's (or organization's) own hooks, tasks and deliveries. */
  async deleteOfOwner(ownerId: number): Promise<void> {
    const ids = this.db.selectFrom('webhook').select('id').where('owner_id', '=', ownerId).where('repo_id', '=', 0);
    if (this.postgres) await this.lockHooks((await ids.execute()).map((row) => row.id));
    await this.db.deleteFrom('hook_delivery').where('hook_id', 'in', ids).execute();
    await this.db.deleteFrom('hook_task').where('hook_id', 'in', ids).execute();
    await this.db.deleteFrom('webhook').where('owner_id', '=', ownerId).where('repo_id', '=', 0).execute();
  }

  // ---- the outbox ----

  async insertTasks(rows: Insertable<HookTaskTable>[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('hook_task').values(rows).execute();
  }

  insertTask(row: Insertable<HookTaskTable>): Promise<HookTask> {
    return this.db.insertInto('hook_task').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /**
   * Takes one attempt each of the `count` oldest tasks that are due and that nobody holds, in one conditional
   * UPDATE, for `lease.owner` until `lease.leaseUntil`: of any number of processes (and of the workers of each)
   * exactly one gets each attempt, and never more than `count` (a process's pool is what a kill -9 makes others send
   * again). On PostgreSQL the rows are chosen with `FOR UPDATE SKIP LOCKED`, so claimers racing for the head of the
   * queue take different tasks instead of queueing behind one; SQLite runs one writer at a time. The choice is a
   * materialized CTE, made once: as an `IN (…)` subquery the planner may run it again for each row it updates, each
   * run skipping the rows locked at that moment, and one claim took 190 tasks for 4 (webhooks-claim.test.ts). The
   * conditions are repeated on the rows updated, so a task claimed or finished meanwhile is left alone.
   * `exclude`: tasks this process holds already (it never takes one twice, even when a stalled attempt outlived its
   * lease). Oldest first.
   */
  async claimDue(lease: TaskLease, count: number, exclude: readonly number[] = []): Promise<HookTask[]> {
    const { now } = lease;
    const claimed = await this.db
      .with(
        (cte) => cte('claimable').materialized(),
        (db) => {
          let candidate = db
            .selectFrom('hook_task')
            .select('id')
            .where('is_delivered', '=', 0)
            .where('next_attempt_unix', '<=', now)
            .where('lease_until_unix', '<', now);
          if (exclude.length > 0) candidate = candidate.where('id', 'not in', [...exclude]);
          candidate = candidate.orderBy('next_attempt_unix').orderBy('id').limit(Math.max(1, count));
          return this.postgres ? candidate.forUpdate().skipLocked() : candidate;
        },
      )
      .updateTable('hook_task')
      .set({ lease_owner: lease.owner, lease_until_unix: lease.leaseUntil })
      .where('id', 'in', (eb) => eb.selectFrom('claimable').select('claimable.id'))
      .where('is_delivered', '=', 0)
      .where('next_attempt_unix', '<=', now)
      .where('lease_until_unix', '<', now)
      .returningAll()
      .execute();
    // RETURNING keeps no order.
    return claimed.sort((a, b) => a.next_attempt_unix - b.next_attempt_unix || a.id - b.id);
  }

  /** Extends the lease of a task this owner still holds; false when it no longer does. */
  async renewLease(id: number, owner: string, leaseUntil: number): Promise<boolean> {
    const result = await this.db.updateTable('hook_task').set({ lease_until_unix: leaseUntil }).where('id', '=', id).where('lease_owner', '=', owner).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Records how an attempt ended and gives the task's lease up, only if `owner` still holds it: false when the
   * task was taken over (the lease expired and another process claimed it), asked for again meanwhile, or deleted
   * with its hook. Only the holder records, so each attempt is recorded once. Attempts are counted in SQL.
   */
  async finishAttempt(id: number, owner: string, outcome: AttemptOutcome): Promise<boolean> {
    const result = await this.db
      .updateTable('hook_task')
      .set((eb) => ({
        is_delivered: outcome.delivered ? 1 : 0,
        next_attempt_unix: outcome.nextAttemptUnix,
        lease_owner: '',
        lease_until_unix: 0,
        is_redelivery: 0,
        ...(outcome.counted ? { attempts: eb('attempts', '+', 1) } : {}),
      }))
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Queues a hook's task for a new attempt now, recorded as a redelivery (its attempts start over), unless an attempt
   * of it is being made under a live lease. A lease that expired is cleared, so the process that held it (if it still
   * runs) no longer records anything for it. Answers what became of it.
   */
  async requeue(hookId: number, taskId: number, now: number): Promise<'queued' | 'in-flight' | 'missing'> {
    const result = await this.db
      .updateTable('hook_task')
      .set({ is_delivered: 0, attempts: 0, next_attempt_unix: now, is_redelivery: 1, lease_owner: '', lease_until_unix: 0 })
      .where('id', '=', taskId)
      .where('hook_id', '=', hookId)
      .where('lease_until_unix', '<', now)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) return 'queued';
    const task = await this.db.selectFrom('hook_task').select('id').where('id', '=', taskId).where('hook_id', '=', hookId).executeTakeFirst();
    return task ? 'in-flight' : 'missing';
  }

  /**
   * When the next attempt may be claimed (unix seconds), if any task is pending: its due time, or for a task held by
   * a process now, just after that lease ends (the holder records it first, or it expires and is taken over).
   */
  async nextDue(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('hook_task')
      .select(sql<number>`min(case when lease_until_unix >= next_attempt_unix then lease_until_unix + 1 else next_attempt_unix end)`.as('next'))
      .where('is_delivered', '=', 0)
      .executeTakeFirst();
    return row?.next == null ? undefined : Number(row.next);
  }

  async insertDelivery(row: Insertable<HookDeliveryTable>): Promise<HookDelivery> {
    return this.db.insertInto('hook_delivery').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /**
   * Keeps a hook's newest `keep` deliveries, and drops the delivered tasks none of them is an attempt of. Run it in a
   * transaction after `lockHooks([hookId])`: prunings of one hook (from any process) then run one after another. Each
   * statement is idempotent, and a task still pending or being sent (not delivered) is never dropped.
   */
  async pruneDeliveries(hookId: number, keep: number): Promise<void> {
    const cutoff = await this.db
      .selectFrom('hook_delivery')
      .select('id')
      .where('hook_id', '=', hookId)
      .orderBy('id', 'desc')
      .limit(1)
      .offset(keep)
      .executeTakeFirst();
    if (!cutoff) return;
    await this.db.deleteFrom('hook_delivery').where('hook_id', '=', hookId).where('id', '<=', cutoff.id).execute();
    await this.db
      .deleteFrom('hook_task')
      .where('hook_id', '=', hookId)
      .where('is_delivered', '=', 1)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('hook_delivery').select('hook_delivery.id').whereRef('hook_delivery.task_id', '=', 'hook_task.id'))))
      .execute();
  }

  /** A hook's deliveries, newest first, with the task each belongs to. */
  deliveries(hookId: number, page: PageRequest): Promise<Page<HookDelivery & { uuid: string; event_type: string; repo_id: number }>> {
    return Store.page(
      this.db
        .selectFrom('hook_delivery')
        .innerJoin('hook_task', 'hook_task.id', 'hook_delivery.task_id')
        .selectAll('hook_delivery')
        .select(['hook_task.uuid', 'hook_task.event_type', 'hook_task.repo_id'])
        .where('hook_delivery.hook_id', '=', hookId)
        .orderBy('hook_delivery.id', 'desc')
        .limit(page.limit)
        .offset(offsetOf(page))
        .execute(),
      this.db.selectFrom('hook_delivery').select((eb) => eb.fn.countAll<number>().as('n')).where('hook_id', '=', hookId).executeTakeFirst(),
    );
  }

  delivery(hookId: number, id: number): Promise<(HookDelivery & { uuid: string; event_type: string; repo_id: number }) | undefined> {
    return this.db
      .selectFrom('hook_delivery')
      .innerJoin('hook_task', 'hook_task.id', 'hook_delivery.task_id')
      .selectAll('hook_delivery')
      .select(['hook_task.uuid', 'hook_task.event_type', 'hook_task.repo_id'])
      .where('hook_delivery.hook_id', '=', hookId)
      .where('hook_delivery.id', '=', id)
      .executeTakeFirst();
  }
}
