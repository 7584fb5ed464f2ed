import { toApiIssues } from '../issues/index.js';
import type { ApiIssue } from '../issues/index.js';
import { repoWebPath, toApiRepository } from '../repos/index.js';
import { apiUrl, webUrl } from '../urls.js';
import type { ChangedFileEntry } from '../git/index.js';
import type { RepoAccess, Repository } from '../repos/index.js';
import type { User } from '../users/index.js';
import { toApiUser } from '../users/index.js';
import { toApiTeam } from '../orgs/index.js';
import { isoTime, type ApiView } from '../wire.js';
import { sharedInJson } from '../shared-json.js';
import type { ApiChangedFile, ApiPullRequest } from './schemas.js';
import type { PullDetails } from './service.js';
import { PULL_STATUS } from './tables.js';

type ApiRepository = ReturnType<typeof toApiRepository>;

/** Statuses in which a pull request cannot be merged (Forgejo's `Mergeable`). */
const UNMERGEABLE = new Set<number>([PULL_STATUS.checking, PULL_STATUS.conflict, PULL_STATUS.error]);

/**
 * The API views of a page of pull requests; users, labels and milestones are converted once per page, and so is
 * each repository (a page's base and head repositories are mostly one or two, each shown twice per item).
 */
export function toApiPullRequests(page: readonly PullDetails[], view: ApiView): ApiPullRequest[] {
  const issues = toApiIssues(page, view);
  const repos = new Map<RepoAccess, ApiRepository>();
  const repoView = (access: RepoAccess): ApiRepository => {
    let converted = repos.get(access);
    if (!converted) {
      // Named by every item (base and head): serialized once per answer.
      converted = sharedInJson(toApiRepository(access, view));
      repos.set(access, converted);
    }
    return converted;
  };
  return page.map((details, i) => pullView(details, issues[i]!, view, repoView));
}

/** The API view of a pull request, as Forgejo's `ToAPIPullRequest` shapes it. */
export function toApiPullRequest(details: PullDetails, view: ApiView): ApiPullRequest {
  return toApiPullRequests([details], view)[0]!;
}

function pullView(details: PullDetails, issue: ApiIssue, view: ApiView, repoView: (access: RepoAccess) => ApiRepository): ApiPullRequest {
  const { pull, base, head } = details;
  const path = repoWebPath(base.owner, base.repo);
  const html = webUrl(view.settings, `${path}/pulls/${pull.index}`);
  const headRef = `refs/pull/${pull.index}/head`;
  const crossRepo = head !== null && head.repo.id !== base.repo.id;
  return {
    id: pull.id,
    url: html,
    number: pull.index,
    user: issue.user,
    title: issue.title,
    body: issue.body,
    labels: issue.labels,
    milestone: issue.milestone,
    assignee: issue.assignee,
    assignees: issue.assignees,
    requested_reviewers: details.reviewers.map((u) => toApiUser(u, view)),
    requested_reviewers_teams: details.reviewerTeams.map((team) => toApiTeam(team, view)),
    state: issue.state,
    draft: details.draft,
    is_locked: issue.is_locked,
    comments: issue.comments,
    review_comments: details.reviewComments,
    additions: pull.additions,
    deletions: pull.deletions,
    changed_files: pull.changed_files,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    mergeable: !UNMERGEABLE.has(pull.status) && !details.draft,
    merged: pull.has_merged === 1,
    merged_at: pull.has_merged && pull.merged_unix ? isoTime(pull.merged_unix) : null,
    merge_commit_sha: pull.has_merged && pull.merged_commit_id ? pull.merged_commit_id : null,
    merged_by: details.merger ? toApiUser(details.merger, view) : null,
    allow_maintainer_edit: pull.allow_maintainer_edit === 1,
    base: {
      label: pull.base_branch,
      ref: pull.base_branch,
      sha: details.baseCommit ?? '',
      repo_id: base.repo.id,
      repo: repoView(base),
    },
    head: head
      ? {
          label: crossRepo ? `${head.owner.name}:${pull.head_branch}` : pull.head_branch,
          ref: details.headBranchExists ? pull.head_branch : headRef,
          // Forgejo's: the head branch's tip while it exists (closed and merged pull requests too), else the head ref's.
          sha: details.headBranchCommit ?? pull.head_commit_id,
          repo_id: head.repo.id,
          repo: repoView(head),
        }
      : { label: pull.head_branch, ref: headRef, sha: pull.head_commit_id, repo_id: -1, repo: null },
    merge_base: pull.merge_base,
    due_date: issue.due_date,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    pin_order: issue.pin_order,
    flow: pull.flow,
  };
}

/** A file a pull request changes, as Forgejo's `ToChangedFile` shows it; links point at the head commit. */
export function toApiChangedFile(file: ChangedFileEntry, owner: User, repo: Repository, head: string, view: ApiView): ApiChangedFile {
  const path = repoWebPath(owner, repo);
  const name = file.path.split('/').map(encodeURIComponent).join('/');
  return {
    filename: file.path,
    ...(file.previousPath !== undefined ? { previous_filename: file.previousPath } : {}),
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    changes: file.additions + file.deletions,
    html_url: webUrl(view.settings, `${path}/src/commit/${head}/${name}`),
    contents_url: apiUrl(view.settings, `/repos/${path}/contents/${name}?ref=${head}`),
    raw_url: webUrl(view.settings, `${path}/raw/commit/${head}/${name}`),
  };
}
