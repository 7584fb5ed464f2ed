import { defineDomain } from '../domain.js';
import { PullsService } from './service.js';
import { PullManualMergeService } from './merge-manual.js';
import { PullMergePush } from './merge-push.js';
import { PullAutoMergeService } from './auto-merge.js';

/** Pull requests keep in step with pushes (then manual merges are detected, after them); a scheduled merge is tried at once. */
export const pullsDomain = defineDomain({
  name: 'pulls',
  provide(ctx) {
    // A reported commit status tries the merges scheduled on that commit, before the report returns.
    ctx.provide('commits.statusListener', ctx.service(PullAutoMergeService));
  },
  subscribe(ctx) {
    ctx.service(PullsService).subscribe();
    ctx.service(PullManualMergeService).subscribe();
    ctx.service(PullAutoMergeService).subscribe();
  },
  repairs: [
    {
      intent: 'merge',
      // `repoId` names the pull request; the row's repository, not the intent's key, is where its base is.
      async run(ctx, intent, report) {
        const outcome = await ctx.service(PullMergePush).repairMerge(intent.repoId);
        if (outcome === 'busy') return 'busy';
        if (outcome) report.resynced.push(intent.key);
      },
    },
  ],
});
