import { NotFoundError, toApiIssues, toApiPullRequest, toApiTimelineComment, type ApiTimelineComment, type Issue, type RepoAccess } from '@repohost/core';
import { html, trustedHtml, type HtmlValue, type SafeHtml } from './html.js';
import { page, treeLink } from './layout.js';
import { pageNumber, requireUnit, type Viewer } from './context.js';
import { diffBox, diffOrNothing, orNothing, pager, repoApi, repoHeader, repoLink } from './repo.js';

/** Issues and pull requests: the lists (open, closed, all) and one with its comments, bodies rendered as the API's. */

const PAGE_SIZE = 30;
const STATES = ['open', 'closed', 'all'] as const;
type State = (typeof STATES)[number];

function stateOf(query: URLSearchParams): State {
  const asked = query.get('state');
  return STATES.find((s) => s === asked) ?? 'open';
}

async function rendered(viewer: Viewer, access: RepoAccess, text: string): Promise<SafeHtml> {
  const out = await viewer.host.markup.renderOrEscape(viewer.actor, { text, mode: 'comment', context: `${access.owner.name}/${access.repo.name}` });
  return trustedHtml(out);
}

/** `/{owner}/{repo}/issues` and `/pulls`, with `?state=open|closed|all` and `?page=`. */
export async function issueList(viewer: Viewer, access: RepoAccess, kind: 'issues' | 'pulls'): Promise<Response> {
  requireUnit(access, kind === 'issues' ? 'repo.issues' : 'repo.pulls');
  const repo = repoApi(viewer, access);
  if (kind === 'issues' ? !repo.internal_tracker : !repo.has_pull_requests) throw new NotFoundError();
  const state = stateOf(viewer.query);
  const current = pageNumber(viewer.query);
  const listed = await viewer.host.issues.list(viewer.actor, access, { state, type: kind }, { page: current, limit: PAGE_SIZE });
  const issues = toApiIssues(await viewer.host.issues.details(viewer.actor, listed.items), viewer.view);
  const rows = issues.map((issue) => {
    const merged = issue.pull_request?.merged;
    const badge = merged ? html`<span class="badge merged">Merged</span>` : html`<span class="badge ${issue.state}">${issue.state === 'open' ? 'Open' : 'Closed'}</span>`;
    const labels = issue.labels.map((l) => html` <span class="badge">${l.name}</span>`);
    return html`<li>${badge} <a href="${repoLink(viewer, access, kind, String(issue.number))}">${issue.title}</a>${labels}<br><span class="meta">#${issue.number} opened <time datetime="${issue.created_at}">${issue.created_at.slice(0, 10)}</time> by ${issue.user.login}${issue.comments ? ` · ${issue.comments} comments` : ''}</span></li>`;
  });
  const filters = STATES.map((s) =>
    s === state ? html`<strong aria-current="page">${label(s)}</strong>` : html`<a href="${repoLink(viewer, access, kind)}?state=${s}">${label(s)}</a>`,
  );
  const title = kind === 'issues' ? 'Issues' : 'Pull requests';
  const body = html`<h2>${title} <span class="badge">${listed.total}</span></h2><nav class="filters" aria-label="State">${filters}</nav>
${rows.length ? html`<ul class="items">${rows}</ul>` : html`<p>No ${kind === 'issues' ? 'issues' : 'pull requests'} here.</p>`}${pager(viewer, current, PAGE_SIZE, listed.total)}`;
  return page(viewer.host, 200, { title: `${title} - ${access.owner.name}/${access.repo.name}`, viewer: viewer.user, header: repoHeader(viewer, access, repo, kind), body });
}

function label(state: State): string {
  return state === 'open' ? 'Open' : state === 'closed' ? 'Closed' : 'All';
}

/** What an event of the timeline says after its actor's name (Forgejo's wording, shortened); the rest by its type. */
function eventText(viewer: Viewer, access: RepoAccess, entry: ApiTimelineComment): HtmlValue {
  switch (entry.type) {
    case 'close':
      return 'closed this';
    case 'reopen':
      return 'reopened this';
    case 'merge_pull':
      return 'merged this';
    case 'label':
      return entry.label ? html`${entry.body === '1' ? 'added' : 'removed'} the label <span class="badge">${entry.label.name}</span>` : 'changed the labels';
    case 'milestone':
      return entry.milestone ? html`added this to the milestone <strong>${entry.milestone.title}</strong>` : 'removed the milestone';
    case 'assignees':
      return entry.assignee ? html`${entry.removed_assignee ? 'unassigned' : 'assigned'} <strong>${entry.assignee.login}</strong>` : 'changed the assignees';
    case 'change_title':
      return html`changed the title from <del>${entry.old_title}</del> to <ins>${entry.new_title}</ins>`;
    case 'change_target_branch':
      return html`changed the target branch from <code>${entry.old_ref}</code> to <code>${entry.new_ref}</code>`;
    case 'delete_branch':
      return html`deleted the branch <code>${entry.old_ref}</code>`;
    case 'commit_ref':
      return entry.ref_commit_sha
        ? html`referenced this in commit <a href="${repoLink(viewer, access, 'commit', entry.ref_commit_sha)}"><code>${entry.ref_commit_sha.slice(0, 10)}</code></a>`
        : 'referenced this in a commit';
    case 'issue_ref':
    case 'pull_ref':
    case 'comment_ref':
      return entry.ref_issue ? html`referenced this from ${entry.ref_issue.title} <span class="muted">#${entry.ref_issue.number}</span>` : 'referenced this';
    case 'pull_push':
      return 'pushed commits';
    default:
      return entry.type.replaceAll('_', ' ');
  }
}

