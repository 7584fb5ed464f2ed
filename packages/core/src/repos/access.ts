import type { AccessModeValue } from '../access/permissions.js';
import type { User } from '../users/tables.js';
import type { Repository } from './tables.js';

/** A repository with its owner and what the asking actor may do to it: what `/repos/{owner}/{repo}/…` loads. */
export interface RepoAccess {
  repo: Repository;
  owner: User;
  mode: AccessModeValue;
}
