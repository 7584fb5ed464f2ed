/**
 * Every route module, in registration order: the one place a new domain's routes are added.
 */
import type { ApiRouter } from '../router.js';
import { defineGroups, type Groups } from '../groups.js';
import { registerMiscRoutes } from './misc.js';
import { registerTemplateRoutes } from './templates.js';
import { registerUserRoutes } from './users.js';
import { registerUserSettingsRoutes } from './user-settings.js';
import { registerUserEmailRoutes } from './user-emails.js';
import { registerTokenRoutes } from './tokens.js';
import { registerRepoRoutes } from './repos.js';
import { registerRepoFlagRoutes } from './repo-flags.js';
import { registerGitHookRoutes } from './git-hooks.js';
import { registerAdminRoutes } from './admin.js';
import { registerAdminUserRoutes } from './admin-users.js';
import { registerAdminCronRoutes } from './admin-cron.js';
import { registerRepoSearchRoutes } from './repo-search.js';
import { registerTopicRoutes } from './topics.js';
import { registerRepoArchiveRoutes } from './repo-archive.js';
import { registerRepoLanguageRoutes } from './repo-languages.js';
import { registerLabelRoutes } from './labels.js';
import { registerMarkupRoutes } from './markup.js';
import { registerActivityRoutes } from './activity.js';
import { registerKeyRoutes } from './keys.js';
import { registerDeployKeyRoutes } from './deploy-keys.js';
import { registerGpgKeyRoutes } from './gpg-keys.js';
import { registerSocialRoutes } from './social.js';
import { registerBranchRoutes } from './branches.js';
import { registerTagRoutes } from './tags.js';
import { registerCommitRoutes } from './commits.js';
import { registerStatusRoutes } from './statuses.js';
import { registerGitDataRoutes } from './git-data.js';
import { registerContentsRoutes } from './contents.js';
import { registerQuotaRoutes } from './quota.js';
import { registerOrgRoutes } from './orgs.js';
import { registerCollaboratorRoutes } from './collaborators.js';
import { registerTeamRoutes } from './teams.js';
import { registerWebhookRoutes } from './webhooks.js';
import { registerActionsRoutes } from './actions.js';
import { registerActionsRunnerRoutes } from './actions-runners.js';
import { registerActionsRunRoutes } from './actions-runs.js';
import { registerActionsArtifactRoutes } from './actions-artifacts.js';
import { registerActionsRunTokenRoutes } from './actions-run-token.js';
import { registerPackageRoutes } from './packages.js';
import { registerOAuth2AppRoutes } from './oauth2-apps.js';
import { registerIssueRoutes } from './issues.js';
import { registerPullRoutes } from './pulls.js';
import { registerPullMergeRoutes } from './pull-merge.js';
import { registerPullReviewRoutes } from './pull-reviews.js';
import { registerIssueDependencyRoutes } from './issue-dependencies.js';
import { registerIssueDeadlineRoutes } from './issue-deadline.js';
import { registerIssueLockRoutes } from './issue-lock.js';
import { registerTimeRoutes } from './times.js';
import { registerCommentRoutes } from './comments.js';
import { registerReactionRoutes } from './reactions.js';
import { registerNotificationRoutes } from './notifications.js';
import { registerIssueSubscriptionRoutes } from './issue-subscriptions.js';
import { registerAttachmentRoutes } from './attachments.js';
import { registerMilestoneRoutes } from './milestones.js';
import { registerReleaseRoutes } from './releases.js';
import { registerIssuePinRoutes } from './issue-pins.js';
import { registerIssueTemplateRoutes } from './issue-templates.js';
import { registerForkRoutes } from './forks.js';
import { registerBranchProtectionRoutes } from './branch-protections.js';
import { registerTagProtectionRoutes } from './tag-protections.js';
import { registerPushMirrorRoutes } from './push-mirrors.js';
import { registerMigrateRoutes } from './migrate.js';
import { registerWikiRoutes } from './wiki.js';
import { registerFederationRoutes } from './federation.js';

const ROUTE_MODULES: readonly ((router: ApiRouter, groups: Groups) => void)[] = [
  registerMiscRoutes,
  registerTemplateRoutes,
  registerUserRoutes,
  registerUserSettingsRoutes,
  registerUserEmailRoutes,
  registerTokenRoutes,
  registerRepoRoutes,
  registerRepoFlagRoutes,
  registerForkRoutes,
  registerAdminRoutes,
  registerAdminUserRoutes,
  registerAdminCronRoutes,
  registerRepoSearchRoutes,
  registerTopicRoutes,
  registerRepoArchiveRoutes,
  registerRepoLanguageRoutes,
  registerLabelRoutes,
  registerMarkupRoutes,
  registerActivityRoutes,
  registerKeyRoutes,
  registerDeployKeyRoutes,
  registerGpgKeyRoutes,
  registerSocialRoutes,
  registerBranchRoutes,
  registerBranchProtectionRoutes,
  registerTagProtectionRoutes,
  registerPushMirrorRoutes,
  registerMigrateRoutes,
  registerWikiRoutes,
  registerFederationRoutes,
  registerTagRoutes,
  registerCommitRoutes,
  registerStatusRoutes,
  registerGitDataRoutes,
  registerContentsRoutes,
  registerQuotaRoutes,
  registerOrgRoutes,
  registerCollaboratorRoutes,
  registerTeamRoutes,
  registerWebhookRoutes,
  registerGitHookRoutes,
  registerActionsRoutes,
  registerActionsRunnerRoutes,
  registerActionsRunRoutes,
  registerActionsArtifactRoutes,
  registerActionsRunTokenRoutes,
  registerPackageRoutes,
  registerOAuth2AppRoutes,
  registerIssueRoutes,
  registerPullRoutes,
  registerPullMergeRoutes,
  registerPullReviewRoutes,
  registerIssueDependencyRoutes,
  registerIssueDeadlineRoutes,
  registerIssueLockRoutes,
  registerTimeRoutes,
  registerCommentRoutes,
  registerReactionRoutes,
  registerNotificationRoutes,
  registerIssueSubscriptionRoutes,
  registerAttachmentRoutes,
  registerMilestoneRoutes,
  registerReleaseRoutes,
  registerIssuePinRoutes,
  registerIssueTemplateRoutes,
];

export function registerRoutes(router: ApiRouter): void {
  const groups = defineGroups(router);
  for (const register of ROUTE_MODULES) register(router, groups);
}
