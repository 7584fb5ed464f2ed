import type { Settings } from '../config/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { ANONYMOUS } from '../users/index.js';
import { isoTime, type ApiView } from '../wire.js';
import { apiUrl, sshCloneUrl, webUrl } from '../urls.js';
import { toApiUser } from '../users/index.js';
import type { User } from '../users/index.js';
import { DEFAULT_OBJECT_FORMAT, isObjectFormat } from '../git/index.js';
import type { Repository } from './tables.js';
import type { ApiRepository } from './schemas.js';
import type { RepoAccess } from './access.js';
import { defaultPullsUnit, parseTopics, viewUnits } from './units.js';
import { formatGoDuration } from '../go-duration.js';

/** The web path uploaded repository avatars are served under (`/repo-avatars/<name>`), outside the API. */
export const REPO_AVATARS_PATH = 'repo-avatars';

export function repoWebPath(owner: User, repo: Repository): string {
  return `${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}`;
}


/** A repository's pending transfer with the accounts it names, as `RepoTransferService.withPendingTransfers` loads it. */
export interface PendingTransferView {
  doer: User;
  recipient: User;
}

/** A pull mirror's schedule, as `MirrorsService.withMirrors` loads it for `mirror_interval` and `mirror_updated`. */
export interface RepoMirrorView {
  interval_seconds: number;
  updated_unix: number;
}

/**
 * The API view of a repository, with the permissions of the actor it was loaded for. `repo_transfer` is filled
 * when the access carries its pending transfer (see `RepoTransferService.withPendingTransfers`), `parent` when it
 * carries its parent (see `RepoForksService.withParents`), `mirror_interval`/`mirror_updated` when it carries its
 * mirror (see `MirrorsService.withMirrors`).
 */
export function toApiRepository(
  access: RepoAccess & { pendingTransfer?: PendingTransferView; parent?: RepoAccess; mirror?: RepoMirrorView },
  view: ApiView,
): ApiRepository {
  const { repo, owner, mode, pendingTransfer, mirror } = access;
  const code = unitMode(access, 'repo.code');
  const { settings } = view;
  const path = repoWebPath(owner, repo);
  const url = apiUrl(settings, `/repos/${path}`);
  const units = viewUnits(repo.units, settings);
  const pulls = units.pulls ?? defaultPullsUnit();
  return {
    id: repo.id,
    owner: toApiUser(owner, view),
    name: repo.name,
    full_name: `${owner.name}/${repo.name}`,
    description: repo.description,
    empty: repo.is_empty === 1,
    private: repo.is_private === 1,
    fork: repo.is_fork === 1,
    template: repo.is_template === 1,
    // A fork's parent as the viewer may see it (`RepoForksService.withParents` loads it), without its own parent.
    parent: access.parent ? toApiRepository(access.parent, view) : null,
    mirror: repo.is_mirror === 1,
    size: Math.ceil(repo.size / 1024),
    language: repo.primary_language,
    languages_url: `${url}/languages`,
    html_url: webUrl(settings, path),
    url,
    link: '',
    ssh_url: sshCloneUrl(settings, path),
    clone_url: webUrl(settings, `${path}.git`),
    original_url: repo.original_url,
    website: repo.website,
    stars_count: repo.num_stars,
    forks_count: repo.num_forks,
    watchers_count: repo.num_watches,
    open_issues_count: repo.num_issues - repo.num_closed_issues,
    open_pr_counter: repo.num_pulls - repo.num_closed_pulls,
    release_counter: repo.num_releases,
    default_branch: repo.default_branch,
    archived: repo.is_archived === 1,
    created_at: isoTime(repo.created_unix),
    updated_at: isoTime(repo.updated_unix),
    archived_at: isoTime(repo.archived_unix),
    // Push and pull are about the code, as Forgejo's `ToRepo` reads them.
    permissions: { admin: mode >= AccessMode.Admin, push: code >= AccessMode.Write, pull: code >= AccessMode.Read },
    has_issues: units.issues !== undefined || units.external_tracker !== undefined,
    internal_tracker: units.issues ?? null,
    external_tracker: units.external_tracker ?? null,
    has_wiki: units.wiki !== undefined || units.external_wiki !== undefined,
    external_wiki: units.external_wiki ?? null,
    // Kept on the row by whatever writes the wiki, so a list reads no git.
    has_wiki_contents: repo.has_wiki_contents === 1,
    wiki_branch: repo.wiki_branch || repo.default_branch,
    wiki_clone_url: webUrl(settings, `${path}.wiki.git`),
    wiki_ssh_url: sshCloneUrl(settings, `${path}.wiki`),
    globally_editable_wiki: units.wiki?.globally_editable ?? false,
    has_pull_requests: units.pulls !== undefined,
    has_projects: units.projects !== undefined,
    has_code: units.code !== undefined,
    // Projects have no settings here: Gitea's default mode (the repository's and its owner's projects).
    projects_mode: 'all',
    // Gitea detects licenses with a classifier on every push into a table of its own; none is kept here.
    licenses: [],
    has_releases: units.releases !== undefined,
    has_packages: units.packages !== undefined,
    has_actions: units.actions !== undefined,
    ignore_whitespace_conflicts: pulls.ignore_whitespace_conflicts,
    allow_merge_commits: pulls.allow_merge_commits,
    allow_rebase: pulls.allow_rebase,
    allow_rebase_explicit: pulls.allow_rebase_explicit,
    allow_squash_merge: pulls.allow_squash_merge,
    allow_fast_forward_only_merge: pulls.allow_fast_forward_only_merge,
    allow_rebase_update: pulls.allow_rebase_update,
    allow_manual_merge: pulls.allow_manual_merge,
    autodetect_manual_merge: pulls.autodetect_manual_merge,
    default_delete_branch_after_merge: pulls.default_delete_branch_after_merge,
    default_merge_style: pulls.default_merge_style,
    default_update_style: pulls.default_update_style,
    default_allow_maintainer_edit: pulls.default_allow_maintainer_edit,
    avatar_url: repo.avatar ? webUrl(settings, `${REPO_AVATARS_PATH}/${encodeURIComponent(repo.avatar)}`) : '',
    internal: false,
    mirror_interval: mirror ? formatGoDuration(mirror.interval_seconds) : '',
    object_format_name: isObjectFormat(repo.object_format_name) ? repo.object_format_name : DEFAULT_OBJECT_FORMAT,
    mirror_updated: isoTime(mirror?.updated_unix ?? 0),
    topics: parseTopics(repo.topics),
    repo_transfer: pendingTransfer ? toApiRepoTransfer(pendingTransfer, settings) : null,
  };
}

/** The accounts of a pending transfer, shown as to an anonymous viewer, as Forgejo shows them. */
function toApiRepoTransfer({ doer, recipient }: PendingTransferView, settings: Settings): NonNullable<ApiRepository['repo_transfer']> {
  const view: ApiView = { viewer: ANONYMOUS, settings };
  // Teams come with organization recipients.
  return { doer: toApiUser(doer, view), recipient: toApiUser(recipient, view), teams: [] };
}
