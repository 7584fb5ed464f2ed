import type { Settings } from '../config/settings.js';
import { apiUrl } from '../urls.js';
import type { ApiLabel } from './schemas.js';
import type { Label } from './tables.js';

/** The API view of a label; `repoPath` is `owner/repo` (URL-escaped) of the repository it belongs to. */
export function toApiLabel(label: Label, repoPath: string, settings: Settings): ApiLabel {
  return {
    id: label.id,
    name: label.name,
    exclusive: label.exclusive === 1,
    is_archived: label.archived_unix !== 0,
    color: label.color.replace(/^#/, ''),
    description: label.description,
    url: apiUrl(settings, `/repos/${repoPath}/labels/${label.id}`),
  };
}
