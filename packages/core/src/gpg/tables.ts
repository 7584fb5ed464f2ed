import type { Generated, Selectable } from 'kysely';

/**
 * A GPG key of an account: one row per primary key and one per subkey (Forgejo's `gpg_key`), so the issuer key id
 * of a signature finds its key by `key_id` whichever of them made it.
 */
export interface GpgKeyTable {
  id: Generated<number>;
  owner_id: number;
  /** The 16 upper-case hex digits of the key id. Unique across every row. */
  key_id: string;
  /** The primary key's id on a subkey's row; empty on a primary key's. */
  primary_key_id: Generated<string>;
  /** Base64 of the key's public-key (or public-subkey) packet. */
  content: string;
  /** JSON array of the addresses of the key's unrevoked user ids (a primary key's; `[]` on subkeys). */
  emails: Generated<string>;
  /** 1 once the owner signed a verification token with it (on the primary key's row). */
  verified: Generated<number>;
  can_sign: Generated<number>;
  can_encrypt_comms: Generated<number>;
  can_encrypt_storage: Generated<number>;
  can_certify: Generated<number>;
  /** The key's own creation time. */
  created_unix: number;
  /** When the key expires; 0 for never. */
  expired_unix: Generated<number>;
  /** When it was added here. */
  added_unix: number;
}

/** The whole public key of a primary key, armored, as later signature checks read it (Forgejo's `gpg_key_import`). */
export interface GpgKeyImportTable {
  key_id: string;
  content: string;
}

export interface GpgTables {
  gpg_key: GpgKeyTable;
  gpg_key_import: GpgKeyImportTable;
}

export type GpgKey = Selectable<GpgKeyTable>;
export type GpgKeyImport = Selectable<GpgKeyImportTable>;

/** A primary key with its subkeys, as the API shows it. */
export interface GpgKeyWithSubkeys {
  key: GpgKey;
  subkeys: GpgKey[];
}

declare module '../storage/schema.js' {
  interface Schema extends GpgTables {}
}
