import type { ApiView } from '../wire.js';
import { toApiUser } from '../users/index.js';
import type { CollaboratorPermission } from './collaborators.js';
import type { ApiRepoCollaboratorPermission } from './collaborator-schemas.js';

/** `RepoCollaboratorPermission`: Forgejo names the mode twice, as `permission` and as `role_name`. */
export function toApiRepoCollaboratorPermission(permission: CollaboratorPermission, view: ApiView): ApiRepoCollaboratorPermission {
  return { permission: permission.name, role_name: permission.name, user: toApiUser(permission.user, view) };
}
