import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { ActionsScope } from './store.js';
import type { ActionRunner, ActionRunnerTable, ActionRunnerToken, ActionsTables } from './tables.js';

/**
 * Which runners a read covers: every runner (site administrators), or a scope's own, and with `visible` also those
 * it may use: the instance's, and for a repository its owner's (Forgejo's `FindRunnerOptions.WithVisible`).
 */
export type RunnerFilter = { all: true } | { all?: false; scope: ActionsScope; visible: boolean; repoOwnerId?: number };

/** A new runner's row. */
export type NewRunner = Omit<ActionRunnerTable, 'id'>;

/** The `action_runner_token` and `action_runner` tables. */
export class RunnersStore extends Store<ActionsTables> {
  // ---- registration tokens ----

  /**
   * Serializes the token changes of one scope until the transaction ends (PostgreSQL: an advisory lock; SQLite runs
   * one writer at a time): two first reads at once would each make a token, the second one replacing the token the
   * first caller was just given.
   */
  async lockScope(scope: ActionsScope): Promise<void> {
    if (this.scope.storage.dialect !== 'postgres' || !this.scope.inTransaction) return;
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`action_runner_token:${scope.ownerId}:${scope.repoId}`}))`.execute(this.db);
  }

  /** The scope's latest token, active or not (Forgejo's `GetLatestRunnerToken`). */
  latestToken(scope: ActionsScope): Promise<ActionRunnerToken | undefined> {
    return this.db
      .selectFrom('action_runner_token')
      .selectAll()
      .where('owner_id', '=', scope.ownerId)
      .where('repo_id', '=', scope.repoId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Deactivates the scope's tokens and adds a new active one (Forgejo's `NewRunnerToken`); call in a transaction. */
  async replaceToken(scope: ActionsScope, tokenHash: string, encrypted: string, now: number): Promise<ActionRunnerToken> {
    await this.db
      .updateTable('action_runner_token')
      .set({ is_active: 0, updated_unix: now })
      .where('owner_id', '=', scope.ownerId)
      .where('repo_id', '=', scope.repoId)
      .where('is_active', '=', 1)
      .execute();
    return this.db
      .insertInto('action_runner_token')
      .values({ owner_id: scope.ownerId, repo_id: scope.repoId, token_hash: tokenHash, token_encrypted: encrypted, is_active: 1, created_unix: now, updated_unix: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** The token whose SHA-256 is `tokenHash`, active or not. */
  tokenByHash(tokenHash: string): Promise<ActionRunnerToken | undefined> {
    return this.db.selectFrom('action_runner_token').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** Stored tokens after `afterId`, by id (re-encryption walks them in batches). */
  tokensAfter(afterId: number, limit: number): Promise<{ id: number; data: string }[]> {
    return this.db
      .selectFrom('action_runner_token')
      .select(['id', 'token_encrypted as data'])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async setTokenEncrypted(id: number, encrypted: string): Promise<void> {
    await this.db.updateTable('action_runner_token').set({ token_encrypted: encrypted }).where('id', '=', id).execute();
  }

  // ---- runners ----

  /** A page of runners, the most recently online first (Forgejo's default order), then by id. */
  runners(filter: RunnerFilter, page: PageRequest): Promise<Page<ActionRunner>> {
    const where = (eb: ExpressionBuilder<ActionsTables, 'action_runner'>) => runnerCondition(eb, filter);
    return Store.page(
      this.db
        .selectFrom('action_runner')
        .selectAll()
        .where(where)
        .orderBy('last_online', 'desc')
        .orderBy('id')
        .limit(page.limit)
        .offset(offsetOf(page))
        .execute(),
      this.db
        .selectFrom('action_runner')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(where)
        .executeTakeFirst(),
    );
  }

  /** Runner `id` if the filter covers it (Forgejo's `GetVisibleRunnerByID`). */
  runner(filter: RunnerFilter, id: number): Promise<ActionRunner | undefined> {
    return this.db
      .selectFrom('action_runner')
      .selectAll()
      .where('id', '=', id)
      .where((eb) => runnerCondition(eb, filter))
      .executeTakeFirst();
  }

  runnerByUuid(uuid: string): Promise<ActionRunner | undefined> {
    return this.db.selectFrom('action_runner').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  insertRunner(row: NewRunner): Promise<ActionRunner> {
    return this.db.insertInto('action_runner').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Sets a runner's declared version and labels; false when it is gone. */
  async declare(id: number, version: string, labels: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('action_runner')
      .set({ version, agent_labels: labels, updated_unix: now })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Marks a runner online now (each authenticated call of the runner). */
  async touch(id: number, now: number): Promise<void> {
    await this.db.updateTable('action_runner').set({ last_online: now }).where('id', '=', id).execute();
  }

  async deleteRunner(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('action_runner').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  // ---- what goes with a repository or an account ----

  /** The registration tokens and runners of a repository (`repoId`) or of an account (`ownerId`). */
  async deleteScope(scope: ActionsScope): Promise<void> {
    await this.db.deleteFrom('action_runner_token').where('owner_id', '=', scope.ownerId).where('repo_id', '=', scope.repoId).execute();
    await this.db.deleteFrom('action_runner').where('owner_id', '=', scope.ownerId).where('repo_id', '=', scope.repoId).execute();
  }
}

function runnerCondition(eb: ExpressionBuilder<ActionsTables, 'action_runner'>, filter: RunnerFilter) {
  if (filter.all) return sql<SqlBool>`1 = 1`;
  const { scope } = filter;
  const own = eb.and([eb('owner_id', '=', scope.ownerId), eb('repo_id', '=', scope.repoId)]);
  if (!filter.visible) return own;
  const choices = [own, eb.and([eb('owner_id', '=', 0), eb('repo_id', '=', 0)])];
  if (scope.repoId !== 0 && filter.repoOwnerId !== undefined) choices.push(eb.and([eb('owner_id', '=', filter.repoOwnerId), eb('repo_id', '=', 0)]));
  return eb.or(choices);
}
