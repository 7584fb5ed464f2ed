import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../validation/index.js';

/** Forgejo's `service` values for a migration; RepoHost runs `git`, `gitea` and `forgejo` (others: 422). */
export const MIGRATE_SERVICES = ['git', 'github', 'gitea', 'gitlab', 'gogs', 'onedev', 'gitbucket', 'codebase', 'forgejo', 'pagure', 'bitbucketdc'] as const;
export type MigrateService = (typeof MIGRATE_SERVICES)[number];

export const MigrateRepoOptionsSchema = Type.Object(
  {
    clone_addr: Type.String(),
    repo_name: Type.String(),
    repo_owner: Type.Optional(Type.String({ description: 'Name of User or Organisation who will own Repo after migration' })),
    uid: Type.Optional(Type.Integer({ format: 'int64', description: 'deprecated (only for backwards compatibility)' })),
    auth_username: Type.Optional(Type.String()),
    auth_password: Type.Optional(Type.String()),
    auth_token: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    private: Type.Optional(Type.Boolean()),
    mirror: Type.Optional(Type.Boolean()),
    mirror_interval: Type.Optional(Type.String()),
    service: Type.Optional(StringEnum(MIGRATE_SERVICES)),
    issues: Type.Optional(Type.Boolean()),
    labels: Type.Optional(Type.Boolean()),
    milestones: Type.Optional(Type.Boolean()),
    releases: Type.Optional(Type.Boolean()),
    pull_requests: Type.Optional(Type.Boolean()),
    wiki: Type.Optional(Type.Boolean()),
    lfs: Type.Optional(Type.Boolean()),
    lfs_endpoint: Type.Optional(Type.String()),
  },
  { $id: 'MigrateRepoOptions', description: "MigrateRepoOptions options for migrating repository's\nthis is used to interact with api v1" },
);
export type MigrateRepoOptions = Static<typeof MigrateRepoOptionsSchema>;
