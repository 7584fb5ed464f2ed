/**
 * Locking an issue's conversation (`PUT/DELETE /issues/{index}/lock`): a locked issue takes comments from writers
 * only. Writers of the issue's unit lock and unlock; locking a locked issue (or unlocking an unlocked one) is a
 * conflict, as in Forgejo. The reason goes into the timeline's lock event.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { CoreContext } from '../context.js';
import { actorUser, type Actor } from '../users/index.js';
import { CommentsPort } from '../timeline/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import { ConflictError, ForbiddenError, UnauthorizedError, ValidationError } from '../errors.js';
import type { RepoAccess } from '../repos/index.js';
import { nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { IssuesService } from './service.js';
import { IssueLockStore } from './lock-store.js';
import type { Issue } from './tables.js';

export const IssueLockOptionSchema = Type.Object(
  { reason: Type.Optional(Type.String()) },
  { $id: 'IssueLockOption' },
);
export type IssueLockOption = Static<typeof IssueLockOptionSchema>;

export class IssueLockService {
  constructor(private readonly ctx: CoreContext) {}

  lock(actor: Actor, access: RepoAccess, issue: Issue, input: IssueLockOption): Promise<Issue> {
    const opts = acceptInput(IssueLockOptionSchema, input);
    // Forgejo binds the reason as required.
    const reason = opts.reason ?? '';
    if (reason.trim() === '') throw new ValidationError('reason', 'Required');
    return this.change(actor, access, issue, true, reason);
  }

  unlock(actor: Actor, access: RepoAccess, issue: Issue): Promise<Issue> {
    return this.change(actor, access, issue, false, '');
  }

  private async change(actor: Actor, access: RepoAccess, issue: Issue, locked: boolean, reason: string): Promise<Issue> {
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError('token is required');
    if (!this.ctx.service(IssuesService).mayWrite(access, issue)) throw new ForbiddenError('user should have write access to the issue to lock or unlock it');
    return this.ctx.transaction(async (tx) => {
      // The conditional update decides between concurrent requests: only one of them changes the flag.
      const updated = await tx.store(IssueLockStore).setLockedIfNot(issue.id, locked, nowUnix());
      if (!updated) throw new ConflictError(locked ? 'issue is already locked' : 'issue is not locked');
      await tx.port(CommentsPort).record({ type: locked ? COMMENT_TYPES.lock : COMMENT_TYPES.unlock, poster_id: user.id, issue_id: issue.id, content: reason });
      return updated;
    });
  }
}
