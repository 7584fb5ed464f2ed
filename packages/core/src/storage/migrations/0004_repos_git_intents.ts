import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Intents: a row written before git storage and the database are changed together, removed in the transaction
 * that finishes the change. A row left behind names work a crash interrupted; start-up reconciles it.
 */
export const m0004_repos_git_intents: Migration = {
  name: '0004_repos_git_intents',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'repo_git_intent')
      .addColumn('op', 'varchar(32)', (c) => c.notNull())
      .addColumn('owner_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('repo_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('repo_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
  },
};
