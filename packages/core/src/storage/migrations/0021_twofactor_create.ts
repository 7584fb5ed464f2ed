import type { Migration } from './kit.js';
import { createTableWithId } from './kit.js';

/**
 * Two-factor authentication (Forgejo's `two_factor`): one row per account, pending until the first code confirms it.
 */
export const m0021_twofactor_create: Migration = {
  name: '0021_twofactor_create',
  async up(db, dialect) {
    await createTableWithId(db, dialect, 'two_factor')
      .addColumn('uid', 'bigint', (c) => c.notNull().unique())
      // The TOTP secret (base32), AES-GCM under a key derived from [security] SECRET_KEY.
      .addColumn('secret_encrypted', 'text', (c) => c.notNull())
      // The scratch code: salted PBKDF2 (hex); empty until confirmed.
      .addColumn('scratch_salt', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('scratch_hash', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      // The TOTP counter (time step) of the last accepted code: a code of that step or an earlier one is refused.
      .addColumn('last_used_counter', 'bigint', (c) => c.notNull().defaultTo(0))
      // 0 pending (enrolled, not yet confirmed with a code), 1 in force.
      .addColumn('is_confirmed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_unix', 'bigint', (c) => c.notNull())
      .addColumn('updated_unix', 'bigint', (c) => c.notNull())
      .execute();
  },
};
