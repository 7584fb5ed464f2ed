import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Properties of packages, versions and files (Forgejo's `package_property`): named values a format keeps beside
 * the metadata, such as npm's dist-tags (`npm.tag` on a version). `ref_type` says what `ref_id` names: 0 a version,
 * 1 a file, 2 a package (Forgejo's `PropertyType`).
 */
export const m0043_packages_properties: Migration = {
  name: '0043_packages_properties',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'package_property')
      .addColumn('ref_type', 'integer', (c) => c.notNull())
      .addColumn('ref_id', 'bigint', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('package_property_ref').on('package_property').columns(['ref_type', 'ref_id', 'name']).execute();
  },
};
