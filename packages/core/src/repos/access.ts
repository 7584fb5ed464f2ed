import type { RepoAccessOf } from '../access/index.js';
import type { Repository } from './tables.js';

/** A repository with its owner and what the asking actor may do to it: what `/repos/{owner}/{repo}/…` loads. */
export type RepoAccess = RepoAccessOf<Repository>;
