import { toApiAttachment } from '../attachments/index.js';
import type { Attachment } from '../attachments/index.js';
import { repoWebPath } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { apiUrl, pathEscapeSegments, webUrl } from '../urls.js';
import { toApiUser } from '../users/index.js';
import type { User } from '../users/index.js';
import { isoTime, type ApiView } from '../wire.js';
import type { ApiRelease } from './schemas.js';
import type { Release } from './tables.js';

/** A release with what its API view shows: where it is, who published it (the ghost when gone) and its assets. */
export interface ReleaseDetails {
  release: Release;
  repo: Repository;
  owner: User;
  publisher: User;
  assets: Attachment[];
}

/** `…/api/v1/repos/{owner}/{repo}/releases/{id}`. */
export function releaseApiUrl(details: Pick<ReleaseDetails, 'release' | 'repo' | 'owner'>, view: Pick<ApiView, 'settings'>): string {
  return apiUrl(view.settings, `/repos/${repoWebPath(details.owner, details.repo)}/releases/${details.release.id}`);
}

/**
 * The API view of a release. The archive links name the repository's archive route for the tag; `published_at`
 * is the creation time, as Forgejo has it.
 */
export function toApiRelease(details: ReleaseDetails, view: ApiView): ApiRelease {
  const { release, repo, owner } = details;
  const path = repoWebPath(owner, repo);
  const tag = pathEscapeSegments(release.tag_name);
  const url = releaseApiUrl(details, view);
  const archive = apiUrl(view.settings, `/repos/${path}/archive/${tag}`);
  return {
    id: release.id,
    tag_name: release.tag_name,
    target_commitish: release.target,
    name: release.title,
    body: release.note,
    url,
    html_url: webUrl(view.settings, `${path}/releases/tag/${tag}`),
    tarball_url: `${archive}.tar.gz`,
    zipball_url: `${archive}.zip`,
    hide_archive_links: release.hide_archive_links === 1,
    upload_url: `${url}/assets`,
    draft: release.is_draft === 1,
    prerelease: release.is_prerelease === 1,
    created_at: isoTime(release.created_unix),
    published_at: isoTime(release.created_unix),
    author: toApiUser(details.publisher, view),
    assets: details.assets.map((a) => toApiAttachment(a, view)),
    // Archive downloads are not counted per release here.
    archive_download_count: { tar_gz: 0, zip: 0 },
  };
}
