import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Actions secrets (Forgejo's `secret`) and variables (`action_variable`) of repositories and accounts: a row belongs
 * to one repository (`repo_id`, `owner_id` 0) or to one account (`owner_id`, `repo_id` 0). Names are stored
 * upper-case and are unique per owner or repository. Every query names both columns, so the unique index serves the
 * lists, the lookups by name and the deletions of a repository's or an account's rows. A secret's value is
 * encrypted; a variable's is stored as it is.
 */
export const m0040_actions_secrets_variables: Migration = {
  name: '0040_actions_secrets_variables',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'secret')
      .addColumn('owner_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('repo_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      // AES-GCM under a key derived from [security] SECRET_KEY (base64).
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('secret_owner_repo_name').on('secret').columns(['owner_id', 'repo_id', 'name']).unique().execute();

    await createTableWithId(db, dialect, 'action_variable')
      .addColumn('owner_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('repo_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('action_variable_owner_repo_name').on('action_variable').columns(['owner_id', 'repo_id', 'name']).unique().execute();
  },
};
