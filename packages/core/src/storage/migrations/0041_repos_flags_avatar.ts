import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Forgejo's `repo_flag`: the names site administrators set on a repository (`[repository] ENABLE_FLAGS`), each
 * once per repository, gone with the repository; and `repository.avatar`, the file name of its uploaded avatar
 * ('' for none).
 */
export const m0041_repos_flags_avatar: Migration = {
  name: '0041_repos_flags_avatar',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'repo_flag')
      .addColumn('repo_id', 'bigint', (c) => c.notNull().references('repository.id').onDelete('cascade'))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('repo_flag_repo_name').on('repo_flag').columns(['repo_id', 'name']).unique().execute();
    await db.schema.alterTable('repository').addColumn('avatar', 'varchar(255)', (c) => c.notNull().defaultTo('')).execute();
  },
};
