/** Types of the social domain that other domains name: kept out of the stores, which are private to this folder. */
import type { SearchVisibility } from '../repos/types.js';

/** Which repositories a starred or watched list shows: the caller's visibility, and public ones only when asked. */
export interface RepoListFilter {
  visibility: SearchVisibility;
  /** Only public repositories (another account's list: what it starred privately stays private). */
  publicOnly: boolean;
}
