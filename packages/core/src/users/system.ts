import { UserType, Visibility, type User } from './tables.js';

/** Accounts that exist in no table, as Forgejo has them: who a deleted account's traces belong to, and Actions. */
export const GHOST_USER_ID = -1;
export const ACTIONS_USER_ID = -2;

const BLANK: User = {
  id: 0,
  lower_name: '',
  name: '',
  full_name: '',
  email: '',
  lower_email: '',
  keep_email_private: 0,
  passwd: '',
  must_change_password: 0,
  login_source: 0,
  login_name: '',
  type: UserType.Individual,
  visibility: Visibility.Public,
  is_admin: 0,
  is_active: 0,
  is_restricted: 0,
  prohibit_login: 0,
  description: '',
  website: '',
  location: '',
  pronouns: '',
  language: '',
  num_repos: 0,
  num_followers: 0,
  num_following: 0,
  num_stars: 0,
  created_unix: 0,
  updated_unix: 0,
  last_login_unix: 0,
  theme: '',
  diff_view_style: '',
  keep_activity_private: 0,
  keep_pronouns_private: 0,
  enable_repo_unit_hints: 1,
  avatar: '',
  use_custom_avatar: 0,
  repo_admin_change_team_access: 0,
};

/** The stand-in for a deleted account. */
export const GHOST_USER: Readonly<User> = Object.freeze({ ...BLANK, id: GHOST_USER_ID, name: 'Ghost', lower_name: 'ghost' });

/** The account Forgejo Actions act as. */
export const ACTIONS_USER: Readonly<User> = Object.freeze({
  ...BLANK,
  id: ACTIONS_USER_ID,
  name: 'forgejo-actions',
  lower_name: 'forgejo-actions',
  full_name: 'Forgejo Actions',
  email: 'noreply@forgejo.org',
  lower_email: 'noreply@forgejo.org',
  keep_email_private: 1,
  login_name: 'forgejo-actions',
  is_active: 1,
});

/** The system account with this id, if it is one. */
export function systemUserById(id: number): User | undefined {
  if (id === GHOST_USER_ID) return GHOST_USER;
  if (id === ACTIONS_USER_ID) return ACTIONS_USER;
  return undefined;
}

export function isSystemUser(user: Pick<User, 'id'>): boolean {
  return user.id < 0;
}
