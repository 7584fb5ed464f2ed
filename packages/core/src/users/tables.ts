import type { Generated, Selectable } from 'kysely';

/** 0 individual, 1 organization: organizations share this table, as in Forgejo. */
export const UserType = { Individual: 0, Organization: 1 } as const;

/** Profile visibility names, in the order Forgejo numbers them (public 0, limited 1, private 2). */
export const VISIBILITY_NAMES = ['public', 'limited', 'private'] as const;
export type VisibilityName = (typeof VISIBILITY_NAMES)[number];
/** Profile visibility, as stored. */
export const Visibility = { Public: 0, Limited: 1, Private: 2 } as const satisfies Record<Capitalize<VisibilityName>, number>;

export interface UserTable {
  id: Generated<number>;
  /** Lower-cased name: the unique key, so names are case-insensitive. */
  lower_name: string;
  name: string;
  full_name: Generated<string>;
  email: string;
  lower_email: string;
  keep_email_private: Generated<number>;
  /** `scrypt$N$r$p$salt$hash`; empty for accounts that cannot sign in with a password. */
  passwd: Generated<string>;
  must_change_password: Generated<number>;
  login_source: Generated<number>;
  login_name: Generated<string>;
  type: Generated<number>;
  visibility: Generated<number>;
  is_admin: Generated<number>;
  is_active: Generated<number>;
  is_restricted: Generated<number>;
  prohibit_login: Generated<number>;
  description: Generated<string>;
  website: Generated<string>;
  location: Generated<string>;
  pronouns: Generated<string>;
  language: Generated<string>;
  /** Counters kept true inside the transaction that changes what they count. */
  num_repos: Generated<number>;
  num_followers: Generated<number>;
  num_following: Generated<number>;
  num_stars: Generated<number>;
  created_unix: number;
  updated_unix: number;
  last_login_unix: Generated<number>;
  // Settings (migration 0011).
  theme: Generated<string>;
  diff_view_style: Generated<string>;
  keep_activity_private: Generated<number>;
  keep_pronouns_private: Generated<number>;
  enable_repo_unit_hints: Generated<number>;
  /** Content hash of an uploaded avatar (a file under the avatar folder); empty for the generated identicon. */
  avatar: Generated<string>;
  use_custom_avatar: Generated<number>;
  /** Organizations: may repository administrators change which teams have access (migration 0017)? */
  repo_admin_change_team_access: Generated<number>;
}

/** Every address of an account, the primary one included (Forgejo's `email_address`). */
export interface EmailAddressTable {
  id: Generated<number>;
  uid: number;
  email: string;
  /** Unique: an address belongs to one account. */
  lower_email: string;
  is_activated: Generated<number>;
  is_primary: Generated<number>;
}

/** `user_id` blocked `block_id` (Forgejo's `forgejo_blocked_user`). */
export interface UserBlockingTable {
  id: Generated<number>;
  user_id: number;
  block_id: number;
  created_unix: number;
}

/** The tables the users domain owns. */
export interface UsersTables {
  user: UserTable;
  email_address: EmailAddressTable;
  user_blocking: UserBlockingTable;
}

export type User = Selectable<UserTable>;
export type EmailAddress = Selectable<EmailAddressTable>;
export type UserBlocking = Selectable<UserBlockingTable>;

/** May this account sign in at all (any method)? Inactive and login-prohibited accounts may not. */
export function canSignIn(user: Pick<User, 'is_active' | 'prohibit_login'>): boolean {
  return user.is_active === 1 && user.prohibit_login === 0;
}

export function isOrganization(user: Pick<User, 'type'>): boolean {
  return user.type === UserType.Organization;
}

/** The API name of a stored visibility. */
export function visibilityName(user: Pick<User, 'visibility'>): VisibilityName {
  return VISIBILITY_NAMES[user.visibility] ?? 'public';
}

/** The stored number of a visibility name. */
export function visibilityValue(name: VisibilityName): number {
  return VISIBILITY_NAMES.indexOf(name);
}

declare module '../storage/schema.js' {
  interface Schema extends UsersTables {}
}
