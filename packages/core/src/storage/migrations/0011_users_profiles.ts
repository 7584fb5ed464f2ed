import { sql } from 'kysely';
import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Profile settings (theme, diff view style, privacy switches, repository unit hints), uploaded avatars, and every
 * email address of an account in `email_address`: the primary one too, so one unique index keeps an address to
 * one account. Existing accounts get their primary address.
 */
export const m0011_users_profiles: Migration = {
  name: '0011_users_profiles',
  async up(db, dialect) {
    const columns: [string, string, number | string][] = [
      ['theme', 'varchar(255)', ''],
      ['diff_view_style', 'varchar(255)', ''],
      ['keep_activity_private', 'integer', 0],
      ['keep_pronouns_private', 'integer', 0],
      ['enable_repo_unit_hints', 'integer', 1],
      // Content hash of an uploaded avatar; empty for the generated one.
      ['avatar', 'varchar(255)', ''],
      ['use_custom_avatar', 'integer', 0],
    ];
    for (const [name, type, fallback] of columns) {
      await db.schema
        .alterTable('user')
        .addColumn(name, sql.raw(type), (c) => c.notNull().defaultTo(fallback))
        .execute();
    }

    await createTableWithId(db, dialect, 'email_address')
      .addColumn('uid', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('email', 'varchar(255)', (c) => c.notNull())
      .addColumn('lower_email', 'varchar(255)', (c) => c.notNull().unique())
      .addColumn('is_activated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('email_address_uid').on('email_address').column('uid').execute();

    await sql`INSERT INTO email_address (uid, email, lower_email, is_activated, is_primary)
      SELECT id, email, lower_email, is_active, 1 FROM ${sql.table('user')} WHERE type = 0 AND email <> ''`.execute(db);
  },
};
