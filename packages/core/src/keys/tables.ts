import type { Generated, Selectable } from 'kysely';

/** What a key is for, numbered as Forgejo stores it. */
export const KeyType = { User: 1, Deploy: 2, Principal: 3 } as const;

/** An SSH public key: a user's (authenticates as its owner) or a deploy key's (see `deploy_key`). */
export interface PublicKeyTable {
  id: Generated<number>;
  /** The user the key authenticates as (deploy keys: 0). */
  owner_id: number;
  /** The title the owner gave it. */
  name: string;
  /** `SHA256:` and the unpadded base64 of the SHA-256 of the key blob, as `ssh-keygen -l` prints it. */
  fingerprint: string;
  /** Normalized: `<type> <base64 blob>`, no options and no comment, so a presented key is found by equality. */
  content: string;
  /** The access mode the key grants (AccessMode: 1 read, 2 write). */
  mode: number;
  /** KeyType. */
  type: number;
  login_source_id: Generated<number>;
  /** 1 once the owner has proved they hold the private key (signed token); not required to use it. */
  verified: Generated<number>;
  created_unix: number;
  /** Last change, or last use over SSH. */
  updated_unix: number;
}

/**
 * A deploy key of one repository: the `public_key` row (type Deploy, owner 0) it uses, and the mode it grants on
 * that repository. One key may be a deploy key of several repositories, each with its own title and mode.
 */
export interface DeployKeyTable {
  id: Generated<number>;
  /** The `public_key` row. */
  key_id: number;
  repo_id: number;
  /** The title, unique within the repository. */
  name: string;
  fingerprint: string;
  /** AccessMode: 1 read (clone and fetch), 2 write (push too). */
  mode: number;
  created_unix: number;
  /** Last change, or last use over SSH. */
  updated_unix: number;
}

/** The tables the keys domain owns. */
export interface KeysTables {
  public_key: PublicKeyTable;
  deploy_key: DeployKeyTable;
}

export type PublicKey = Selectable<PublicKeyTable>;
export type DeployKey = Selectable<DeployKeyTable>;

declare module '../storage/schema.js' {
  interface Schema extends KeysTables {}
}
