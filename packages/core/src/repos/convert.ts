import type { Settings } from '../config/settings.js';
import { AccessMode } from '../access/permissions.js';
import { isoTime, type ApiView } from '../wire.js';
import { apiUrl, webUrl } from '../urls.js';
import { toApiUser } from '../users/convert.js';
import type { User } from '../users/tables.js';
import { DEFAULT_OBJECT_FORMAT, isObjectFormat } from '../git/backend.js';
import type { Repository } from './tables.js';
import type { ApiRepository } from './schemas.js';
import type { RepoAccess } from './service.js';

export function repoWebPath(owner: User, repo: Repository): string {
  return `${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}`;
}

/** `git@host:owner/repo.git`, or the `ssh://` form when SSH listens on a non-standard port. */
function sshCloneUrl(settings: Settings, path: string): string {
  const { SSH_DOMAIN, SSH_PORT } = settings.server;
  return SSH_PORT === 22 ? `git@${SSH_DOMAIN}:${path}.git` : `ssh://git@${SSH_DOMAIN}:${SSH_PORT}/${path}.git`;
}

/** The API view of a repository, with the permissions of the actor it was loaded for. */
export function toApiRepository({ repo, owner, mode }: RepoAccess, view: ApiView): ApiRepository {
  const { settings } = view;
  const path = repoWebPath(owner, repo);
  const url = apiUrl(settings, `/repos/${path}`);
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
    parent: null,
    mirror: repo.is_mirror === 1,
    size: Math.ceil(repo.size / 1024),
    language: '',
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
    archived_at: isoTime(0),
    permissions: { admin: mode >= AccessMode.Admin, push: mode >= AccessMode.Write, pull: mode >= AccessMode.Read },
    has_issues: true,
    internal_tracker: {
      enable_time_tracker: settings.service.ENABLE_TIMETRACKING,
      allow_only_contributors_to_track_time: true,
      enable_issue_dependencies: true,
    },
    has_wiki: true,
    wiki_branch: repo.default_branch,
    globally_editable_wiki: false,
    has_pull_requests: true,
    has_projects: true,
    has_releases: true,
    has_packages: true,
    has_actions: false,
    ignore_whitespace_conflicts: false,
    allow_merge_commits: true,
    allow_rebase: true,
    allow_rebase_explicit: true,
    allow_squash_merge: true,
    allow_fast_forward_only_merge: true,
    allow_rebase_update: true,
    default_delete_branch_after_merge: false,
    default_merge_style: 'merge',
    default_update_style: 'merge',
    default_allow_maintainer_edit: false,
    avatar_url: '',
    internal: false,
    mirror_interval: '',
    object_format_name: isObjectFormat(repo.object_format_name) ? repo.object_format_name : DEFAULT_OBJECT_FORMAT,
    mirror_updated: isoTime(0),
    topics: [],
  };
}
