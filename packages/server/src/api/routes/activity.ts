import { Type, type Static, type TObject } from '@sinclair/typebox';
import {
  ActivitySchema,
  RepoActivityFeedsQuerySchema,
  UserActivityFeedsQuerySchema,
  UserHeatmapDataSchema,
  toApiActivity,
  type ActivityEntry,
  type Page,
  type PageRequest,
} from '@repohost/core';
import { mapPage, type ApiRouter, type RouteGroup } from '../router.js';
import type { Groups } from '../groups.js';
import type { RequestBase } from '../contract.js';

/** `GET …/activities/feeds` of what a group loaded: a page of its activities, read by `feed`. */
function addFeed<P extends string, Loaded, Q extends TObject>(
  group: RouteGroup<P, Loaded, true>,
  operationId: string,
  summary: string,
  query: Q,
  feed: (ctx: RequestBase<unknown> & Loaded & { query: Static<Q> }, page: PageRequest) => Promise<Page<ActivityEntry>>,
): void {
  group.add({
    method: 'GET',
    path: '/activities/feeds',
    operationId,
    summary,
    query,
    reply: { status: 200, description: 'ActivityFeedsList', list: ActivitySchema },
    errors: ['not_found'],
    handler: async (ctx) => {
      const result = await feed(ctx, ctx.page);
      return mapPage(result, (entry) => toApiActivity(entry, ctx.view));
    },
  });
}

/** Activity feeds of accounts, organizations, teams and repositories, and accounts' heatmaps. */
export function registerActivityRoutes(_router: ApiRouter, { user, repo, org, team }: Groups): void {
  addFeed(user, 'userListActivityFeeds', "List a user's activity feeds", UserActivityFeedsQuerySchema, ({ host, actor, user, query }, page) =>
    host.activity.userFeed(actor, user, query, page),
  );

  user.add({
    method: 'GET',
    path: '/heatmap',
    operationId: 'userGetHeatmapData',
    summary: "Get a user's heatmap",
    reply: { status: 200, description: 'UserHeatmapData', schema: Type.Array(UserHeatmapDataSchema) },
    errors: ['not_found'],
    handler: async ({ host, actor, user }) => host.activity.heatmap(actor, user),
  });

  addFeed(repo, 'repoListActivityFeeds', "List a repository's activity feeds", RepoActivityFeedsQuerySchema, ({ host, actor, repo, query }, page) =>
    host.activity.repoFeed(actor, repo, query, page),
  );
  addFeed(org, 'orgListActivityFeeds', "List an organization's activity feeds", RepoActivityFeedsQuerySchema, ({ host, actor, org, query }, page) =>
    host.activity.orgFeed(actor, org, query, page),
  );
  addFeed(team, 'orgListTeamActivityFeeds', "List a team's activity feeds", RepoActivityFeedsQuerySchema, ({ host, actor, teamAccess, query }, page) =>
    host.activity.teamFeed(actor, teamAccess.org, teamAccess.team, query, page),
  );
}
