import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

export const m0002_tokens_create: Migration = {
  name: '0002_tokens_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'access_token')
      .addColumn('uid', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('token_hash', 'varchar(128)', (c) => c.notNull().unique())
      .addColumn('token_salt', 'varchar(64)', (c) => c.notNull())
      .addColumn('token_last_eight', 'varchar(8)', (c) => c.notNull())
      .addColumn('scope', 'varchar(1024)', (c) => c.notNull())
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('access_token_uid_name').on('access_token').columns(['uid', 'name']).unique().execute();
    await db.schema.createIndex('access_token_last_eight').on('access_token').column('token_last_eight').execute();
  },
};
