import type { AccessModeValue, UnitModes } from '../access/permissions.js';
import type { User } from '../users/tables.js';
import type { Repository } from './tables.js';

/** A repository with its owner and what the asking actor may do to it: what `/repos/{owner}/{repo}/…` loads. */
export interface RepoAccess {
  repo: Repository;
  owner: User;
  mode: AccessModeValue;
  /** Per unit, when teams grant units differently; absent: every unit at `mode` (see `unitMode`). */
  units?: UnitModes;
}
