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

/** The tables the actions domain owns. */
export interface ActionsTables {
  secret: ActionSecretTable;
  action_variable: ActionVariableTable;
}

export type ActionSecret = Selectable<ActionSecretTable>;
export type ActionVariable = Selectable<ActionVariableTable>;

declare module '../storage/schema.js' {
  interface Schema extends ActionsTables {}
}
