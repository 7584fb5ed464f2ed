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
