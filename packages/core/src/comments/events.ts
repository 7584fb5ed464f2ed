import type { IssueEventBase } from '../issues/index.js';
import type { Comment } from '../timeline/index.js';

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** A plain comment was posted on `issue`. */
    'comment.created': IssueEventBase & { comment: Comment };
    /** A comment's body changed; `previousBody` is what it said before. */
    'comment.edited': IssueEventBase & { comment: Comment; previousBody: string };
    /** A comment was deleted; `comment` is the row it had. */
    'comment.deleted': IssueEventBase & { comment: Comment };
  }
}

export {};
