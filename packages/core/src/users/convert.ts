import { createHash } from 'node:crypto';
import type { Settings } from '../config/index.js';
import { isSelf, isSiteAdmin } from './actor.js';
import { isoTime, type ApiView } from '../wire.js';
import { webUrl } from '../urls.js';
import { isSystemUser } from './system.js';
import { visibilityName, type EmailAddress, type User } from './tables.js';
import type { ApiEmail, ApiUser, ApiUserSettings } from './schemas.js';

/** The no-reply address shown instead of a private email, as Forgejo does. */
export function noReplyAddress(user: User, settings: Settings): string {
  return `${user.lower_name}@noreply.${settings.server.DOMAIN}`;
}

/** The web path avatars are served under (`/avatars/<hash>`), outside the API. */
export const AVATARS_PATH = 'avatars';
/** Where Forgejo's default avatar lives: what the system users (ghost, actions) show. */
export const DEFAULT_AVATAR_PATH = 'assets/img/avatar_default.png';

/**
 * The name of a user's avatar under `/avatars/`: the content hash of an uploaded image, else the MD5 of the
 * lower-cased email (the name if there is none), as Forgejo names its generated avatars; the server draws the
 * identicon from that hash.
 */
export function avatarHash(user: Pick<User, 'use_custom_avatar' | 'avatar' | 'lower_email' | 'lower_name'>): string {
  if (user.use_custom_avatar === 1 && user.avatar) return user.avatar;
  return createHash('md5').update(user.lower_email.trim() || user.lower_name).digest('hex');
}

export function avatarUrl(user: User, settings: Settings): string {
  if (isSystemUser(user)) return webUrl(settings, DEFAULT_AVATAR_PATH);
  return webUrl(settings, `${AVATARS_PATH}/${avatarHash(user)}`);
}

/** Go's time of a unix timestamp (0 is 1970, not the zero time): what Forgejo prints for `AsTime()`. */
function unixTime(unix: number): string {
  return `${new Date(unix * 1000).toISOString().slice(0, 19)}Z`;
}

/**
 * The API view of a user, as Forgejo's `toUser` shapes it. Signed-in viewers see the email unless the user keeps
 * it private (anonymous ones see the no-reply address), and the pronouns unless kept private; the user and site
 * administrators see everything, and only they see the sign-in and admin fields.
 */
export function toApiUser(user: User, { viewer, settings }: ApiView): ApiUser {
  const privileged = isSiteAdmin(viewer) || isSelf(viewer, user);
  const signed = viewer.kind !== 'anonymous';
  const showEmail = privileged || (signed && user.keep_email_private === 0);
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
    last_login: privileged ? unixTime(user.last_login_unix) : isoTime(0),
    created: unixTime(user.created_unix),
    restricted: user.is_restricted === 1,
    active: privileged ? user.is_active === 1 : false,
    prohibit_login: privileged ? user.prohibit_login === 1 : false,
    location: user.location,
    pronouns: user.keep_pronouns_private === 1 && !signed ? '' : user.pronouns,
    website: user.website,
    description: user.description,
    visibility: visibilityName(user),
    followers_count: user.num_followers,
    following_count: user.num_following,
    starred_repos_count: user.num_stars,
  };
}

/**
 * The API views of the users of one response: each user converted once, and that one object shown wherever the user
 * appears (a response is serialized once, so sharing is safe).
 */
export class ApiUserViews {
  private readonly users = new Map<number, ApiUser>();
  private readonly texts = new Map<number, string>();

  constructor(private readonly view: ApiView) {}

  of(user: User): ApiUser {
    let api = this.users.get(user.id);
    if (!api) this.users.set(user.id, (api = toApiUser(user, this.view)));
    return api;
  }

  /** The JSON text of `of(user)`, made once per response: what a kept object showing the user depends on. */
  jsonOf(user: User): string {
    let text = this.texts.get(user.id);
    if (text === undefined) this.texts.set(user.id, (text = JSON.stringify(this.of(user))));
    return text;
  }
}

/** The user's own settings (`GET /user/settings`). */
export function toApiUserSettings(user: User): ApiUserSettings {
  return {
    full_name: user.full_name,
    website: user.website,
    description: user.description,
    location: user.location,
    pronouns: user.pronouns,
    language: user.language,
    theme: user.theme,
    diff_view_style: user.diff_view_style,
    enable_repo_unit_hints: user.enable_repo_unit_hints === 1,
    hide_email: user.keep_email_private === 1,
    hide_pronouns: user.keep_pronouns_private === 1,
    hide_activity: user.keep_activity_private === 1,
  };
}

/**
 * An email address. Forgejo fills `user_id` and `username` only where addresses of several accounts are listed
 * (the admin routes), so they are given only when `owner` is.
 */
export function toApiEmail(email: EmailAddress, owner?: Pick<User, 'id' | 'name'>): ApiEmail {
  return {
    email: email.email,
    verified: email.is_activated === 1,
    primary: email.is_primary === 1,
    user_id: owner ? owner.id : 0,
    username: owner ? owner.name : '',
  };
}
