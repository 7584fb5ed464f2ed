import type { Settings } from './config/settings.js';

/** Where API v1 lives under ROOT_URL. The one place that knows it. */
export const API_PREFIX = '/api/v1';

/** Absolute URL of an API path (`/repos/a/b` → `https://host/api/v1/repos/a/b`). */
export function apiUrl(settings: Settings, path: string): string {
  return `${settings.server.ROOT_URL}${API_PREFIX.slice(1)}${path}`;
}

/** The documentation link every error body carries, as Forgejo sends it. */
export function apiDocsUrl(settings: Settings): string {
  return `${settings.server.ROOT_URL}api/swagger`;
}

/** Absolute URL of a web path (`alice/demo` → `https://host/alice/demo`). */
export function webUrl(settings: Settings, path: string): string {
  return `${settings.server.ROOT_URL}${path}`;
}

/** `git@host:owner/repo.git`, or the `ssh://` form when SSH listens on a non-standard port. */
export function sshCloneUrl(settings: Settings, path: string): string {
  const { SSH_DOMAIN, SSH_PORT } = settings.server;
  return SSH_PORT === 22 ? `git@${SSH_DOMAIN}:${path}.git` : `ssh://git@${SSH_DOMAIN}:${SSH_PORT}/${path}.git`;
}

function percentEncode(s: string, keep: RegExp, spaceAsPlus: boolean): string {
  let out = '';
  for (const byte of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(byte);
    if (byte < 0x80 && keep.test(c)) out += c;
    else if (spaceAsPlus && c === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Go's `url.QueryEscape`. */
export function queryEscape(s: string): string {
  return percentEncode(s, /[A-Za-z0-9\-_.~]/, true);
}

/** Go's `url.PathEscape` (one path segment: `/`, `;`, `,`, `?` are escaped). */
export function pathEscape(s: string): string {
  return percentEncode(s, /[A-Za-z0-9\-_.~$&+:=@]/, false);
}

/** Forgejo's `util.PathEscapeSegments`: each segment escaped, the slashes kept. */
export function pathEscapeSegments(s: string): string {
  return s.split('/').map(pathEscape).join('/');
}

/**
 * An absolute http or https URL, as Forgejo's `validation.IsValidURL` and `ValidUrl` binding accept (WHATWG parsing
 * gives every http(s) URL a host, so none is without one).
 */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
