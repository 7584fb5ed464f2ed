/**
 * Forgejo's pull request webhook payload (`PullRequestPayload` in modules/structs/hook.go), built inside the
 * event's transaction. The pull request is shown as to no one in particular: repository permissions all off.
 */
import type { Settings } from '../config/index.js';
import { ANONYMOUS, actorUser, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import type { PullDetails } from '../pulls/index.js';
import { toApiPullRequest } from '../pulls/index.js';
import { toApiUser } from '../users/index.js';
import type { User } from '../users/index.js';
import type { HookPayload } from './formats/types.js';
import { apiRepo } from './payloads.js';
import type { IssueChanges, IssueHookAction } from './issue-payloads.js';
import { changesOf } from './issue-payloads.js';

/** Forgejo's actions on pull requests, beyond those an issue has. */
export type PullHookAction = IssueHookAction | 'synchronized' | 'reviewed' | 'review_requested' | 'review_request_removed';

/** Changes of a pull request: an issue's, and the base branch it moved from. */
export interface PullChanges extends IssueChanges {
  base?: string;
}

/** `PullRequestPayload`: a pull request opened, edited, closed or merged, synchronized, labelled, assigned… */
export function pullPayload(
  settings: Settings,
  action: PullHookAction,
  details: PullDetails,
  actor: Actor,
  options: { changes?: PullChanges; requestedReviewer?: User; review?: { type: string; content: string }; commitId?: string } = {},
): HookPayload {
  const view = { viewer: ANONYMOUS, settings };
  const unseen = { ...details, base: { ...details.base, mode: AccessMode.None, units: undefined }, head: details.head && { ...details.head, mode: AccessMode.None, units: undefined } };
  const changes = options.changes ? changesOf(options.changes, details, settings) : undefined;
  if (changes && options.changes?.base !== undefined) changes.ref = { from: options.changes.base };
  return {
    action,
    number: details.issue.index,
    ...(changes ? { changes } : {}),
    pull_request: toApiPullRequest(unseen, view),
    requested_reviewer: options.requestedReviewer ? toApiUser(options.requestedReviewer, view) : null,
    repository: apiRepo(details.repo, details.owner, settings),
    sender: toApiUser(actorUser(actor) ?? details.owner, view),
    // The commit that closed or reopened it (a merge of another pull request that references it); '' by hand.
    commit_id: options.commitId ?? '',
    review: options.review ?? null,
  };
}
