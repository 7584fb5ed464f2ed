/**
 * Every migration, in the order it runs. Append only: this list is the one place that knows the order, and a
 * released migration is never edited or removed (add a new one instead).
 */
import type { Migration } from './kit.js';
import { m0001_users_create } from './0001_users_create.js';
import { m0002_tokens_create } from './0002_tokens_create.js';
import { m0003_repos_create } from './0003_repos_create.js';
import { m0004_repos_git_intents } from './0004_repos_git_intents.js';
import { m0005_security_sign_in_failures } from './0005_security_sign_in_failures.js';
import { m0006_repos_settings } from './0006_repos_settings.js';
import { m0007_topics_create } from './0007_topics_create.js';
import { m0008_keys_public_keys } from './0008_keys_public_keys.js';
import { m0009_labels_create } from './0009_labels_create.js';
import { m0010_repos_pushes } from './0010_repos_pushes.js';
import { m0011_users_profiles } from './0011_users_profiles.js';
import { m0012_social_relations } from './0012_social_relations.js';
import { m0013_keys_deploy_gpg } from './0013_keys_deploy_gpg.js';
import { m0014_activity_actions } from './0014_activity_actions.js';
import { m0015_users_admin } from './0015_users_admin.js';
import { m0016_commits_statuses } from './0016_commits_statuses.js';
import { m0017_orgs_create } from './0017_orgs_create.js';
import { m0018_quota_create } from './0018_quota_create.js';
import { m0019_webhooks_create } from './0019_webhooks_create.js';
import { m0020_oauth2_applications } from './0020_oauth2_applications.js';
import { m0021_twofactor_create } from './0021_twofactor_create.js';
import { m0022_issues_create } from './0022_issues_create.js';
import { m0023_reactions_create } from './0023_reactions_create.js';
import { m0024_times_create } from './0024_times_create.js';
import { m0025_attachments_create } from './0025_attachments_create.js';
import { m0026_notifications_create } from './0026_notifications_create.js';
import { m0027_oauth2_provider } from './0027_oauth2_provider.js';
import { m0028_pulls_create } from './0028_pulls_create.js';
import { m0029_reviews_create } from './0029_reviews_create.js';
import { m0030_protection_create } from './0030_protection_create.js';
import { m0031_releases_create } from './0031_releases_create.js';
import { m0032_pulls_auto_merge } from './0032_pulls_auto_merge.js';
import { m0033_loginsources_create } from './0033_loginsources_create.js';
import { m0034_tokens_repositories } from './0034_tokens_repositories.js';
import { m0035_jobs_create } from './0035_jobs_create.js';
import { m0036_mirrors_create } from './0036_mirrors_create.js';
import { m0037_pushmirrors_create } from './0037_pushmirrors_create.js';
import { m0038_security_known_sign_ins } from './0038_security_known_sign_ins.js';
import { m0039_redirects_create } from './0039_redirects_create.js';
import { m0040_actions_secrets_variables } from './0040_actions_secrets_variables.js';
import { m0041_repos_flags_avatar } from './0041_repos_flags_avatar.js';
import { m0042_packages_create } from './0042_packages_create.js';
import { m0043_packages_properties } from './0043_packages_properties.js';
import { m0044_actions_runners } from './0044_actions_runners.js';
import { m0045_repos_intent_leases } from './0045_repos_intent_leases.js';
import { m0046_storage_locks } from './0046_storage_locks.js';
import { m0047_webhooks_delivery_leases } from './0047_webhooks_delivery_leases.js';
import { m0048_pulls_branch_tips } from './0048_pulls_branch_tips.js';
import { m0049_actions_runs } from './0049_actions_runs.js';
import { m0050_actions_artifacts } from './0050_actions_artifacts.js';
import { m0051_actions_schedules } from './0051_actions_schedules.js';
import { m0052_lfs_create } from './0052_lfs_create.js';
import { m0053_repos_wiki } from './0053_repos_wiki.js';
import { m0054_federation_create } from './0054_federation_create.js';
import { m0055_users_git_hooks } from './0055_users_git_hooks.js';
import { m0056_ratelimit_create } from './0056_ratelimit_create.js';
import { m0057_issues_list_order } from './0057_issues_list_order.js';
import { m0058_timeline_comment_issue_type } from './0058_timeline_comment_issue_type.js';

export const MIGRATIONS: readonly Migration[] = [
  m0001_users_create,
  m0002_tokens_create,
  m0003_repos_create,
  m0004_repos_git_intents,
  m0005_security_sign_in_failures,
  m0006_repos_settings,
  m0007_topics_create,
  m0008_keys_public_keys,
  m0009_labels_create,
  m0010_repos_pushes,
  m0011_users_profiles,
  m0012_social_relations,
  m0013_keys_deploy_gpg,
  m0014_activity_actions,
  m0015_users_admin,
  m0016_commits_statuses,
  m0017_orgs_create,
  m0018_quota_create,
  m0019_webhooks_create,
  m0020_oauth2_applications,
  m0021_twofactor_create,
  m0022_issues_create,
  m0023_reactions_create,
  m0024_times_create,
  m0025_attachments_create,
  m0026_notifications_create,
  m0027_oauth2_provider,
  m0028_pulls_create,
  m0029_reviews_create,
  m0030_protection_create,
  m0031_releases_create,
  m0032_pulls_auto_merge,
  m0033_loginsources_create,
  m0034_tokens_repositories,
  m0035_jobs_create,
  m0036_mirrors_create,
  m0037_pushmirrors_create,
  m0038_security_known_sign_ins,
  m0039_redirects_create,
  m0040_actions_secrets_variables,
  m0041_repos_flags_avatar,
  m0042_packages_create,
  m0043_packages_properties,
  m0044_actions_runners,
  m0045_repos_intent_leases,
  m0046_storage_locks,
  m0047_webhooks_delivery_leases,
  m0048_pulls_branch_tips,
  m0049_actions_runs,
  m0050_actions_artifacts,
  m0051_actions_schedules,
  m0052_lfs_create,
  m0053_repos_wiki,
  m0054_federation_create,
  m0055_users_git_hooks,
  m0056_ratelimit_create,
  m0057_issues_list_order,
  m0058_timeline_comment_issue_type,
];
