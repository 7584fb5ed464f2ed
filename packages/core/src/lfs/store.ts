import type { Schema } from '../storage/index.js';
import { Store } from '../storage/index.js';
import type { LfsLock, LfsMetaObject, LfsTables } from './tables.js';

/** The LFS tables; the quota's sum joins `repository` for its owner. */
export class LfsStore extends Store<LfsTables & Pick<Schema, 'repository'>> {
  private readonly metaByRepoAndOid = this.precompiled<LfsMetaObject, 'repoId' | 'oid'>('metaByRepoAndOid', (db, param) =>
    db.selectFrom('lfs_meta_object').selectAll().where('repository_id', '=', param('repoId')).where('oid', '=', param('oid')),
  );

  async meta(repoId: number, oid: string): Promise<LfsMetaObject | undefined> {
    return (await this.metaByRepoAndOid({ repoId, oid }))[0];
  }

  /** Whether any repository holds the object. */
  async anyMeta(oid: string): Promise<boolean> {
    return (await this.db.selectFrom('lfs_meta_object').select('id').where('oid', '=', oid).limit(1).executeTakeFirst()) !== undefined;
  }

  /** The ids of repositories that hold the object (for a check of which the asker may read), at most `limit`. */
  async reposHolding(oid: string, limit: number): Promise<number[]> {
    const rows = await this.db.selectFrom('lfs_meta_object').select('repository_id').where('oid', '=', oid).orderBy('id').limit(limit).execute();
    return rows.map((r) => r.repository_id);
  }

  /** Records that the repository holds the object; nothing happens when it already does. */
  async addMeta(repoId: number, oid: string, size: number, now: number): Promise<void> {
    await this.db
      .insertInto('lfs_meta_object')
      .values({ oid, size, repository_id: repoId, created_unix: now })
      .onConflict((oc) => oc.columns(['repository_id', 'oid']).doNothing())
      .execute();
  }

  /** The repository's objects after `afterId`, by id, `limit` at a time (for walking them all). */
  metasAfter(repoId: number, afterId: number, limit: number): Promise<LfsMetaObject[]> {
    return this.db.selectFrom('lfs_meta_object').selectAll().where('repository_id', '=', repoId).where('id', '>', afterId).orderBy('id').limit(limit).execute();
  }

  async removeMeta(repoId: number, oid: string): Promise<void> {
    await this.db.deleteFrom('lfs_meta_object').where('repository_id', '=', repoId).where('oid', '=', oid).execute();
  }

  /** Gives `toRepoId` every object `fromRepoId` holds (a fork shares its parent's objects, as Forgejo copies them). */
  async copyMeta(fromRepoId: number, toRepoId: number, now: number): Promise<void> {
    await this.db
      .insertInto('lfs_meta_object')
      .columns(['oid', 'size', 'repository_id', 'created_unix'])
      .expression((eb) =>
        eb.selectFrom('lfs_meta_object').select((s) => ['oid', 'size', s.val(toRepoId).as('repository_id'), s.val(now).as('created_unix')]).where('repository_id', '=', fromRepoId),
      )
      .onConflict((oc) => oc.columns(['repository_id', 'oid']).doNothing())
      .execute();
  }

  /** Bytes of LFS objects the owner's repositories hold (Forgejo's `size:git:lfs`: one object counts in each repository). */
  async ownerSize(ownerId: number): Promise<number> {
    const row = await this.db
      .selectFrom('lfs_meta_object')
      .innerJoin('repository', 'repository.id', 'lfs_meta_object.repository_id')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('lfs_meta_object.size'), eb.lit(0)).as('total'))
      .where('repository.owner_id', '=', ownerId)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  // ---- locks ----

  lockById(repoId: number, id: number): Promise<LfsLock | undefined> {
    return this.db.selectFrom('lfs_lock').selectAll().where('repo_id', '=', repoId).where('id', '=', id).executeTakeFirst();
  }

  lockByPath(repoId: number, path: string): Promise<LfsLock | undefined> {
    return this.db.selectFrom('lfs_lock').selectAll().where('repo_id', '=', repoId).where('path', '=', path).executeTakeFirst();
  }

  /** A page of the repository's locks, oldest first; `limit` 0: all of them. */
  locks(repoId: number, offset: number, limit: number): Promise<LfsLock[]> {
    let query = this.db.selectFrom('lfs_lock').selectAll().where('repo_id', '=', repoId).orderBy('id');
    if (limit > 0) query = query.limit(limit).offset(offset);
    return query.execute();
  }

  /** Takes the lock; undefined when the path is locked already (the unique index decides between racing processes). */
  async insertLock(row: Omit<LfsLock, 'id'>): Promise<LfsLock | undefined> {
    const inserted = await this.db
      .insertInto('lfs_lock')
      .values(row)
      .onConflict((oc) => oc.columns(['repo_id', 'path']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return inserted;
  }

  async deleteLock(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('lfs_lock').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
