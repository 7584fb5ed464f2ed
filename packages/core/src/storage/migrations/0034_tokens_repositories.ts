import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Repository-limited access tokens, as Forgejo keeps them: `resource_all_repos` (1 for every token made before)
 * and, for a token limited to some repositories, one `access_token_resource_repo` row per repository. Rows go
 * with their token and with their repository.
 */
export const m0034_tokens_repositories: Migration = {
  name: '0034_tokens_repositories',
  async up(db, dialect) {
    await db.schema.alterTable('access_token').addColumn('resource_all_repos', 'integer', (c) => c.notNull().defaultTo(1)).execute();
    await createTableWithId(db, dialect, 'access_token_resource_repo')
      .addColumn('token_id', 'bigint', (c) => c.notNull().references('access_token.id').onDelete('cascade'))
      .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('access_token_resource_repo_token').on('access_token_resource_repo').columns(['token_id', 'repo_id']).unique().execute();
  },
};
