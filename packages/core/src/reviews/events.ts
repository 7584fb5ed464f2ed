import type { PullEventBase } from '../pulls/index.js';
import type { Comment } from '../timeline/index.js';
import type { Team } from '../orgs/index.js';
import type { User } from '../users/index.js';
import type { Review } from './tables.js';

declare module '../events/bus.js' {
  interface DomainEventMap {
    /**
     * A review was submitted (approve, request changes, comment; `review.type`): `comment` is its timeline entry,
     * `codeComments` its line comments.
     */
    'pull.reviewed': PullEventBase & { review: Review; comment: Comment; codeComments: Comment[] };
    /**
     * A review was asked of a user or a team (`removed`: the request was withdrawn); `comment` is the timeline
     * entry. A team's request names the team and no user.
     */
    'pull.review_requested': PullEventBase & { requestedReviewer: User | null; requestedTeam: Team | null; removed: boolean; comment: Comment };
    /** An approval or rejection was dismissed; `comment` holds the message. */
    'pull.review_dismissed': PullEventBase & { review: Review; comment: Comment };
    /** A line comment was added to a submitted review (a reply). */
    'pull.review_comment_created': PullEventBase & { review: Review; comment: Comment };
  }
}

export {};
