/**
 * From what a caller (or a stored mirror) names to what git runs with: the address checked against the settings
 * now (they may have changed since it was stored, and a name may resolve elsewhere), redirects followed with the
 * same checks, and git's options; and git's failures worded as Forgejo answers them, credentials removed.
 */
import type { Actor } from '../users/index.js';
import type { RemoteGitAccess } from '../git/index.js';
import { RemoteGitError } from '../git/index.js';
import {
  checkRemoteAddress,
  followRemoteRedirects,
  gitRemoteOptions,
  redactCredentials,
  RemoteAddressError,
  type CheckedRemote,
  type RemoteAddressInput,
  type RemoteCredentials,
  type RemoteSettings,
} from './remote.js';

export interface PreparedRemote {
  remote: CheckedRemote;
  git: RemoteGitAccess;
}

/** Checks the address for `actor`, follows its redirects and derives git's options, all within `timeoutMs`. */
export async function prepareRemote(
  settings: RemoteSettings,
  actor: Actor,
  input: RemoteAddressInput,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<PreparedRemote> {
  const checked = await checkRemoteAddress(settings, actor, input);
  let remote: CheckedRemote;
  try {
    remote = await followRemoteRedirects(settings, actor, checked, { timeoutMs: options.timeoutMs, signal: options.signal });
  } catch (error) {
    if (error instanceof RemoteAddressError) throw error;
    // The probe could not reach the remote: say so as git would.
    const reason = error instanceof Error ? error.message : String(error);
    throw new RemoteGitError(`fatal: unable to access '${checked.sanitized}': ${reason}`, 'failed');
  }
  const { args, env } = gitRemoteOptions(remote, settings);
  return { remote, git: { url: remote.url, args, env, timeoutMs: options.timeoutMs, signal: options.signal } };
}

/**
 * A failed migration's or sync's error as Forgejo's `handleMigrateError` words it: refused addresses keep their
 * message; git's failures read "Authentication failed: …." or "Migration failed: …." (a mirror's sync: "Mirror sync
 * failed: …."); credentials never appear.
 */
export function describeRemoteFailure(error: unknown, credentials: RemoteCredentials | undefined, what: 'Migration' | 'Mirror sync' = 'Migration'): string {
  if (error instanceof RemoteAddressError) return error.message;
  const raw = error instanceof Error ? error.message || error.name : String(error);
  const text = redactCredentials(raw, credentials).trim().replace(/\.$/, '');
  if (/Authentication failed|Bad credentials|could not read Username|terminal prompts disabled/.test(text)) return `Authentication failed: ${text}.`;
  return `${what} failed: ${text}.`;
}
