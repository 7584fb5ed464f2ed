import { sql } from 'kysely';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { NewPushMirror, PushMirror, PushMirrorsTables } from './tables.js';

/** The `push_mirror` table. */
export class PushMirrorsStore extends Store<PushMirrorsTables> {
  /** Read on every push (in its transaction): built once. */
  private readonly syncOnCommitQuery = this.precompiled<{ id: number }, 'repoId'>('syncOnCommit', (db, param) =>
    db.selectFrom('push_mirror').select('id').where('repo_id', '=', param('repoId')).where('sync_on_commit', '=', sql.lit(1)).orderBy('id'),
  );

  /** Ids of the repository's mirrors pushed after each push to it. */
  async syncOnCommitIds(repoId: number): Promise<number[]> {
    return (await this.syncOnCommitQuery({ repoId })).map((r) => r.id);
  }

  insert(row: NewPushMirror): Promise<PushMirror> {
    return this.db.insertInto('push_mirror').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async byId(id: number): Promise<PushMirror | undefined> {
    return this.db.selectFrom('push_mirror').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async byName(repoId: number, remoteName: string): Promise<PushMirror | undefined> {
    return this.db.selectFrom('push_mirror').selectAll().where('repo_id', '=', repoId).where('remote_name', '=', remoteName).executeTakeFirst();
  }

  /** A page of the repository's push mirrors, oldest first. */
  list(repoId: number, page: PageRequest): Promise<Page<PushMirror>> {
    const base = this.db.selectFrom('push_mirror').where('repo_id', '=', repoId);
    const rows = base.selectAll().orderBy('id').limit(page.limit).offset(offsetOf(page));
    return Store.page(rows.execute(), base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst());
  }

  /** Ids of every push mirror of the repository (a bounded number: each was added by hand). */
  async idsOf(repoId: number): Promise<number[]> {
    const rows = await this.db.selectFrom('push_mirror').select('id').where('repo_id', '=', repoId).orderBy('id').execute();
    return rows.map((r) => r.id);
  }

  /** Mirrors with an interval whose last push ended at least that long ago, longest waiting first. */
  due(nowUnix: number, limit: number): Promise<{ id: number; repo_id: number }[]> {
    return this.db
      .selectFrom('push_mirror')
      .select(['id', 'repo_id'])
      .where('interval_seconds', '>', 0)
      .where(sql<boolean>`last_update_unix + interval_seconds <= ${nowUnix}`)
      .orderBy('last_update_unix')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Mirrors with stored credentials after `afterId`, by id (re-encryption walks them in batches). */
  credentialsAfter(afterId: number, limit: number): Promise<Pick<PushMirror, 'id' | 'repo_id' | 'credentials'>[]> {
    return this.db.selectFrom('push_mirror').select(['id', 'repo_id', 'credentials']).where('id', '>', afterId).where('credentials', '!=', '').orderBy('id').limit(limit).execute();
  }

  async setCredentials(id: number, credentials: string): Promise<void> {
    await this.db.updateTable('push_mirror').set({ credentials }).where('id', '=', id).execute();
  }

  /** Records the end of a push attempt; false when the mirror is gone. */
  async recordAttempt(id: number, at: number, error: string): Promise<boolean> {
    const result = await this.db.updateTable('push_mirror').set({ last_update_unix: at, last_error: error }).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes one mirror; false when there was none of that name. */
  async delete(repoId: number, remoteName: string): Promise<boolean> {
    const result = await this.db.deleteFrom('push_mirror').where('repo_id', '=', repoId).where('remote_name', '=', remoteName).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteOfRepo(repoId: number): Promise<void> {
    await this.db.deleteFrom('push_mirror').where('repo_id', '=', repoId).execute();
  }
}
