import type { ApiView } from '../wire.js';
import { isoTime } from '../wire.js';
import { toApiUser } from '../users/index.js';
import { toApiRepository } from '../repos/index.js';
import type { RepoAccess } from '../repos/index.js';
import type { User } from '../users/index.js';
import { opTypeName, type Action, type OpTypeName } from './tables.js';
import type { ApiActivity } from './schemas.js';

/** An action with what it names, loaded for one viewer (the repository with the viewer's access to it). */
export interface ActivityEntry {
  action: Action;
  actUser: User;
  repo: RepoAccess;
}

export function toApiActivity({ action, actUser, repo }: ActivityEntry, view: ApiView): ApiActivity {
  return {
    id: action.id,
    user_id: action.user_id,
    op_type: opTypeName(action.op_type) as OpTypeName,
    act_user_id: action.act_user_id,
    act_user: toApiUser(actUser, view),
    repo_id: action.repo_id,
    repo: toApiRepository(repo, view),
    // Forgejo fills these only when the comment loads; no action records a comment yet.
    comment_id: 0,
    comment: null,
    ref_name: action.ref_name,
    is_private: action.is_private === 1,
    content: action.content,
    created: isoTime(action.created_unix),
  };
}
