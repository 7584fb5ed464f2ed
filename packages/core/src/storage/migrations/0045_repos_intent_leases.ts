import type { Migration } from './kit.js';

/**
 * A git intent names the process making its change (`owner`, as `host:pid:random`) and how long that process holds it
 * (`lease_until_unix`), renewed while the change runs: any process repairs an intent whose lease expired, none one in
 * progress. Intents written before this migration have no owner and a lease of 0, so they count as interrupted.
 */
export const m0045_repos_intent_leases: Migration = {
  name: '0045_repos_intent_leases',
  async up(db) {
    await db.schema.alterTable('repo_git_intent').addColumn('owner', 'varchar(100)', (c) => c.notNull().defaultTo('')).execute();
    await db.schema.alterTable('repo_git_intent').addColumn('lease_until_unix', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  },
};
