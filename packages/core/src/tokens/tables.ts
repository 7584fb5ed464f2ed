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
  /** 1: every repository the user may reach; 0: only those of its `access_token_resource_repo` rows. */
  resource_all_repos: Generated<number>;
  created_unix: number;
  updated_unix: number;
}

/** A repository a repository-limited token is for. */
export interface AccessTokenResourceRepoTable {
  id: Generated<number>;
  token_id: number;
  repo_id: number;
  created_unix: number;
}

/** The tables the tokens domain owns. */
export interface TokensTables {
  access_token: AccessTokenTable;
  access_token_resource_repo: AccessTokenResourceRepoTable;
}

export type AccessToken = Selectable<AccessTokenTable>;

declare module '../storage/schema.js' {
  interface Schema extends TokensTables {}
}
