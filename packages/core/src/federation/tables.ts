import type { Generated, Selectable } from 'kysely';

/** An RSA key pair an account (or, with `owner_id` 0, the instance actor) signs its ActivityPub requests with. */
export interface FederationKeypairTable {
  id: Generated<number>;
  owner_id: number;
  public_pem: string;
  /** The PKCS#8 PEM, encrypted under `[security] SECRET_KEY` (security/secrets.ts). */
  private_pem_encrypted: string;
  created_unix: number;
}

/** Another instance RepoHost has exchanged activities with (Forgejo's `federation_host`). */
export interface FederationHostTable {
  id: Generated<number>;
  host_fqdn: string;
  host_port: number;
  host_schema: string;
  /** What its NodeInfo calls its software (`forgejo`, `gitea`, …). */
  software_name: string;
  /** Unix start time of the latest activity accepted from it: one not newer is refused (a replay). */
  latest_activity: Generated<number>;
  /** Its instance actor's key, once a request signed with it was verified. */
  key_id: Generated<string>;
  public_key: Generated<string>;
  created_unix: number;
  updated_unix: number;
}

/** An account of another instance, with the local account that stands for it (Forgejo's `federated_user`). */
export interface FederatedUserTable {
  id: Generated<number>;
  user_id: number;
  federation_host_id: number;
  /** The id of the account on its instance (the last segment of its actor URI). */
  external_id: string;
  /** Its actor URI. */
  original_url: string;
  inbox_url: string;
  key_id: string;
  public_key: string;
  /** When the key was last fetched again because a signature did not verify with it (0: never). */
  key_refreshed_unix: Generated<number>;
  created_unix: number;
}

/** An account of another instance following a local account. */
export interface FederatedUserFollowerTable {
  id: Generated<number>;
  followed_user_id: number;
  federated_user_id: number;
  created_unix: number;
}

/** The tables the federation domain owns. */
export interface FederationTables {
  federation_keypair: FederationKeypairTable;
  federation_host: FederationHostTable;
  federated_user: FederatedUserTable;
  federated_user_follower: FederatedUserFollowerTable;
}

export type FederationKeypair = Selectable<FederationKeypairTable>;
export type FederationHost = Selectable<FederationHostTable>;
export type FederatedUser = Selectable<FederatedUserTable>;

declare module '../storage/schema.js' {
  interface Schema extends FederationTables {}
}
