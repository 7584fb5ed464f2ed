import { defineDomain } from '../domain.js';
import { IssuesService } from './service.js';
import { IssueCommitRefsService } from './commit-refs.js';
import { IssuePinsService } from './pins.js';
import { IssueLabelsService } from './issue-labels.js';
import { IssueAttachmentsService } from './attachments.js';
import { IssuesPort } from './port.js';
import '../labels/index.js';
import '../milestones/index.js';

// Five records, each where its handlers have always run among other domains' (`domains.ts` keeps that order).

/** Issues (and everything hanging off them) go with their repository. */
export const issuesDomain = defineDomain({
  name: 'issues',
  provide(ctx) {
    // Deleting a label or a milestone clears it from its issues inside the deletion's transaction, before the row goes.
    ctx.provide('labels.issues', { removeLabelEverywhere: (tx, labelId) => tx.port(IssuesPort).removeLabelEverywhere(labelId) });
    ctx.provide('milestones.issues', { clearMilestone: (tx, milestoneId) => tx.port(IssuesPort).clearMilestone(milestoneId) });
  },
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

/** Label counts follow the issues that carry them (listed just before the labels record, where they always ran). */
export const issueLabelsDomain = defineDomain({
  name: 'issues.labels',
  subscribe(ctx) {
    ctx.service(IssueLabelsService).subscribe();
  },
});

/** An issue's files go with it; a download of one asks whether its issue may be read (listed after attachments). */
export const issueAttachmentsDomain = defineDomain({
  name: 'issues.attachments',
  provide(ctx) {
    ctx.provide('attachments.issues', ctx.service(IssueAttachmentsService));
  },
  subscribe(ctx) {
    ctx.service(IssueAttachmentsService).subscribe();
  },
});
