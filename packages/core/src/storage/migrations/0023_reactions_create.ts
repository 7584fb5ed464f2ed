import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Reactions on issues (`comment_id` 0) and on comments, with Forgejo's columns. One person reacts once per kind
 * on one issue or comment (the unique index); rows go with their issue (cascading key), and a deleted comment's
 * reactions are deleted with it.
 */
export const m0023_reactions_create: Migration = {
  name: '0023_reactions_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'reaction')
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('issue_id', 'bigint', (c) => c.notNull().references('issue.id').onDelete('cascade'))
      .addColumn('comment_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('original_author_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('original_author', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('reaction_unique')
      .on('reaction')
      .columns(['issue_id', 'comment_id', 'user_id', 'type', 'original_author_id', 'original_author'])
      .unique()
      .execute();
    await db.schema.createIndex('reaction_comment').on('reaction').column('comment_id').execute();
    await db.schema.createIndex('reaction_user').on('reaction').column('user_id').execute();
  },
};
