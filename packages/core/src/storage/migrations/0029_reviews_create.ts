import { sql } from 'kysely';
import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Pull request reviews, with Forgejo's columns. `type` is Forgejo's ReviewType (0 pending, 1 approve, 2 comment,
 * 3 request changes, 4 review request); a request names a user (`reviewer_id`) or a team (`reviewer_team_id`).
 * A review's line comments are `comment` rows of the code type carrying its `review_id`.
 */
export const m0029_reviews_create: Migration = {
  name: '0029_reviews_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'review')
      .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('reviewer_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('reviewer_team_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('original_author', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('original_author_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('issue_id', 'bigint', (c) => c.notNull().references('issue.id').onDelete('cascade'))
      .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('official', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('commit_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('stale', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('dismissed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('review_issue').on('review').columns(['issue_id', 'type']).execute();
    await db.schema.createIndex('review_reviewer').on('review').column('reviewer_id').execute();
    // One pending review per reviewer and pull request: two requests starting one at once cannot both succeed.
    await db.schema.createIndex('review_pending_one').on('review').columns(['issue_id', 'reviewer_id']).unique().where(sql.ref('type'), '=', 0).execute();
    await db.schema.createIndex('review_reviewer_team').on('review').column('reviewer_team_id').execute();
    // A review's code comments, and a pull request's, are looked up by these.
    await db.schema.createIndex('comment_review').on('comment').columns(['review_id', 'type']).execute();
  },
};
