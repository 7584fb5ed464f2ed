import type { Generated, Selectable } from 'kysely';
import type { DomainMigration } from '../storage/migrations.js';
import { createTableWithId } from '../storage/migrations.js';

export interface AccessTokenTable {
  id: Generated<number>;
  uid: number;
  name: string;
  /** HMAC-SHA256 of the token under `token_salt`; the token itself is never stored. */
  token_hash: string;
  token_salt: string;
  /** Lets a presented token be found without scanning every hash. */
  token_last_eight: string;
  /** Normalized scopes, comma-separated. */
  scope: string;
  created_unix: number;
  updated_unix: number;
}

export interface TokensTables {
  access_token: AccessTokenTable;
}

export type AccessToken = Selectable<AccessTokenTable>;

export const tokensMigrations: DomainMigration[] = [
  {
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
  },
];
