import type { Generated, Selectable } from 'kysely';

export interface OAuth2ApplicationTable {
  id: Generated<number>;
  /** The user who registered it. */
  uid: number;
  name: string;
  /** A random UUID, public. */
  client_id: string;
  /** SHA-256 (hex) of the secret; empty when none was generated. */
  client_secret_hash: string;
  /** 1: the client keeps a secret (server-side); 0: a public client (native, single-page), which uses PKCE. */
  confidential_client: number;
  /** JSON array of the redirect URIs, in the order given. */
  redirect_uris: string;
  created_unix: number;
  updated_unix: number;
}

/** The tables the oauth2 domain owns. */
export interface OAuth2Tables {
  oauth2_application: OAuth2ApplicationTable;
}

export type OAuth2Application = Selectable<OAuth2ApplicationTable>;

/** The redirect URIs of an application, as registered. */
export function redirectUrisOf(app: OAuth2Application): string[] {
  const parsed: unknown = JSON.parse(app.redirect_uris);
  return Array.isArray(parsed) ? parsed.filter((uri): uri is string => typeof uri === 'string') : [];
}

declare module '../storage/schema.js' {
  interface Schema extends OAuth2Tables {}
}
