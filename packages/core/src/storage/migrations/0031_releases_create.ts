import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Forgejo's `release` table: a repository's releases, each on a tag (`tag_name`; `lower_tag_name` is unique per
 * repository, as Forgejo looks releases up by it). `sha1` is the commit the tag leads to, empty while a draft's tag
 * does not exist yet. `is_tag` marks Forgejo's tag-only rows, which this table never holds (see the releases
 * domain); the column is kept so that the rows read as Forgejo's. Assets are `attachment` rows with `release_id`.
 */
export const m0031_releases_create: Migration = {
  name: '0031_releases_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'release')
      .addColumn('repo_id', 'bigint', (c) => c.notNull())
      .addColumn('publisher_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('tag_name', 'text', (c) => c.notNull())
      .addColumn('lower_tag_name', 'text', (c) => c.notNull())
      .addColumn('original_author', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('original_author_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('target', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('sha1', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('hide_archive_links', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('num_commits', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('is_draft', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_prerelease', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_tag', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('release_repo_lower_tag').on('release').columns(['repo_id', 'lower_tag_name']).unique().execute();
    await db.schema.createIndex('release_repo_created').on('release').columns(['repo_id', 'created_unix']).execute();
    await db.schema.createIndex('release_publisher').on('release').column('publisher_id').execute();
  },
};
