import type { Migration } from './kit.js';

/**
 * What site administrators set per account beyond its profile: how many repositories it may create (-1: the
 * `[repository] MAX_CREATION_LIMIT` default) and whether it may create organizations.
 */
export const m0015_users_admin: Migration = {
  name: '0015_users_admin',
  async up(db) {
    await db.schema.alterTable('user').addColumn('max_repo_creation', 'integer', (c) => c.notNull().defaultTo(-1)).execute();
    await db.schema.alterTable('user').addColumn('allow_create_organization', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  },
};
