import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * The names renames and transfers left behind (Forgejo's `repo_redirect` and `user_redirect`): an old repository
 * name under an owner, or an old account name, pointing at the row that carried it. A row goes when the name is
 * taken again, and with the row it points at.
 */
export const m0039_redirects_create: Migration = {
  name: '0039_redirects_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'repo_redirect')
      .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('lower_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('redirect_repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
      .execute();
    await db.schema.createIndex('repo_redirect_owner_name').on('repo_redirect').columns(['owner_id', 'lower_name']).unique().execute();
    // The cascade from a deleted repository finds its rows by this index.
    await db.schema.createIndex('repo_redirect_repo').on('repo_redirect').column('redirect_repo_id').execute();

    await createTableWithId(db, dialect, 'user_redirect')
      .addColumn('lower_name', 'varchar(255)', (c) => c.notNull().unique())
      .addColumn('redirect_user_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('user_redirect_user').on('user_redirect').column('redirect_user_id').execute();
  },
};
