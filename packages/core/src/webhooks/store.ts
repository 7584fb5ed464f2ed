import type { Insertable, Updateable } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { HookDelivery, HookDeliveryTable, HookTask, HookTaskTable, Webhook, WebhookTable, WebhooksTables } from './tables.js';

/** Where a hook belongs: one repository, one account, or the site (system and default hooks). */
export type HookScope = { kind: 'repo'; repoId: number } | { kind: 'owner'; ownerId: number } | { kind: 'admin'; which: 'system' | 'default' | 'all' };

export class WebhooksStore extends Store<WebhooksTables> {
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

  /** Deletes a hook with its tasks and deliveries. */
  async delete(id: number): Promise<boolean> {
    await this.db.deleteFrom('hook_delivery').where('hook_id', '=', id).execute();
    await this.db.deleteFrom('hook_task').where('hook_id', '=', id).execute();
    const result = await this.db.deleteFrom('webhook').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** A deleted repository's hooks, tasks and deliveries. */
  async deleteOfRepo(repoId: number): Promise<void> {
    const ids = this.db.selectFrom('webhook').select('id').where('repo_id', '=', repoId);
    await this.db.deleteFrom('hook_delivery').where('hook_id', 'in', ids).execute();
    await this.db.deleteFrom('hook_task').where('hook_id', 'in', ids).execute();
    await this.db.deleteFrom('webhook').where('repo_id', '=', repoId).execute();
  }

  /** A deleted account's (or organization's) own hooks, tasks and deliveries. */
  async deleteOfOwner(ownerId: number): Promise<void> {
    const ids = this.db.selectFrom('webhook').select('id').where('owner_id', '=', ownerId).where('repo_id', '=', 0);
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

  /** Tasks due at `now`, oldest first, with their hooks. */
  due(now: number, limit: number): Promise<HookTask[]> {
    return this.db
      .selectFrom('hook_task')
      .selectAll()
      .where('is_delivered', '=', 0)
      .where('next_attempt_unix', '<=', now)
      .orderBy('next_attempt_unix')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** When the next pending task is due, if any. */
  async nextDue(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('hook_task')
      .select((eb) => eb.fn.min<number>('next_attempt_unix').as('next'))
      .where('is_delivered', '=', 0)
      .executeTakeFirst();
    return row?.next == null ? undefined : Number(row.next);
  }

  findTask(id: number): Promise<HookTask | undefined> {
    return this.db.selectFrom('hook_task').selectAll().where('id', '=', id).executeTakeFirst();
  }

  hooksByIds(ids: readonly number[]): Promise<Webhook[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('webhook').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  }

  async updateTask(id: number, changes: Updateable<HookTaskTable>): Promise<void> {
    await this.db.updateTable('hook_task').set(changes).where('id', '=', id).execute();
  }

  async insertDelivery(row: Insertable<HookDeliveryTable>): Promise<HookDelivery> {
    return this.db.insertInto('hook_delivery').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Keeps a hook's newest `keep` deliveries, and drops the delivered tasks none of them is an attempt of. */
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
