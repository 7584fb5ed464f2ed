/** Checks shared by review, line comment and review request calls: ids, the signed-in writer, who sees a review. */
import { actorUser, isSiteAdmin, type Actor } from '../users/index.js';
import { LockedError, UnauthorizedError, ValidationError } from '../errors.js';
import type { RepoAccess } from '../repos/index.js';
import type { User } from '../users/index.js';
import { REVIEW_TYPES, type Review } from './tables.js';

const ID_PATTERN = /^\d{1,16}$/;

export function parseId(id: string | number): number {
  const number = typeof id === 'number' ? id : ID_PATTERN.test(id) ? Number(id) : NaN;
  return Number.isSafeInteger(number) && number > 0 ? number : 0;
}

/** Forgejo's 422 with a plain message. */
export function unprocessable(message: string): ValidationError {
  return new ValidationError('', message);
}

/** The signed-in user acting on a repository that is not archived. */
export function signedIn(actor: Actor, access: RepoAccess): User {
  const user = actorUser(actor);
  if (!user) throw new UnauthorizedError('token is required');
  if (access.repo.is_archived) throw new LockedError();
  return user;
}

/** A pending review is its author's alone (and site administrators'); other reviews are seen by all readers. */
export function maySee(actor: Actor, review: Review): boolean {
  if (review.type !== REVIEW_TYPES.pending) return true;
  const user = actorUser(actor);
  return user !== null && (user.id === review.reviewer_id || isSiteAdmin(actor));
}
