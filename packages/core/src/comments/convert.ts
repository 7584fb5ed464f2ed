import { ANONYMOUS } from '../users/index.js';
import { isoTime, type ApiView } from '../wire.js';
import { webUrl } from '../urls.js';
import { toApiUser } from '../users/index.js';
import type { User } from '../users/index.js';
import type { Issue } from '../issues/index.js';
import type { ApiComment } from './schemas.js';
import type { Comment } from '../timeline/index.js';

/** What a comment's wire form needs besides its row: its poster, its issue, and where the repository lives. */
export interface CommentRelations {
  poster: User;
  issue: Pick<Issue, 'index' | 'is_pull'>;
  /** `owner/repo` of the issue's repository, URL-escaped (`repoWebPath`). */
  repoPath: string;
  /** The comment's attachments, already converted; none until the attachments domain loads them. */
  assets?: ApiComment['assets'];
}

/** The web URL of an issue or pull request (Forgejo's `Issue.HTMLURL`). */
export function issueWebUrl(view: ApiView, repoPath: string, issue: Pick<Issue, 'index' | 'is_pull'>): string {
  return webUrl(view.settings, `${repoPath}/${issue.is_pull ? 'pulls' : 'issues'}/${issue.index}`);
}

/**
 * The API view of a comment, as Forgejo's `ToAPIComment`: the poster is shown as to an anonymous viewer (Forgejo
 * converts it without a doer), `issue_url` is set on issues and `pull_request_url` on pull requests.
 */
export function toApiComment(comment: Comment, { poster, issue, repoPath, assets }: CommentRelations, view: ApiView): ApiComment {
  const issueUrl = issueWebUrl(view, repoPath, issue);
  return {
    id: comment.id,
    html_url: `${issueUrl}#issuecomment-${comment.id}`,
    pull_request_url: issue.is_pull ? issueUrl : '',
    issue_url: issue.is_pull ? '' : issueUrl,
    user: toApiUser(poster, { viewer: ANONYMOUS, settings: view.settings }),
    original_author: comment.original_author,
    original_author_id: comment.original_author_id,
    body: comment.content,
    assets: assets ?? [],
    created_at: isoTime(comment.created_unix),
    updated_at: isoTime(comment.updated_unix),
  };
}
