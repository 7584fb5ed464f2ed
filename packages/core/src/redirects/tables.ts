import type { Generated } from 'kysely';

/** An old repository name under an owner, pointing at the repository renamed or transferred away from it. */
export interface RepoRedirectTable {
  id: Generated<number>;
  owner_id: number;
  lower_name: string;
  redirect_repo_id: number;
}

/** An old account (or organization) name, pointing at the renamed account. */
export interface UserRedirectTable {
  id: Generated<number>;
  lower_name: string;
  redirect_user_id: number;
  created_unix: number;
}

/** The tables the redirects domain owns. */
export interface RedirectsTables {
  repo_redirect: RepoRedirectTable;
  user_redirect: UserRedirectTable;
}

declare module '../storage/schema.js' {
  interface Schema extends RedirectsTables {}
}