/** Entries of the timeline shown on one page (the API's largest page). */
function timelineLimit(viewer: Viewer): number {
  return viewer.host.settings.api.MAX_RESPONSE_ITEMS;
}

/** The issue's timeline, a page at a time: comments and reviews with their bodies rendered, events as one line. */
async function timelineOf(viewer: Viewer, access: RepoAccess, issue: Issue, current: number): Promise<SafeHtml> {
  const limit = timelineLimit(viewer);
  const listed = await viewer.host.comments.timeline(viewer.actor, access, issue, viewer.view, {}, { page: current, limit });
  // Rendered side by side: the markup domain's worker pool takes them as they come.
  const items = await Promise.all(
    listed.items.map(async (entry) => {
      const api = toApiTimelineComment(entry, viewer.view);
      const who = api.user.login;
      const when = html`<a href="#issuecomment-${api.id}"><time datetime="${api.created_at}">${api.created_at.slice(0, 10)}</time></a>`;
      if (api.type === 'comment' || ((api.type === 'review' || api.type === 'code') && api.body)) {
        const verb = api.type === 'comment' ? 'commented' : 'reviewed';
        return html`<article class="comment" id="issuecomment-${api.id}"><header><strong>${entry.comment.original_author || who}</strong> <span class="meta">${verb} ${when}</span></header>
<div class="markup">${await rendered(viewer, access, api.body)}</div></article>`;
      }
      return html`<p class="event meta" id="issuecomment-${api.id}"><strong>${who}</strong> ${eventText(viewer, access, api)} · ${when}</p>`;
    }),
  );
  return html`${items}${pager(viewer, current, limit, listed.total)}`;
}

/** `/{owner}/{repo}/issues/{n}` and `/pulls/{n}`: the issue or pull request, its body and comments. An issue's number under `/pulls` (and the reverse) goes to its own page. */
export async function issuePage(viewer: Viewer, access: RepoAccess, kind: 'issues' | 'pulls', index: string): Promise<Response> {
  if (!/^\d{1,16}$/.test(index)) throw new NotFoundError();
  const repo = repoApi(viewer, access);
  const issue = await viewer.host.issues.resolve(viewer.actor, access, index);
  const isPull = issue.is_pull === 1 || (issue.is_pull as unknown) === true;
  if (isPull !== (kind === 'pulls')) {
    return new Response(null, { status: 303, headers: { location: repoLink(viewer, access, isPull ? 'pulls' : 'issues', String(issue.index)) } });
  }
  const [details] = await viewer.host.issues.details(viewer.actor, [issue]);
  const [api] = toApiIssues([details!], viewer.view);
  let pullInfo: SafeHtml = html``;
  let diff: SafeHtml = html``;
  let state = html`<span class="badge ${api!.state}">${api!.state === 'open' ? 'Open' : 'Closed'}</span>`;
  if (isPull) {
    const pull = await viewer.host.pulls.resolve(viewer.actor, access, index);
    const shown = toApiPullRequest((await viewer.host.pulls.details(viewer.actor, [pull]))[0]!, viewer.view);
    if (shown.merged) state = html`<span class="badge merged">Merged</span>`;
    pullInfo = html`<p class="meta">Wants to merge <code>${shown.head.label}</code> into <code>${shown.base.label}</code>${shown.merged && shown.merge_commit_sha ? html` · merged as <a href="${repoLink(viewer, access, 'commit', shown.merge_commit_sha)}"><code>${shown.merge_commit_sha.slice(0, 10)}</code></a>` : ''}</p>`;
    const [files, bytes] = await Promise.all([
      orNothing(() => viewer.host.pulls.files(viewer.actor, access, pull, {}, { page: 1, limit: viewer.host.settings.api.MAX_RESPONSE_ITEMS })),
      diffOrNothing(() => viewer.host.pulls.diff(viewer.actor, access, pull, 'diff', false)),
    ]);
    const rows = (files?.items ?? []).map((file) => {
      // A removed file is not in the head commit: its name is text.
      const name = file.status === 'deleted' ? html`${file.path}` : html`<a href="${repoLink(viewer, access)}/src/commit/${files!.head}/${treeLink(file.path)}">${file.path}</a>`;
      return html`<tr><td>${name}</td><td>${file.status}</td><td class="meta">+${file.additions} −${file.deletions}</td></tr>`;
    });
    const table = rows.length
      ? html`<table class="list"><caption class="sr-only">Changed files</caption><thead><tr><th scope="col">File</th><th scope="col">Status</th><th scope="col">Lines</th></tr></thead><tbody>${rows}</tbody></table>${files!.total > rows.length ? html`<p class="meta">${files!.total - rows.length} more files changed.</p>` : ''}`
      : '';
    diff = html`<h2>Files changed <span class="badge">${files?.total ?? ''}</span></h2>${table}${diffBox(bytes)}`;
  }
  const labels = api!.labels.map((l) => html` <span class="badge">${l.name}</span>`);
  const body = html`<h2>${api!.title} <span class="muted">#${api!.number}</span></h2>
<p>${state} <span class="meta">${api!.user.login} opened this <time datetime="${api!.created_at}">${api!.created_at.slice(0, 10)}</time></span>${labels}</p>
${pullInfo}
<article class="comment" id="issue-body"><header><strong>${api!.original_author || api!.user.login}</strong></header><div class="markup">${api!.body ? await rendered(viewer, access, api!.body) : html`<p class="muted">No description provided.</p>`}</div></article>
${await timelineOf(viewer, access, issue, pageNumber(viewer.query))}
${diff}`;
  return page(viewer.host, 200, { title: `${api!.title} #${api!.number} - ${access.owner.name}/${access.repo.name}`, viewer: viewer.user, header: repoHeader(viewer, access, repo, kind), body });
}

