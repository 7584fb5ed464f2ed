import { defineDomain } from '../domain.js';
import { RepoLanguagesService } from './languages.js';
import { RepoForksService } from './forks.js';
import { RepoAvatarsService } from './avatars.js';

/**
 * The primary language follows pushes to the default branch; a deleted repository's avatar file goes. (Interrupted storage changes are `RepoStorageService`'s
 * own; other domains' repairs run from their records.)
 */
export const reposDomain = defineDomain({
  name: 'repos',
  subscribe(ctx) {
    ctx.service(RepoLanguagesService).subscribe();
    ctx.service(RepoAvatarsService).subscribe();
  },
});

/**
 * A deleted fork leaves its parent's fork count; a deleted parent leaves its forks standing alone. A record of its own
 * because its handlers run late, after other domains' (`domains.ts` keeps that order).
 */
export const forksDomain = defineDomain({
  name: 'repos.forks',
  subscribe(ctx) {
    ctx.service(RepoForksService).subscribe();
  },
});
