/**
 * Times clients send to the issue tracker: RFC 3339 as Go's `time.RFC3339` reads it, and `updated_at`, which
 * dates a change (migrations replaying history) under Forgejo's `SetIssueUpdateDate` rule.
 */
import { isSiteAdmin, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { ForbiddenError, ValidationError } from '../errors.js';
import type { RepoAccess } from '../repos/index.js';
import { nowUnix } from '../storage/index.js';
import type { Issue } from './tables.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** Unix seconds of an RFC 3339 time; empty or absent is undefined; anything else is a 422 naming `field`. */
export function rfc3339Unix(field: string, iso: string | undefined): number | undefined {
  if (iso === undefined || iso.trim() === '') return undefined;
  const ms = RFC3339.test(iso.trim()) ? Date.parse(iso.trim()) : NaN;
  if (Number.isNaN(ms)) throw new ValidationError(field, `parsing time ${JSON.stringify(iso)} as RFC 3339 failed`);
  return Math.floor(ms / 1000);
}

/**
 * The time an `updated_at` dates a change at: only repository administrators and site administrators may choose
 * it, and only between the issue's creation and now (403 otherwise, as Forgejo).
 */
export function chosenUpdateTime(actor: Actor, access: RepoAccess, issue: Pick<Issue, 'created_unix'>, iso: string | undefined): number | undefined {
  const at = rfc3339Unix('updated_at', iso);
  if (at === undefined) return undefined;
  if (access.mode < AccessMode.Admin && !isSiteAdmin(actor)) throw new ForbiddenError('user needs to have admin or owner right');
  if (at < issue.created_unix || at > nowUnix()) throw new ForbiddenError('unallowed update date');
  return at;
}
