import type { Generated, Selectable } from 'kysely';
import type { OAuth2Tables } from './tables.js';

/** A code the authorization endpoint handed out; exchanged once, within its lifetime, by its client. */
export interface OAuth2AuthorizationCodeTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the code. */
  code_hash: string;
  application_id: number;
  uid: number;
  /** The redirect URI of the authorization request: the exchange must name the same one. */
  redirect_uri: string;
  scope: string;
  nonce: string;
  code_challenge: string;
  /** '' (no PKCE), 'S256' or 'plain'. */
  code_challenge_method: string;
  /** The grant the exchange created (0 while unused): a replayed code revokes it. */
  grant_id: Generated<number>;
  used: Generated<number>;
  expires_unix: number;
  created_unix: number;
}

/** What one code exchange granted: the family of tokens that refreshes rotate within. */
export interface OAuth2GrantTable {
  id: Generated<number>;
  application_id: number;
  uid: number;
  scope: string;
  nonce: string;
  created_unix: number;
  updated_unix: number;
}

export type OAuth2TokenKind = 'access' | 'refresh';

export interface OAuth2TokenTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the token. */
  token_hash: string;
  grant_id: number;
  uid: number;
  kind: OAuth2TokenKind;
  scope: string;
  /** 1 once a refresh token has been exchanged: a second use is a replay. */
  consumed: Generated<number>;
  expires_unix: number;
  created_unix: number;
}

/** A signed-in browser of the provider's pages (the cookie holds the id; only its hash is stored). */
export interface WebSessionTable {
  id: Generated<number>;
  session_hash: string;
  uid: number;
  expires_unix: number;
  created_unix: number;
}

/** The provider's tables, and the applications it reads (the same domain's registration side). */
export interface OAuth2ProviderTables extends OAuth2Tables {
  oauth2_authorization_code: OAuth2AuthorizationCodeTable;
  oauth2_grant: OAuth2GrantTable;
  oauth2_token: OAuth2TokenTable;
  web_session: WebSessionTable;
}

export type OAuth2AuthorizationCode = Selectable<OAuth2AuthorizationCodeTable>;
export type OAuth2Grant = Selectable<OAuth2GrantTable>;
export type OAuth2Token = Selectable<OAuth2TokenTable>;
