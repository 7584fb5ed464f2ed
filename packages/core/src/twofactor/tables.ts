import type { Generated, Selectable } from 'kysely';

/** An account's two-factor authentication (TOTP, RFC 6238): pending until confirmed with a first code. */
export interface TwoFactorTable {
  id: Generated<number>;
  uid: number;
  /** The base32 TOTP secret, encrypted (security/secrets.ts). */
  secret_encrypted: string;
  /** The scratch code as salted PBKDF2-SHA256 (hex); empty while pending. */
  scratch_salt: Generated<string>;
  scratch_hash: Generated<string>;
  /** The time step of the last accepted code: codes of that step or earlier are refused (no replay). */
  last_used_counter: Generated<number>;
  is_confirmed: number;
  created_unix: number;
  updated_unix: number;
}

/** The tables the two-factor domain owns. */
export interface TwoFactorTables {
  two_factor: TwoFactorTable;
}

export type TwoFactor = Selectable<TwoFactorTable>;

declare module '../storage/schema.js' {
  interface Schema extends TwoFactorTables {}
}
