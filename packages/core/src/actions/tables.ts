import type { Generated, Selectable } from 'kysely';

/**
 * An Actions secret (Forgejo's `secret`): a repository's (`repo_id`, `owner_id` 0) or an account's (`owner_id`,
 * `repo_id` 0), never both and never neither. The value is encrypted under `[security] SECRET_KEY` and never shown.
 */
export interface ActionSecretTable {
  id: Generated<number>;
  owner_id: number;
  repo_id: number;
  /** Upper-case, Forgejo's name rules (`names.ts`); unique per owner or repository. */
  name: string;
  /** The value, line endings normalized to LF, encrypted (`security/secrets.ts`, purpose `SECRET_PURPOSE`). */
  data: string;
  created_unix: number;
}

/** An Actions variable (Forgejo's `action_variable`): scoped as a secret is, its value stored and shown as it is. */
export interface ActionVariableTable {
  id: Generated<number>;
  owner_id: number;
  repo_id: number;
  /** Upper-case, Forgejo's name rules (`names.ts`); unique per owner or repository. */
  name: string;
  data: string;
  created_unix: number;
  updated_unix: number;
}

/**
 * A registration token for runners (Forgejo's `action_runner_token`): global (`owner_id` and `repo_id` 0), an
 * account's (`owner_id`) or a repository's (`repo_id`), never both. The latest row of a scope is the one shown; a
 * reset deactivates every row of the scope and adds a new one. The token is shown again on every read, so it is kept
 * encrypted (not in clear as Forgejo keeps it) and found by its SHA-256 hash.
 */
export interface ActionRunnerTokenTable {
  id: Generated<number>;
  owner_id: number;
  repo_id: number;
  /** Hex SHA-256 of the token: how a runner's Register finds it (unique). */
  token_hash: string;
  /** The token, encrypted (`security/secrets.ts`, purpose `RUNNER_TOKEN_PURPOSE`). */
  token_encrypted: string;
  /** 1 while the token may register runners; 0 once a newer token replaced it. */
  is_active: number;
  created_unix: number;
  updated_unix: number;
}

/**
 * A runner (Forgejo's `action_runner`): scoped as its registration token was (global, an account's or a
 * repository's). Its own token is only ever checked, so only a salted hash of it is kept.
 */
export interface ActionRunnerTable {
  id: Generated<number>;
  /** Unique; the runner names itself with it (`x-runner-uuid`). */
  uuid: string;
  /** At most 255 bytes; not unique. */
  name: string;
  /** What the runner said it is, at most 64 characters. */
  version: string;
  owner_id: number;
  repo_id: number;
  description: string;
  /** 1 when the runner takes one job and is then removed. */
  ephemeral: number;
  /** HMAC-SHA-256 of the runner's token under `token_salt` (hex). */
  token_hash: string;
  token_salt: string;
  /** The labels the runner declared, a JSON array of strings. */
  agent_labels: string;
  /** When the runner last asked for work (0: never); offline a minute after. */
  last_online: number;
  /** When the runner last did work (0: never); idle ten seconds after. */
  last_active: number;
  created_unix: number;
  updated_unix: number;
}

/** The tables the actions domain owns. */
export interface ActionsTables {
  secret: ActionSecretTable;
  action_variable: ActionVariableTable;
  action_runner_token: ActionRunnerTokenTable;
  action_runner: ActionRunnerTable;
}

export type ActionSecret = Selectable<ActionSecretTable>;
export type ActionVariable = Selectable<ActionVariableTable>;
export type ActionRunnerToken = Selectable<ActionRunnerTokenTable>;
export type ActionRunner = Selectable<ActionRunnerTable>;

declare module '../storage/schema.js' {
  interface Schema extends ActionsTables {}
}
