import { defineDomain } from '../domain.js';
import { IssuesService } from './service.js';
import { IssueCommitRefsService } from './commit-refs.js';
import { IssuePinsService } from './pins.js';

// Three records, each where its handlers have always run among other domains' (`domains.ts` keeps that order).

/** Issues (and everything hanging off them) go with their repository. */
export const issuesDomain = defineDomain({
  name: 'issues',
  subscribe(ctx) {
    ctx.service(IssuesService).subscribe();
  },
});

/** Pushed commits that mention or close issues leave their references on them. */
export const issueCommitRefsDomain = defineDomain({
  name: 'issues.commit-refs',
  subscribe(ctx) {
    ctx.service(IssueCommitRefsService).subscribe();
  },
});

/** A deleted pinned issue leaves no gap among the pins. */
export const issuePinsDomain = defineDomain({
  name: 'issues.pins',
  subscribe(ctx) {
    ctx.service(IssuePinsService).subscribe();
  },
});
