import type { Actor } from '../users/index.js';
import type { Repository } from '../repos/index.js';
import type { User } from '../users/index.js';

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** `follower` now follows `followee` (not emitted when the follow already existed). */
    'user.followed': { follower: User; followee: User; actor: Actor };
    /** `follower` stopped following `followee`. */
    'user.unfollowed': { follower: User; followee: User; actor: Actor };
    /** `user` starred `repo` (not emitted when the star already existed). */
    'repo.starred': { user: User; repo: Repository; actor: Actor };
    /** `user` removed their star from `repo`. */
    'repo.unstarred': { user: User; repo: Repository; actor: Actor };
    /** `blocker` blocked `blockee`. */
    'user.blocked': { blocker: User; blockee: User; actor: Actor };
    /** `blocker` unblocked `blockee`. */
    'user.unblocked': { blocker: User; blockee: User; actor: Actor };
  }
}
