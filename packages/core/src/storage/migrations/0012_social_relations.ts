import { sql } from 'kysely';
import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Follows (Forgejo's `follow`), stars (`star`) and blocks between accounts (`user_blocking`, Forgejo's
 * `forgejo_blocked_user`).
 *
 * Their keys to `user` and `repository` are checked at commit (deferred) rather than cascading: deleting an
 * account or a repository leaves the rows for that transaction's own `user.deleted` / `repo.deleted` handlers,
 * which read them to correct the counters of the other side (`num_followers`, `num_stars`, …) and then delete
 * them. A deletion that skipped the handlers fails at commit instead of leaving counters wrong. `watch.user_id`
 * gets the same treatment, for the repositories' `num_watches` (its repository key still cascades: nothing
 * counts a deleted repository's watchers).
 */
export const m0012_social_relations: Migration = {
  name: '0012_social_relations',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'follow')
      // The follower.
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      // The account followed.
      .addColumn('follow_id', 'bigint', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('follow_user_fk', ['user_id'], 'user', ['id'], (c) => c.deferrable().initiallyDeferred())
      .addForeignKeyConstraint('follow_follow_fk', ['follow_id'], 'user', ['id'], (c) => c.deferrable().initiallyDeferred())
      .execute();
    await db.schema.createIndex('follow_user_follow').on('follow').columns(['user_id', 'follow_id']).unique().execute();
    await db.schema.createIndex('follow_follow').on('follow').columns(['follow_id', 'id']).execute();

    await createTableWithId(db, dialect, 'star')
      .addColumn('uid', 'bigint', (c) => c.notNull())
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('star_uid_fk', ['uid'], 'user', ['id'], (c) => c.deferrable().initiallyDeferred())
      .addForeignKeyConstraint('star_repo_fk', ['repo_id'], 'repository', ['id'], (c) => c.deferrable().initiallyDeferred())
      .execute();
    await db.schema.createIndex('star_uid_repo').on('star').columns(['uid', 'repo_id']).unique().execute();
    await db.schema.createIndex('star_repo').on('star').columns(['repo_id', 'id']).execute();

    await createTableWithId(db, dialect, 'user_blocking')
      // The account that blocks.
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      // The account blocked.
      .addColumn('block_id', 'bigint', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('user_blocking_user_fk', ['user_id'], 'user', ['id'], (c) => c.deferrable().initiallyDeferred())
      .addForeignKeyConstraint('user_blocking_block_fk', ['block_id'], 'user', ['id'], (c) => c.deferrable().initiallyDeferred())
      .execute();
    await db.schema.createIndex('user_blocking_user_block').on('user_blocking').columns(['user_id', 'block_id']).unique().execute();
    await db.schema.createIndex('user_blocking_block').on('user_blocking').column('block_id').execute();

    await deferWatchUserKey(db, dialect);
  },
};

/** Replaces `watch.user_id`'s cascading key with a deferred one (SQLite cannot alter a key: the table is rebuilt). */
async function deferWatchUserKey(db: Parameters<Migration['up']>[0], dialect: Parameters<Migration['up']>[1]): Promise<void> {
  if (dialect === 'postgres') {
    const keys = await sql<{ conname: string }>`
      SELECT conname FROM pg_constraint
      WHERE conrelid = 'watch'::regclass AND confrelid = '"user"'::regclass AND contype = 'f'`.execute(db);
    for (const { conname } of keys.rows) await sql`ALTER TABLE watch DROP CONSTRAINT ${sql.id(conname)}`.execute(db);
    await sql`ALTER TABLE watch ADD CONSTRAINT watch_user_fk FOREIGN KEY (user_id) REFERENCES "user" (id) DEFERRABLE INITIALLY DEFERRED`.execute(db);
    return;
  }
  await createTableWithId(db, dialect, 'watch_rebuilt')
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
    .addColumn('mode', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_unix', 'bigint', (c) => c.notNull())
    .addColumn('updated_unix', 'bigint', (c) => c.notNull())
    .addForeignKeyConstraint('watch_user_fk', ['user_id'], 'user', ['id'], (c) => c.deferrable().initiallyDeferred())
    .execute();
  await sql`INSERT INTO watch_rebuilt (id, user_id, repo_id, mode, created_unix, updated_unix)
    SELECT id, user_id, repo_id, mode, created_unix, updated_unix FROM watch`.execute(db);
  await db.schema.dropTable('watch').execute();
  await db.schema.alterTable('watch_rebuilt').renameTo('watch').execute();
  await db.schema.createIndex('watch_user_repo').on('watch').columns(['user_id', 'repo_id']).unique().execute();
  await db.schema.createIndex('watch_repo').on('watch').column('repo_id').execute();
}
