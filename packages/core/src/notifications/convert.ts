import { apiUrl, webUrl } from '../urls.js';
import { isoTime, type ApiView } from '../wire.js';
import { sharedInJson } from '../shared-json.js';
import { AccessMode } from '../access/index.js';
import { repoWebPath, toApiRepository } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import type { User } from '../users/index.js';
import type { Issue } from '../issues/index.js';
import { NotificationSource, NotificationStatus, type Notification } from './tables.js';
import type { ApiNotificationSubject, ApiNotificationThread } from './schemas.js';

/** A thread with what its answer shows: its repository and owner, its issue, the issue's latest comment. */
export interface LoadedNotification {
  notification: Notification;
  repo: Repository;
  owner: User;
  /** Absent for a repository's thread (or an issue deleted meanwhile). */
  issue?: Issue | undefined;
  latestCommentId?: number | undefined;
}

/** Where an issue (or pull request) lives on the API and on the web. */
export function issueUrls(owner: User, repo: Repository, issue: Pick<Issue, 'index' | 'is_pull'>, view: ApiView): { url: string; htmlUrl: string } {
  const path = repoWebPath(owner, repo);
  return {
    url: apiUrl(view.settings, `/repos/${path}/issues/${issue.index}`),
    htmlUrl: webUrl(view.settings, `${path}/${issue.is_pull ? 'pulls' : 'issues'}/${issue.index}`),
  };
}

const NO_SUBJECT = { title: '', url: '', html_url: '', latest_comment_url: '', latest_comment_html_url: '', state: '' } as const;

function subjectOf({ notification, repo, owner, issue, latestCommentId }: LoadedNotification, view: ApiView): ApiNotificationSubject {
  const path = repoWebPath(owner, repo);
  if (notification.source === NotificationSource.Repository) {
    // Forgejo's `url` here is the repository's relative link, kept for compatibility.
    return { ...NO_SUBJECT, type: 'Repository', title: `${owner.name}/${repo.name}`, url: `/${path}`, html_url: webUrl(view.settings, path) };
  }
  const type = notification.source === NotificationSource.PullRequest ? 'Pull' : 'Issue';
  // An issue deleted meanwhile: only the type, as Forgejo shows it.
  if (!issue) return { ...NO_SUBJECT, type };
  const { url, htmlUrl } = issueUrls(owner, repo, issue, view);
  return {
    type,
    title: issue.name,
    url,
    html_url: htmlUrl,
    latest_comment_url: latestCommentId ? apiUrl(view.settings, `/repos/${path}/issues/comments/${latestCommentId}`) : '',
    latest_comment_html_url: latestCommentId ? `${htmlUrl}#issuecomment-${latestCommentId}` : '',
    state: issue.is_closed ? 'closed' : 'open',
  };
}

export function toApiNotificationThread(loaded: LoadedNotification, view: ApiView): ApiNotificationThread {
  return toApiNotificationThreads([loaded], view)[0]!;
}

/** A page of threads: each repository converted once, and serialized once per answer (`sharedInJson`). */
export function toApiNotificationThreads(page: readonly LoadedNotification[], view: ApiView): ApiNotificationThread[] {
  const repositories = new Map<number, ApiNotificationThread['repository']>();
  return page.map((loaded) => {
    let repository = repositories.get(loaded.repo.id);
    if (!repository) {
      const { permissions: _permissions, ...converted } = toApiRepository({ repo: loaded.repo, owner: loaded.owner, mode: AccessMode.Read }, view);
      repository = sharedInJson(converted);
      repositories.set(loaded.repo.id, repository);
    }
    return threadView(loaded, repository, view);
  });
}

function threadView(loaded: LoadedNotification, repository: ApiNotificationThread['repository'], view: ApiView): ApiNotificationThread {
  const { notification } = loaded;
  return {
    id: notification.id,
    repository,
    subject: subjectOf(loaded, view),
    unread: notification.status !== NotificationStatus.Read && notification.status !== NotificationStatus.Pinned,
    pinned: notification.status === NotificationStatus.Pinned,
    updated_at: isoTime(notification.updated_unix),
    url: apiUrl(view.settings, `/notifications/threads/${notification.id}`),
  };
}
