import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * The package registry (Forgejo's `package`, `package_version`, `package_file`, `package_blob`): packages per owner
 * and type, their versions, the versions' files, and the content-addressed blobs the files point at (one row per
 * distinct sha256, shared across versions and owners). A package's name and a version's are unique per owner and
 * type (case-insensitively, through `lower_*`); a file's name and key per version.
 */
export const m0042_packages_create: Migration = {
  name: '0042_packages_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'package_blob')
      .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('hash_md5', 'varchar(32)', (c) => c.notNull())
      .addColumn('hash_sha1', 'varchar(40)', (c) => c.notNull())
      .addColumn('hash_sha256', 'varchar(64)', (c) => c.notNull())
      .addColumn('hash_sha512', 'varchar(128)', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('package_blob_sha256').on('package_blob').column('hash_sha256').unique().execute();

    await createTableWithId(db, dialect, 'package')
      .addColumn('owner_id', 'bigint', (c) => c.notNull())
      .addColumn('repo_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('type', 'varchar(255)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('lower_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('semver_compatible', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_internal', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('package_owner_type_name').on('package').columns(['owner_id', 'type', 'lower_name']).unique().execute();
    await db.schema.createIndex('package_repo').on('package').column('repo_id').execute();

    await createTableWithId(db, dialect, 'package_version')
      .addColumn('package_id', 'bigint', (c) => c.notNull())
      .addColumn('creator_id', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('version', 'varchar(255)', (c) => c.notNull())
      .addColumn('lower_version', 'varchar(255)', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('is_internal', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('metadata_json', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('download_count', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('package_version_package_version').on('package_version').columns(['package_id', 'lower_version']).unique().execute();
    await db.schema.createIndex('package_version_created').on('package_version').column('created_unix').execute();

    await createTableWithId(db, dialect, 'package_file')
      .addColumn('version_id', 'bigint', (c) => c.notNull())
      .addColumn('blob_id', 'bigint', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('lower_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('composite_key', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .addColumn('is_lead', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('package_file_version_name_key').on('package_file').columns(['version_id', 'lower_name', 'composite_key']).unique().execute();
    await db.schema.createIndex('package_file_blob').on('package_file').column('blob_id').execute();
  },
};
