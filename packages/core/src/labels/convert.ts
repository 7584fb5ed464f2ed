import type { Settings } from '../config/index.js';
import { apiUrl } from '../urls.js';
import type { ApiLabel } from './schemas.js';
import type { Label } from './tables.js';

/**
 * The API view of a label seen from a repository; `repoPath` is `owner/repo` (URL-escaped). An organization's
 * label shown there (it can only be the owner's) links to the organization's label.
 */
export function toApiLabel(label: Label, repoPath: string, settings: Settings): ApiLabel {
  if (label.repo_id === 0 && label.org_id !== 0) return toApiOrgLabel(label, repoPath.slice(0, repoPath.indexOf('/')), settings, true);
  return toApiLabelAt(label, apiUrl(settings, `/repos/${repoPath}/labels/${label.id}`));
}

/** The API view of an organization's label; `orgName` as stored (escaped here unless `escaped`). */
export function toApiOrgLabel(label: Label, orgName: string, settings: Settings, escaped = false): ApiLabel {
  return toApiLabelAt(label, apiUrl(settings, `/orgs/${escaped ? orgName : encodeURIComponent(orgName)}/labels/${label.id}`));
}

/** The API view of a label whose URL the caller knows. */
export function toApiLabelAt(label: Label, url: string): ApiLabel {
  return {
    id: label.id,
    name: label.name,
    exclusive: label.exclusive === 1,
    is_archived: label.archived_unix !== 0,
    color: label.color.replace(/^#/, ''),
    description: label.description,
    url,
  };
}
