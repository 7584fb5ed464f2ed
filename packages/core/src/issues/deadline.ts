/**
 * An issue's due date (`POST /issues/{index}/deadline`). Forgejo keeps days: a date given with a time keeps its day
 * and ends at that day's last second; no date (or Go's zero time) removes it. Each change is one timeline event.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { CoreContext } from '../context.js';
import { actorUser, type Actor } from '../users/index.js';
import { CommentsPort } from '../timeline/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../errors.js';
import type { RepoAccess } from '../repos/index.js';
import { nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { IssuesService } from './service.js';
import { IssuesStore } from './store.js';
import type { Issue } from './tables.js';
import { deadlineCommentContent, deadlineOf } from './due-dates.js';

export const EditDeadlineOptionSchema = Type.Object(
  { due_date: Type.Optional(Type.String({ format: 'date-time' })) },
  { $id: 'EditDeadlineOption', description: 'EditDeadlineOption options for creating a deadline' },
);
export type EditDeadlineOption = Static<typeof EditDeadlineOptionSchema>;

export const IssueDeadlineSchema = Type.Object(
  { due_date: Type.String({ format: 'date-time' }) },
  { $id: 'IssueDeadline', description: 'IssueDeadline represents an issue deadline' },
);
export type ApiIssueDeadline = Static<typeof IssueDeadlineSchema>;

export class IssueDeadlineService {
  constructor(private readonly ctx: CoreContext) {}

  /**
   * Sets or removes the due date; writers of the issue's unit only (403 otherwise). Returns the issue afterwards;
   * an unchanged date records nothing.
   */
  async set(actor: Actor, access: RepoAccess, issue: Issue, input: EditDeadlineOption): Promise<Issue> {
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError('token is required');
    const opts = acceptInput(EditDeadlineOptionSchema, input);
    if (!this.ctx.service(IssuesService).mayWrite(access, issue)) throw new ForbiddenError('Not repo writer');
    const deadline = deadlineOf('due_date', opts.due_date);
    return this.ctx.transaction(async (tx) => {
      const issues = tx.store(IssuesStore);
      // Re-read inside the transaction: the comment must describe the change from what is stored now.
      const current = (await issues.byId(issue.id)) ?? issue;
      if (current.deadline_unix === deadline) return current;
      const type =
        deadline === 0 ? COMMENT_TYPES.removed_deadline : current.deadline_unix === 0 ? COMMENT_TYPES.added_deadline : COMMENT_TYPES.modified_deadline;
      await tx.port(CommentsPort).record({ type, poster_id: user.id, issue_id: issue.id, content: deadlineCommentContent(deadline, current.deadline_unix) });
      return issues.update(issue.id, { deadline_unix: deadline, updated_unix: nowUnix() });
    });
  }
}
