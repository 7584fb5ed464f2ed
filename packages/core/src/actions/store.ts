import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { ActionSecret, ActionVariable, ActionsTables } from './tables.js';

/**
 * Whose secrets and variables: a repository's (`ownerId` 0) or an account's (`repoId` 0). Every query names both
 * columns, as Forgejo's `FindSecretsOptions` does, so an account's list never takes in its repositories' rows.
 */
export interface ActionsScope {
  ownerId: number;
  repoId: number;
}

/** A secret as lists show it: never its value. */
export type SecretListing = Pick<ActionSecret, 'id' | 'name' | 'created_unix'>;

/** Secrets (and variables) one task receives at most; Forgejo sets no bound, a task payload must have one. */
const TASK_VALUES_MAX = 1000;

/** The `secret` and `action_variable` tables. */
export class ActionsStore extends Store<ActionsTables> {
  // ---- secrets ----

  /** A page of the scope's secrets by name (Forgejo's order: name, then id), without their values. */
  secrets(scope: ActionsScope, page: PageRequest): Promise<Page<SecretListing>> {
    return Store.page(
      this.db
        .selectFrom('secret')
        .select(['id', 'name', 'created_unix'])
        .where('owner_id', '=', scope.ownerId)
        .where('repo_id', '=', scope.repoId)
        .orderBy('name')
        .orderBy('id')
        .limit(page.limit)
        .offset(offsetOf(page))
        .execute(),
      this.db
        .selectFrom('secret')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_id', '=', scope.ownerId)
        .where('repo_id', '=', scope.repoId)
        .executeTakeFirst(),
    );
  }

  /** Inserts a secret unless the scope has one of that name (false then). */
  async insertSecretIfAbsent(scope: ActionsScope, name: string, data: string, now: number): Promise<boolean> {
    const row = await this.db
      .insertInto('secret')
      .values({ owner_id: scope.ownerId, repo_id: scope.repoId, name, data, created_unix: now })
      .onConflict((oc) => oc.columns(['owner_id', 'repo_id', 'name']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Replaces the value of the scope's secret `name`; false when there is none. */
  async updateSecretData(scope: ActionsScope, name: string, data: string): Promise<boolean> {
    const result = await this.db
      .updateTable('secret')
      .set({ data })
      .where('owner_id', '=', scope.ownerId)
      .where('repo_id', '=', scope.repoId)
      .where('name', '=', name)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteSecret(scope: ActionsScope, name: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('secret')
      .where('owner_id', '=', scope.ownerId)
      .where('repo_id', '=', scope.repoId)
      .where('name', '=', name)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The scope's secret `name` with its encrypted value (white-box tests; the service never hands a value out). */
  findSecret(scope: ActionsScope, name: string): Promise<ActionSecret | undefined> {
    return this.db
      .selectFrom('secret')
      .selectAll()
      .where('owner_id', '=', scope.ownerId)
      .where('repo_id', '=', scope.repoId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  /** Stored secrets after `afterId`, by id (re-encryption walks them in batches). */
  secretsAfter(afterId: number, limit: number): Promise<Pick<ActionSecret, 'id' | 'data'>[]> {
    return this.db.selectFrom('secret').select(['id', 'data']).where('id', '>', afterId).orderBy('id').limit(limit).execute();
  }

  /**
   * The secrets a task of repository `repoId` (owned by `ownerId`) receives, encrypted: the owner's, then the
   * repository's, so a caller folding them in order lets the repository's override the owner's of the same name.
   */
  secretsOfRepo(ownerId: number, repoId: number): Promise<Pick<ActionSecret, 'name' | 'data' | 'repo_id'>[]> {
    return this.ofRepo('secret', ownerId, repoId);
  }

  async setSecretData(id: number, data: string): Promise<void> {
    await this.db.updateTable('secret').set({ data }).where('id', '=', id).execute();
  }

  // ---- variables ----

  /** A page of the scope's variables, in the order they were created. */
  variables(scope: ActionsScope, page: PageRequest): Promise<Page<ActionVariable>> {
    return Store.page(
      this.db
        .selectFrom('action_variable')
        .selectAll()
        .where('owner_id', '=', scope.ownerId)
        .where('repo_id', '=', scope.repoId)
        .orderBy('id')
        .limit(page.limit)
        .offset(offsetOf(page))
        .execute(),
      this.db
        .selectFrom('action_variable')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('owner_id', '=', scope.ownerId)
        .where('repo_id', '=', scope.repoId)
        .executeTakeFirst(),
    );
  }

  /** The variables a task of repository `repoId` receives: the owner's, then the repository's (they override). */
  variablesOfRepo(ownerId: number, repoId: number): Promise<Pick<ActionVariable, 'name' | 'data' | 'repo_id'>[]> {
    return this.ofRepo('action_variable', ownerId, repoId);
  }

  /** A table's rows for a task of the repository: the owner's, then the repository's, at most TASK_VALUES_MAX. */
  private ofRepo(table: 'secret' | 'action_variable', ownerId: number, repoId: number): Promise<{ name: string; data: string; repo_id: number }[]> {
    return this.db
      .selectFrom(table)
      .select(['name', 'data', 'repo_id'])
      .where((eb) => eb.or([eb.and([eb('owner_id', '=', ownerId), eb('repo_id', '=', 0)]), eb.and([eb('owner_id', '=', 0), eb('repo_id', '=', repoId)])]))
      .orderBy('repo_id')
      .orderBy('id')
      .limit(TASK_VALUES_MAX)
      .execute();
  }

  findVariable(scope: ActionsScope, name: string): Promise<ActionVariable | undefined> {
    return this.db
      .selectFrom('action_variable')
      .selectAll()
      .where('owner_id', '=', scope.ownerId)
      .where('repo_id', '=', scope.repoId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  /** Inserts a variable unless the scope has one of that name (undefined then). */
  insertVariableIfAbsent(scope: ActionsScope, name: string, data: string, now: number): Promise<ActionVariable | undefined> {
    return this.db
      .insertInto('action_variable')
      .values({ owner_id: scope.ownerId, repo_id: scope.repoId, name, data, created_unix: now, updated_unix: now })
      .onConflict((oc) => oc.columns(['owner_id', 'repo_id', 'name']).doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Renames and revalues variable `id`; false when it is gone. A name the scope already has elsewhere fails on the
   * unique index (`isUniqueViolation`).
   */
  async updateVariable(id: number, name: string, data: string, now: number): Promise<boolean> {
    const result = await this.db.updateTable('action_variable').set({ name, data, updated_unix: now }).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteVariable(scope: ActionsScope, name: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('action_variable')
      .where('owner_id', '=', scope.ownerId)
      .where('repo_id', '=', scope.repoId)
      .where('name', '=', name)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  // ---- what goes with a repository or an account ----

  /** The secrets and variables of a repository (`repoId`) or of an account (`ownerId`). */
  async deleteScope(scope: ActionsScope): Promise<void> {
    await this.db.deleteFrom('secret').where('owner_id', '=', scope.ownerId).where('repo_id', '=', scope.repoId).execute();
    await this.db.deleteFrom('action_variable').where('owner_id', '=', scope.ownerId).where('repo_id', '=', scope.repoId).execute();
  }
}
