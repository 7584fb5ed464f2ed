import type { Generated, Selectable } from 'kysely';

/** An account's membership of an organization; `is_public` shows it on the organization's public member list. */
export interface OrgUserTable {
  id: Generated<number>;
  uid: number;
  org_id: number;
  is_public: Generated<number>;
}

export interface TeamTable {
  id: Generated<number>;
  org_id: number;
  lower_name: string;
  name: string;
  description: Generated<string>;
  /** AccessMode: 0 none … 4 owner (only the Owners team). */
  authorize: Generated<number>;
  /** JSON object: unit name (`repo.code`, …) → access mode. */
  units: Generated<string>;
  includes_all_repositories: Generated<number>;
  can_create_org_repo: Generated<number>;
  created_unix: number;
  updated_unix: number;
}

export interface TeamUserTable {
  id: Generated<number>;
  org_id: number;
  team_id: number;
  uid: number;
}

export interface TeamRepoTable {
  id: Generated<number>;
  org_id: number;
  team_id: number;
  repo_id: number;
}

/** The tables the organizations domain owns. */
export interface OrgsTables {
  org_user: OrgUserTable;
  team: TeamTable;
  team_user: TeamUserTable;
  team_repo: TeamRepoTable;
}

export type OrgUser = Selectable<OrgUserTable>;
export type Team = Selectable<TeamTable>;

/** The name of the team every organization has, whose members own it. */
export const OWNER_TEAM_NAME = 'Owners';

declare module '../storage/schema.js' {
  interface Schema extends OrgsTables {}
}
