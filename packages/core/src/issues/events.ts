import type { Actor } from '../users/index.js';
import type { Label } from '../labels/index.js';
import type { Repository } from '../repos/index.js';
import type { User } from '../users/index.js';
import type { Issue } from './tables.js';

/** What every issue event carries: who acted, where, and the issue as it is after the change. */
export interface IssueEventBase {
  actor: Actor;
  repo: Repository;
  owner: User;
  issue: Issue;
}

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** An issue (or pull request) was opened. */
    'issue.created': IssueEventBase;
    /** Its title, body or ref changed; `previous` holds the fields before the change. */
    'issue.edited': IssueEventBase & { previous: Pick<Issue, 'name' | 'content' | 'ref'> };
    /** `commitId`: the commit that caused it (a pushed `fixes #N`, a merged pull request); absent when done by hand. */
    'issue.closed': IssueEventBase & { commitId?: string };
    'issue.reopened': IssueEventBase & { commitId?: string };
    /** Assignees were added or removed (user ids). */
    'issue.assigned': IssueEventBase & { added: number[]; removed: number[] };
    /** Its milestone changed (0: none). */
    'issue.milestoned': IssueEventBase & { previousMilestoneId: number };
    /** Labels were added or removed. */
    'issue.labeled': IssueEventBase & { added: Label[]; removed: Label[] };
    /** The issue and everything hanging off it were deleted; `issue` is the row it had. */
    'issue.deleted': IssueEventBase;
  }
}

export {};
