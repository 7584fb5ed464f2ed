import { Type } from '@sinclair/typebox';
import { ActivitySchema, RepoActivityFeedsQuerySchema, UserActivityFeedsQuerySchema, UserHeatmapDataSchema, toApiActivity } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** Activity feeds of accounts, organizations, teams and repositories, and accounts' heatmaps. */
export function registerActivityRoutes(_router: ApiRouter, { user, repo, org, team }: Groups): void {
  user.add({
    method: 'GET',
    path: '/activities/feeds',
    operationId: 'userListActivityFeeds',
    summary: "List a user's activity feeds",
    tag: 'user',
    scopes: ['user'],
    query: UserActivityFeedsQuerySchema,
    reply: { status: 200, description: 'ActivityFeedsList', list: ActivitySchema },
    errors: ['not_found'],
    handler: async ({ host, actor, user, query, page, view }) => {
      const result = await host.activity.userFeed(actor, user, query, page);
      return { items: result.items.map((entry) => toApiActivity(entry, view)), total: result.total };
    },
  });

  user.add({
    method: 'GET',
    path: '/heatmap',
    operationId: 'userGetHeatmapData',
    summary: "Get a user's heatmap",
    tag: 'user',
    scopes: ['user'],
    reply: { status: 200, description: 'UserHeatmapData', schema: Type.Array(UserHeatmapDataSchema) },
    errors: ['not_found'],
    handler: async ({ host, actor, user }) => host.activity.heatmap(actor, user),
  });

  repo.add({
    method: 'GET',
    path: '/activities/feeds',
    operationId: 'repoListActivityFeeds',
    summary: "List a repository's activity feeds",
    tag: 'repository',
    scopes: ['repository'],
    query: RepoActivityFeedsQuerySchema,
    reply: { status: 200, description: 'ActivityFeedsList', list: ActivitySchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, query, page, view }) => {
      const result = await host.activity.repoFeed(actor, repo, query, page);
      return { items: result.items.map((entry) => toApiActivity(entry, view)), total: result.total };
    },
  });

  org.add({
    method: 'GET',
    path: '/activities/feeds',
    operationId: 'orgListActivityFeeds',
    summary: "List an organization's activity feeds",
    tag: 'organization',
    scopes: ['organization'],
    query: RepoActivityFeedsQuerySchema,
    reply: { status: 200, description: 'ActivityFeedsList', list: ActivitySchema },
    errors: ['not_found'],
    handler: async ({ host, actor, org: organization, query, page, view }) => {
      const result = await host.activity.orgFeed(actor, organization, query, page);
      return { items: result.items.map((entry) => toApiActivity(entry, view)), total: result.total };
    },
  });

  team.add({
    method: 'GET',
    path: '/activities/feeds',
    operationId: 'orgListTeamActivityFeeds',
    summary: "List a team's activity feeds",
    tag: 'organization',
    scopes: ['organization'],
    query: RepoActivityFeedsQuerySchema,
    reply: { status: 200, description: 'ActivityFeedsList', list: ActivitySchema },
    errors: ['not_found'],
    handler: async ({ host, actor, teamAccess, query, page, view }) => {
      const result = await host.activity.teamFeed(actor, teamAccess.org, teamAccess.team, query, page);
      return { items: result.items.map((entry) => toApiActivity(entry, view)), total: result.total };
    },
  });
}
