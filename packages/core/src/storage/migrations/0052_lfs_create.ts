import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Git LFS (Forgejo's `lfs_meta_object` and `lfs_lock`). An object's bytes live once in the `lfs` blob space, keyed by
 * its oid; a `lfs_meta_object` row says a repository holds it (what makes it readable there, and what the owner's
 * quota counts). A `lfs_lock` is a path of a repository locked by a user; one lock per path (the unique index keeps
 * two processes from both taking it).
 */
export const m0052_lfs_create: Migration = {
  name: '0052_lfs_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'lfs_meta_object')
      .addColumn('oid', 'varchar(64)', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('repository_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('lfs_meta_object_repo_oid').on('lfs_meta_object').columns(['repository_id', 'oid']).unique().execute();
    await db.schema.createIndex('lfs_meta_object_oid').on('lfs_meta_object').column('oid').execute();

    await createTableWithId(db, dialect, 'lfs_lock')
      .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
      .addColumn('owner_id', 'bigint', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('lfs_lock_repo_path').on('lfs_lock').columns(['repo_id', 'path']).unique().execute();
    await db.schema.createIndex('lfs_lock_owner').on('lfs_lock').column('owner_id').execute();
  },
};
