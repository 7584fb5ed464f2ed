import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Quotas, as Forgejo models them: rules (a limit on a sum of subjects), groups of rules, and which accounts each
 * group applies to. Names are the keys, as in Forgejo; `subjects` is a JSON array of subject names.
 */
export const m0018_quota_create: Migration = {
  name: '0018_quota_create',
  async up(db, dialect) {
    await db.schema
      .createTable('quota_rule')
      .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('limit', 'bigint', (c) => c.notNull())
      .addColumn('subjects', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema.createTable('quota_group').addColumn('name', 'varchar(255)', (c) => c.primaryKey()).execute();
    await createTableWithId(db, dialect, 'quota_group_rule_mapping')
      .addColumn('group_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('rule_name', 'varchar(255)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('quota_group_rule_mapping_gr').unique().on('quota_group_rule_mapping').columns(['group_name', 'rule_name']).execute();
    await db.schema.createIndex('quota_group_rule_mapping_rule').on('quota_group_rule_mapping').column('rule_name').execute();
    await createTableWithId(db, dialect, 'quota_group_mapping')
      .addColumn('kind', 'integer', (c) => c.notNull())
      .addColumn('mapped_id', 'bigint', (c) => c.notNull())
      .addColumn('group_name', 'varchar(255)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('quota_group_mapping_kmg').unique().on('quota_group_mapping').columns(['kind', 'mapped_id', 'group_name']).execute();
    await db.schema.createIndex('quota_group_mapping_group').on('quota_group_mapping').column('group_name').execute();
  },
};
