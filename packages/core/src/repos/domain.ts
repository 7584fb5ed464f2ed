import { defineDomain } from '../domain.js';
import { RepoLanguagesService } from './languages.js';
import { RepoForksService } from './forks.js';
import { RepoAvatarsService } from './avatars.js';
import { RepoStorageService, type ReconcileReport } from './storage.js';

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

/**
 * Every minute, whichever process's turn it is repairs the git intents of changes whose process stopped renewing
 * them (it died): the start-up reconcile of one process is not the only repair once several share the database. A
 * record of its own so that `/admin/cron` lists the task after Forgejo's (`domains.ts` keeps that order).
 */
export const gitIntentsDomain = defineDomain({
  name: 'repos.git-intents',
  cron: [
    {
      name: 'repair_git_intents',
      timeoutSeconds: 600,
      run: async (ctx) => summarize(await ctx.service(RepoStorageService).sweep()),
    },
  ],
});

function summarize(report: ReconcileReport): string {
  const parts = [
    [report.abandonedCreates.length, 'abandoned creations removed'],
    [report.finishedRemovals.length, 'removals finished'],
    [report.resynced.length, 'repositories resynced'],
    [report.undoneRenames.length, 'renames undone'],
    [report.undoneOwnerRenames.length, 'account renames undone'],
  ] as const;
  const done = parts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
  return done.length > 0 ? done.join(', ') : 'nothing to repair';
}
