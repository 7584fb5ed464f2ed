import { createHash } from 'node:crypto';
import type { Settings } from '../config/settings.js';
import { isSelf, isSiteAdmin } from '../access/actor.js';
import { isoTime, type ApiView } from '../wire.js';
import { webUrl } from '../urls.js';
import { visibilityName, type User } from './tables.js';
import type { ApiUser } from './schemas.js';

/** The no-reply address shown instead of a private email, as Forgejo does. */
export function noReplyAddress(user: User, settings: Settings): string {
  return `${user.lower_name}@noreply.${settings.server.DOMAIN}`;
}

export function avatarUrl(user: User, settings: Settings): string {
  const hash = createHash('md5').update(user.lower_email || user.lower_name).digest('hex');
  return webUrl(settings, `avatars/${hash}`);
}

/**
 * The API view of a user. The email is shown to the user, to site administrators, and to other signed-in users
 * unless the user keeps it private; admin-only fields are filled for site administrators and the user only.
 */
export function toApiUser(user: User, { viewer, settings }: ApiView): ApiUser {
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
    html_url: webUrl(settings, encodeURIComponent(user.name)),
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
    visibility: visibilityName(user),
    followers_count: user.num_followers,
    following_count: user.num_following,
    starred_repos_count: user.num_stars,
  };
}
