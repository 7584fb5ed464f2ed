import { createHash } from 'node:crypto';
import type { Settings } from '../config/settings.js';
import { isSelf, isSiteAdmin, type Actor } from '../access/actor.js';
import { VISIBILITY_NAMES, type User } from './tables.js';
import type { ApiUser } from './schemas.js';

/** RFC 3339 time of a unix timestamp; 0 ("never") is Go's zero time, as Forgejo prints it. */
export function isoTime(unix: number): string {
  if (!unix) return '0001-01-01T00:00:00Z';
  return `${new Date(unix * 1000).toISOString().slice(0, 19)}Z`;
}

/** The no-reply address shown instead of a private email, as Forgejo does. */
export function noReplyAddress(user: User, settings: Settings): string {
  return `${user.lower_name}@noreply.${settings.server.DOMAIN}`;
}

export function avatarUrl(user: User, settings: Settings): string {
  const hash = createHash('md5').update(user.lower_email || user.lower_name).digest('hex');
  return `${settings.server.ROOT_URL}avatars/${hash}`;
}

/**
 * The API view of a user for `viewer`. The email is shown to the user, to site administrators, and to others
 * unless the user keeps it private; admin-only fields are filled for site administrators and the user only.
 */
export function toApiUser(user: User, viewer: Actor, settings: Settings): ApiUser {
  const privileged = isSiteAdmin(viewer) || isSelf(viewer, user);
  const showEmail = privileged || (viewer.kind !== 'anonymous' && user.keep_email_private === 0);
  return {
    id: user.id,
    login: user.name,
    username: user.name,
    login_name: privileged ? user.login_name : '',
    source_id: privileged ? user.login_source : 0,
    full_name: user.full_name,
    email: showEmail ? user.email : noReplyAddress(user, settings),
    avatar_url: avatarUrl(user, settings),
    html_url: `${settings.server.ROOT_URL}${encodeURIComponent(user.name)}`,
    language: privileged ? user.language : '',
    is_admin: privileged ? user.is_admin === 1 : false,
    last_login: isoTime(privileged ? user.last_login_unix : 0),
    created: isoTime(user.created_unix),
    restricted: privileged ? user.is_restricted === 1 : false,
    active: privileged ? user.is_active === 1 : false,
    prohibit_login: privileged ? user.prohibit_login === 1 : false,
    location: user.location,
    pronouns: user.pronouns,
    website: user.website,
    description: user.description,
    visibility: VISIBILITY_NAMES[user.visibility] ?? 'public',
    followers_count: user.num_followers,
    following_count: user.num_following,
    starred_repos_count: user.num_stars,
  };
}
