import type { Migration } from './kit.js';

/** Forgejo's `allow_git_hook`: a site administrator let the account edit repositories' server-side git hooks. */
export const m0055_users_git_hooks: Migration = {
  name: '0055_users_git_hooks',
  async up(db) {
    await db.schema.alterTable('user').addColumn('allow_git_hook', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
};
