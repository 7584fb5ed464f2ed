import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Forgejo's `attachment` table: files uploaded to issues, comments and releases. The bytes live in blob storage
 * under a key made from `uuid`; `external_url` is set instead for release assets that only link elsewhere.
 * `issue_id`, `comment_id` and `release_id` are 0 when unused, so they carry no foreign keys: the attachments
 * domain removes rows (and blobs) when what holds them is deleted.
 */
export const m0025_attachments_create: Migration = {
  name: '0025_attachments_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'attachment')
      .addColumn('uuid', 'varchar(40)', (c) => c.notNull())
      .addColumn('repo_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('issue_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('release_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('uploader_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('comment_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('download_count', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('external_url', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('attachment_uuid').on('attachment').column('uuid').unique().execute();
    await db.schema.createIndex('attachment_repo').on('attachment').column('repo_id').execute();
    await db.schema.createIndex('attachment_issue_comment').on('attachment').columns(['issue_id', 'comment_id']).execute();
    await db.schema.createIndex('attachment_comment').on('attachment').column('comment_id').execute();
    await db.schema.createIndex('attachment_release').on('attachment').column('release_id').execute();
    await db.schema.createIndex('attachment_uploader').on('attachment').column('uploader_id').execute();
  },
};
