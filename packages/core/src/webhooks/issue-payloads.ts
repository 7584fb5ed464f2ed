/**
 * Forgejo's issue webhook payloads (`IssuePayload`, `IssueCommentPayload` in modules/structs/hook.go), built
 * inside the event's transaction from the issue's API view as an anonymous viewer would see it.
 */
import type { Settings } from '../config/index.js';
import { ANONYMOUS, SYSTEM, actorUser, type Actor } from '../users/index.js';
import { toApiComment } from '../comments/index.js';
import type { Comment } from '../timeline/index.js';
import { toApiIssue } from '../issues/index.js';
import type { IssueDetails } from '../issues/index.js';
import { toApiLabel } from '../labels/index.js';
import type { Label } from '../labels/index.js';
import { repoWebPath } from '../repos/index.js';
import { toApiUser } from '../users/index.js';
import type { User } from '../users/index.js';
import type { HookPayload } from './formats/types.js';
import { apiRepo } from './payloads.js';

/** Forgejo's `HookIssueAction` values RepoHost sends. */
export type IssueHookAction =
  | 'opened'
  | 'closed'
  | 'reopened'
  | 'edited'
  | 'assigned'
  | 'unassigned'
  | 'label_updated'
  | 'label_cleared'
  | 'milestoned'
  | 'demilestoned';

/** What changed, for `edited` and label updates (`ChangesPayload`). */
export interface IssueChanges {
  title?: { from: string };
  body?: { from: string };
  ref?: { from: string };
  addedLabels?: readonly Label[];
  removedLabels?: readonly Label[];
}

function sender(actor: Actor, fallback: User, settings: Settings) {
  return toApiUser(actorUser(actor) ?? fallback, { viewer: ANONYMOUS, settings });
}

export function changesOf(changes: IssueChanges | undefined, details: IssueDetails, settings: Settings): Record<string, unknown> | undefined {
  if (!changes) return undefined;
  const path = repoWebPath(details.owner, details.repo);
  const out: Record<string, unknown> = {};
  if (changes.title) out.title = changes.title;
  if (changes.body) out.body = changes.body;
  if (changes.ref) out.ref = changes.ref;
  if (changes.addedLabels) out.added_labels = changes.addedLabels.map((l) => toApiLabel(l, path, settings));
  if (changes.removedLabels) out.removed_labels = changes.removedLabels.map((l) => toApiLabel(l, path, settings));
  return out;
}

/**
 * `IssuePayload`: an issue opened, edited, closed, reopened, (un)assigned, labelled or milestoned; `commitId` is the
 * commit that closed or reopened it ('' when none did).
 */
export function issuePayload(settings: Settings, action: IssueHookAction, details: IssueDetails, actor: Actor, changes?: IssueChanges, commitId = ''): HookPayload {
  const changed = changesOf(changes, details, settings);
  return {
    action,
    number: details.issue.index,
    ...(changed ? { changes: changed } : {}),
    issue: toApiIssue(details, { viewer: ANONYMOUS, settings }),
    repository: apiRepo(details.repo, details.owner, settings),
    sender: sender(actor, details.owner, settings),
    commit_id: commitId,
  };
}

/** `IssueCommentPayload`: a comment created, edited (with the body it had) or deleted. */
export function issueCommentPayload(
  settings: Settings,
  action: 'created' | 'edited' | 'deleted',
  details: IssueDetails,
  comment: Comment,
  poster: User,
  actor: Actor,
  previousBody?: string,
): HookPayload {
  const view = { viewer: SYSTEM, settings };
  return {
    action,
    issue: toApiIssue(details, { viewer: ANONYMOUS, settings }),
    comment: toApiComment(comment, { poster, issue: details.issue, repoPath: repoWebPath(details.owner, details.repo) }, view),
    ...(previousBody !== undefined ? { changes: { body: { from: previousBody } } } : {}),
    repository: apiRepo(details.repo, details.owner, settings),
    sender: sender(actor, details.owner, settings),
    is_pull: details.issue.is_pull === 1,
  };
}
