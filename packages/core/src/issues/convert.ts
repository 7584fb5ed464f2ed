import { toApiAttachment } from '../attachments/index.js';
import { toApiLabel } from '../labels/index.js';
import { toApiMilestone } from '../milestones/index.js';
import { repoWebPath } from '../repos/index.js';
import { apiUrl, webUrl } from '../urls.js';
import { ApiUserViews } from '../users/index.js';
import { isoTime, type ApiView } from '../wire.js';
import type { ApiIssue } from './schemas.js';
import type { IssueDetails } from './service.js';
import type { ApiLabel } from '../labels/index.js';
import type { Label } from '../labels/index.js';
import type { ApiMilestone } from '../milestones/index.js';
import type { Milestone } from '../milestones/index.js';
import type { ApiUser } from '../users/index.js';
import type { User } from '../users/index.js';

/**
 * Views a page of issues shares: the same poster, assignee, label or milestone is converted once per page and
 * the one object shown wherever it appears (each response is serialized once, so sharing is safe).
 */
class SharedViews {
  private readonly users: ApiUserViews;
  private readonly labels = new Map<string, ApiLabel>();
  private readonly milestones = new Map<number, ApiMilestone>();

  constructor(private readonly view: ApiView) {
    this.users = new ApiUserViews(view);
  }

  user(user: User): ApiUser {
    return this.users.of(user);
  }

  label(label: Label, path: string): ApiLabel {
    const key = `${label.id}:${path}`;
    let api = this.labels.get(key);
    if (!api) this.labels.set(key, (api = toApiLabel(label, path, this.view.settings)));
    return api;
  }

  milestone(milestone: Milestone): ApiMilestone {
    let api = this.milestones.get(milestone.id);
    if (!api) this.milestones.set(milestone.id, (api = toApiMilestone(milestone)));
    return api;
  }
}

/** The API views of a page of issues (see `SharedViews`). */
export function toApiIssues(page: readonly IssueDetails[], view: ApiView): ApiIssue[] {
  const shared = new SharedViews(view);
  return page.map((details) => toApiIssue(details, view, shared));
}

/** The API view of an issue (or of a pull request seen as an issue), as Forgejo's `ToAPIIssue` shapes it. */
export function toApiIssue(details: IssueDetails, view: ApiView, shared = new SharedViews(view)): ApiIssue {
  const { issue, repo, owner, poster, assignees, labels, milestone } = details;
  const path = repoWebPath(owner, repo);
  const users = assignees.map((a) => shared.user(a));
  const kind = issue.is_pull ? 'pulls' : 'issues';
  return {
    id: issue.id,
    url: apiUrl(view.settings, `/repos/${path}/issues/${issue.index}`),
    html_url: webUrl(view.settings, `${path}/${kind}/${issue.index}`),
    number: issue.index,
    user: shared.user(poster),
    original_author: issue.original_author,
    original_author_id: issue.original_author_id,
    title: issue.name,
    body: issue.content,
    ref: issue.ref,
    assets: details.attachments.map((attachment) => toApiAttachment(attachment, view)),
    labels: labels.map((label) => shared.label(label, path)),
    milestone: milestone ? shared.milestone(milestone) : null,
    assignee: users[0] ?? null,
    assignees: users.length > 0 ? users : null,
    state: issue.is_closed ? 'closed' : 'open',
    is_locked: issue.is_locked === 1,
    comments: issue.num_comments,
    created_at: isoTime(issue.created_unix),
    updated_at: isoTime(issue.updated_unix),
    closed_at: issue.is_closed && issue.closed_unix ? isoTime(issue.closed_unix) : null,
    due_date: issue.deadline_unix ? isoTime(issue.deadline_unix) : null,
    // The pull request's own state (merged, draft) comes with pull requests.
    pull_request: issue.is_pull
      ? { merged: false, merged_at: null, draft: false, html_url: webUrl(view.settings, `${path}/pulls/${issue.index}`) }
      : null,
    repository: { id: repo.id, name: repo.name, owner: owner.name, full_name: `${owner.name}/${repo.name}` },
    pin_order: issue.pin_order,
    time_estimate: 0,
  };
}
