import type { Generated, Selectable } from 'kysely';

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

/** The tables the tokens domain owns. */
export interface TokensTables {
  access_token: AccessTokenTable;
}

export type AccessToken = Selectable<AccessTokenTable>;
