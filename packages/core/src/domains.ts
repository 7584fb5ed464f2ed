/**
 * The one list of domain records (see `domain.ts`): `RepoHost` subscribes their handlers, gives their job handlers to
 * the jobs worker, their tasks to cron and their repairs to the start-up reconcile. A new domain adds its record here.
 *
 * The order is the order handlers of one event run in (some write rows that later ones read, some wake workers), so
 * a record goes where its handlers should run; and the order of `/admin/cron` (Forgejo's, then RepoHost's own).
 */
import { checkDomains, cronTasksOf, defineDomain, jobHandlersOf, repairsOf, secretKindsOf, type DomainRecord } from './domain.js';
import { topicsDomain } from './topics/index.js';
import { reposDomain, forksDomain, gitIntentsDomain } from './repos/index.js';
import { keysDomain } from './keys/index.js';
import { gpgDomain } from './gpg/index.js';
import { activityDomain } from './activity/index.js';
import { socialDomain } from './social/index.js';
import { orgsDomain } from './orgs/index.js';
import { accessDomain } from './access/index.js';
import { commitsDomain } from './commits/index.js';
import { quotaDomain } from './quota/index.js';
import { webhooksDomain } from './webhooks/index.js';
import { oauth2Domain } from './oauth2/index.js';
import { issuesDomain, issueAttachmentsDomain, issueCommitRefsDomain, issueLabelsDomain, issuePinsDomain } from './issues/index.js';
import { protectionDomain } from './protection/index.js';
import { pullsDomain } from './pulls/index.js';
import { reviewsDomain } from './reviews/index.js';
import { timesDomain } from './times/index.js';
import { labelsDomain } from './labels/index.js';
import { notificationsDomain } from './notifications/index.js';
import { attachmentsDomain } from './attachments/index.js';
import { commentAttachmentsDomain } from './comments/index.js';
import { milestonesDomain } from './milestones/index.js';
import { releasesDomain } from './releases/index.js';
import { pushMirrorsDomain } from './pushmirrors/index.js';
import { redirectsDomain } from './redirects/index.js';
import { actionsDomain, actionsTasksDomain } from './actions/index.js';
import { packagesDomain } from './packages/index.js';
import { lfsDomain } from './lfs/index.js';
import { mirrorsDomain } from './mirrors/index.js';
import { migrateDomain } from './migrate/index.js';
import { maintenanceDomain, maintenanceExtendedDomain } from './cron/index.js';
import { loginSourcesDomain } from './loginsources/index.js';
import { twoFactorDomain } from './twofactor/index.js';
import { federationDomain } from './federation/index.js';
import { rateLimitDomain } from './ratelimit/index.js';
import { MirrorsService } from './mirrors/index.js';
import { PushMirrorsService } from './pushmirrors/index.js';

/**
 * Forgejo's `update_mirrors` queues the syncs of pull and push mirrors whose interval passed (the jobs do the fetching
 * and pushing), under one name and one summary. The two domains do not import each other, so the task that joins
 * them is declared here, where both are known.
 */
const mirrorUpdates = defineDomain({
  name: 'mirror-updates',
  cron: [
    {
      name: 'update_mirrors',
      timeoutSeconds: 600,
      registered: (settings) => settings.mirror.ENABLED,
      run: async (ctx) => {
        const pull = await ctx.service(MirrorsService).enqueueDue();
        const push = await ctx.service(PushMirrorsService).enqueueDue();
        return `queued ${pull} pull mirror and ${push} push mirror syncs`;
      },
    },
  ],
});

export const DOMAINS: readonly DomainRecord[] = [
  topicsDomain,
  reposDomain,
  keysDomain,
  gpgDomain,
  activityDomain,
  socialDomain,
  orgsDomain,
  accessDomain,
  commitsDomain,
  quotaDomain,
  webhooksDomain,
  oauth2Domain,
  issuesDomain,
  protectionDomain,
  pullsDomain,
  reviewsDomain,
  timesDomain,
  issueCommitRefsDomain,
  issueLabelsDomain,
  labelsDomain,
  notificationsDomain,
  attachmentsDomain,
  issueAttachmentsDomain,
  commentAttachmentsDomain,
  milestonesDomain,
  issuePinsDomain,
  releasesDomain,
  forksDomain,
  pushMirrorsDomain,
  redirectsDomain,
  actionsDomain,
  packagesDomain,
  lfsDomain,
  federationDomain,
  // Records without event handlers.
  mirrorsDomain,
  migrateDomain,
  loginSourcesDomain,
  twoFactorDomain,
  mirrorUpdates,
  maintenanceDomain,
  actionsTasksDomain,
  maintenanceExtendedDomain,
  rateLimitDomain,
  gitIntentsDomain,
];
checkDomains(DOMAINS);

/** Every job kind's handler. */
export const JOB_HANDLERS = jobHandlersOf(DOMAINS);
/** Every recurring task, in the order `/admin/cron` lists them. */
export const CRON_TASKS = cronTasksOf(DOMAINS);
/** Every start-up repair besides the repos domain's own. */
export const REPAIRS = repairsOf(DOMAINS);
/** Every kind of value stored encrypted under the host's key. */
export const SECRET_KINDS = secretKindsOf(DOMAINS);
