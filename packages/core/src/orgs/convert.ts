import type { ApiView } from '../wire.js';
import { isoTime } from '../wire.js';
import { avatarUrl } from '../users/index.js';
import { visibilityName, type User } from '../users/index.js';
import type { ApiOrganization } from './schemas.js';

/** An organization as the API shows it. */
export function toApiOrganization(org: User, { settings }: ApiView): ApiOrganization {
  return {
    id: org.id,
    name: org.name,
    full_name: org.full_name,
    email: org.email,
    avatar_url: avatarUrl(org, settings),
    description: org.description,
    website: org.website,
    location: org.location,
    visibility: visibilityName(org),
    repo_admin_change_team_access: org.repo_admin_change_team_access === 1,
    username: org.name,
    created: isoTime(org.created_unix),
  };
}
