import type { Generated, Selectable } from 'kysely';

/** Forgejo's numbers of the login source types RepoHost knows (`auth.Type`); 0 is a local account, never stored. */
export const LoginSourceType = { LDAP: 2, DLDAP: 5 } as const;
export type LoginSourceTypeValue = (typeof LoginSourceType)[keyof typeof LoginSourceType];

/** An external directory that accounts authenticate against (Forgejo's `login_source`). */
export interface LoginSourceTable {
  id: Generated<number>;
  /** `LoginSourceType`: LDAP via a bind DN (2) or LDAP simple auth (5). */
  type: number;
  /** Unique, as typed. */
  name: string;
  /** 0: sign-ins through this source are refused. */
  is_active: Generated<number>;
  /** The `sync_external_users` cron task synchronizes this source's accounts. */
  is_sync_enabled: Generated<number>;
  /** The type's settings as JSON (`LdapConfig` for both LDAP types), the bind password encrypted. */
  cfg: string;
  created_unix: number;
  updated_unix: number;
}

/** The tables the login sources domain owns. */
export interface LoginSourcesTables {
  login_source: LoginSourceTable;
}

export type LoginSourceRow = Selectable<LoginSourceTable>;

declare module '../storage/schema.js' {
  interface Schema extends LoginSourcesTables {}
}
