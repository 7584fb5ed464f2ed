import type { Insertable, Updateable } from 'kysely';
import { Store } from '../storage/index.js';
import type { Mirror, MirrorsTables, MirrorTable } from './tables.js';

/** The `mirror` table (rows go with their repository through the foreign key). */
export class MirrorsStore extends Store<MirrorsTables> {
  private readonly byRepo = this.precompiled<Mirror, 'repoId'>('byRepo', (db, param) => db.selectFrom('mirror').selectAll().where('repo_id', '=', param('repoId')));

  async findByRepo(repoId: number): Promise<Mirror | undefined> {
    return (await this.byRepo({ repoId }))[0];
  }

  /** The mirrors of the given repositories, by repository id (one query for a page). */
  async findByRepos(repoIds: readonly number[]): Promise<Map<number, Mirror>> {
    if (repoIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('mirror').selectAll().where('repo_id', 'in', [...new Set(repoIds)]).execute();
    return new Map(rows.map((r) => [r.repo_id, r]));
  }

  insert(row: Insertable<MirrorTable>): Promise<Mirror> {
    return this.db.insertInto('mirror').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(repoId: number, changes: Updateable<MirrorTable>): Promise<Mirror | undefined> {
    return this.db.updateTable('mirror').set(changes).where('repo_id', '=', repoId).returningAll().executeTakeFirst();
  }

  async deleteByRepo(repoId: number): Promise<void> {
    await this.db.deleteFrom('mirror').where('repo_id', '=', repoId).execute();
  }

  /** Mirrors with stored credentials after `afterId`, by id (re-encryption walks them in batches). */
  credentialsAfter(afterId: number, limit: number): Promise<Pick<Mirror, 'id' | 'repo_id' | 'remote_credentials'>[]> {
    return this.db.selectFrom('mirror').select(['id', 'repo_id', 'remote_credentials']).where('id', '>', afterId).where('remote_credentials', '!=', '').orderBy('id').limit(limit).execute();
  }

  /** Mirrors whose scheduled sync is due, least recently updated first (as Forgejo's MirrorsIterate). */
  due(now: number, limit: number): Promise<Mirror[]> {
    return this.db
      .selectFrom('mirror')
      .selectAll()
      .where('next_update_unix', '<=', now)
      .where('next_update_unix', '<>', 0)
      .orderBy('updated_unix')
      .limit(limit)
      .execute();
  }
}
