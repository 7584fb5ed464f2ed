import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Forgejo's `push_mirror` table: remotes a repository pushes its branches and tags to. `remote_name` is the
 * mirror's name in the API (`remote_mirror_<random>`), unique per repository; `remote_address` is shown as is, so
 * it never holds credentials: those are in `credentials`, encrypted under `[security] SECRET_KEY`. `interval_seconds`
 * is Forgejo's `interval` (0: only on demand and on commit). `last_update_unix` is when the last push attempt ended,
 * `last_error` what went wrong in it (credentials removed).
 */
export const m0037_pushmirrors_create: Migration = {
  name: '0037_pushmirrors_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'push_mirror')
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('remote_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('remote_address', 'text', (c) => c.notNull())
      .addColumn('credentials', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('branch_filter', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('public_key', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('private_key', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('sync_on_commit', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('interval_seconds', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('last_update_unix', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('push_mirror_repo_remote_name').on('push_mirror').columns(['repo_id', 'remote_name']).unique().execute();
    await db.schema.createIndex('push_mirror_last_update').on('push_mirror').column('last_update_unix').execute();
  },
};
