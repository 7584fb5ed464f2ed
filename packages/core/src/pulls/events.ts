import type { IssueEventBase } from '../issues/index.js';
import type { PullRequest } from './tables.js';

/** What every pull request event carries: the issue side (`IssueEventBase`) and the git side. */
export interface PullEventBase extends IssueEventBase {
  pull: PullRequest;
}

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** A pull request was opened (`issue.created` fires too, for what treats it as an issue). */
    'pull.opened': PullEventBase;
    /** Its head moved (a push to the head branch, or an update from the base): `before` and `after` commits. */
    'pull.synchronized': PullEventBase & { before: string; after: string };
    /** Its base branch changed (`PATCH` with `base`). */
    'pull.retargeted': PullEventBase & { previousBase: string };
    /** It was merged (`pull.merger_id`, `pull.merged_commit_id`); the issue side is closed too. */
    'pull.merged': PullEventBase;
  }
}
