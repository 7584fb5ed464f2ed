import { EditDeadlineOptionSchema, IssueDeadlineSchema, isoTime } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** `POST /repos/{owner}/{repo}/issues/{index}/deadline`: set or remove an issue's due date. */
export function registerIssueDeadlineRoutes(_router: ApiRouter, { issue }: Groups): void {
  issue.add({
    method: 'POST',
    path: '/deadline',
    operationId: 'issueEditIssueDeadline',
    summary: 'Set an issue deadline. If set to null, the deadline is deleted. If using deadline only the date will be taken into account, and time of day ignored.',
    auth: 'token',
    body: EditDeadlineOptionSchema,
    reply: { status: 201, description: 'IssueDeadline', schema: IssueDeadlineSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, issue, body }) => {
      const updated = await host.issueDeadlines.set(actor, repo, issue, body);
      // No deadline reads as Go's zero time, as Forgejo answers.
      return { due_date: isoTime(updated.deadline_unix) };
    },
  });
}
