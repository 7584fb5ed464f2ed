import { ValidationError } from '../errors.js';

/**
 * Usernames, as Forgejo accepts them: letters, digits, '-', '_', '.'; starting and ending with a letter or digit;
 * no two punctuation characters in a row; at most 40 characters; not a reserved word or pattern (they would
 * shadow a top-level web route).
 */
const USERNAME = /^[A-Za-z0-9](?:[A-Za-z0-9]|[-_.](?=[A-Za-z0-9]))*$/;
export const USERNAME_MAX_LENGTH = 40;

const RESERVED_USERNAMES = new Set([
  '.', '..', '.well-known', 'admin', 'api', 'assets', 'attachments', 'avatar', 'avatars', 'captcha', 'commits',
  'debug', 'devtest', 'error', 'explore', 'favicon.ico', 'ghost', 'issues', 'login', 'manifest.json', 'metrics',
  'milestones', 'new', 'notifications', 'org', 'pulls', 'raw', 'repo', 'repo-avatars', 'robots.txt', 'search',
  'serviceworker.js', 'ssh_info', 'swagger.v1.json', 'user', 'v2', 'gitea-actions', 'forgejo-actions',
]);
const RESERVED_USERNAME_SUFFIXES = ['.keys', '.gpg', '.rss', '.atom', '.png'];

/** Throws a ValidationError on `field` when `name` is not a usable username. */
export function assertValidUsername(name: unknown, field = 'username'): asserts name is string {
  if (typeof name !== 'string' || name === '') throw new ValidationError(field, 'Required');
  if (name.length > USERNAME_MAX_LENGTH) throw new ValidationError(field, `MaxSize(${USERNAME_MAX_LENGTH})`);
  const lower = name.toLowerCase();
  if (RESERVED_USERNAMES.has(lower)) throw new ValidationError(field, `name is reserved [name: ${name}]`);
  if (RESERVED_USERNAME_SUFFIXES.some((s) => lower.endsWith(s))) {
    throw new ValidationError(field, `name pattern is not allowed [pattern: *${lower.slice(lower.lastIndexOf('.'))}]`);
  }
  if (!USERNAME.test(name)) throw new ValidationError(field, 'invalid username');
}

/** A part of an address: no spaces, '@', brackets, quotes or separators. */
const EMAIL_PART = /^[^\s@<>()[\]\\,;:"]+$/;
const EMAIL_HOST = /^[A-Za-z0-9-]+$/;

/**
 * A plain email check: one '@', no spaces or angle brackets; the domain has a dot with something on both sides, or
 * is a bare host name. In parts, since one pattern (`X+@X+\.X+`) tried every dot of a long domain.
 */
function isPlainEmail(email: string): boolean {
  const at = email.indexOf('@');
  if (at < 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!EMAIL_PART.test(local) || !EMAIL_PART.test(domain)) return false;
  return domain.slice(1, -1).includes('.') || EMAIL_HOST.test(domain);
}
export const EMAIL_MAX_LENGTH = 254;

export function assertValidEmail(email: unknown, field = 'email'): asserts email is string {
  if (typeof email !== 'string' || email === '') throw new ValidationError(field, 'Required');
  if (email.length > EMAIL_MAX_LENGTH) throw new ValidationError(field, `MaxSize(${EMAIL_MAX_LENGTH})`);
  if (!isPlainEmail(email)) throw new ValidationError(field, 'is not a valid email address');
}

/** Forgejo's `ValidSiteUrl` binding (a profile's `website`): empty, or an absolute http(s) URL with a host. */
export function assertSiteUrl(value: string | undefined): void {
  if (!value) return;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.host) throw new ValidationError('website', 'ValidSiteUrl');
}
