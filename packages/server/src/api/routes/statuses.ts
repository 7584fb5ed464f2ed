import { Type, type Static } from '@sinclair/typebox';
import {
  apiUrl,
  CombinedStatusSchema,
  CommitStatusSchema,
  CommitStatusSortSchema,
  CreateStatusOptionSchema,
  repoWebPath,
  StringEnum,
  toApiCommitStatus,
  toApiRepository,
  type Actor,
  type ApiView,
  type PageRequest,
  type RepoAccess,
  type RepoHost,
} from '@repohost/core';
import { mapPage, type ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** What a status list handler uses of its request. */
interface ListContext {
  host: RepoHost;
  actor: Actor;
  repo: RepoAccess;
  query: Static<typeof StatusListQuery>;
  page: PageRequest;
  view: ApiView;
}

const StatusListQuery = Type.Object({
  sort: Type.Optional(CommitStatusSortSchema),
  state: Type.Optional(StringEnum(['pending', 'success', 'error', 'failure', 'warning'] as const, { description: 'type of state' })),
});

/** `/repos/{owner}/{repo}/statuses/{sha}` and `/commits/{ref}/status[es]`: statuses CI systems report. */
export function registerStatusRoutes(_router: ApiRouter, { repo }: Groups): void {
  repo.add({
    method: 'POST',
    path: '/statuses/{sha}',
    operationId: 'repoCreateStatus',
    summary: 'Create a commit status',
    auth: 'token',
    body: CreateStatusOptionSchema,
    reply: { status: 201, description: 'CommitStatus', schema: CommitStatusSchema },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, params, body, view }) => {
      const { status, creator } = await host.commitStatuses.create(actor, repo, params.sha, body);
      return toApiCommitStatus(status, repoWebPath(repo.owner, repo.repo), creator, view);
    },
  });

  const listStatuses = async ({ host, actor, repo, query, page, view }: ListContext, target: { sha: string } | { ref: string }) => {
    const result = await host.commitStatuses.list(actor, repo, target, { ...page, ...query });
    const repoPath = repoWebPath(repo.owner, repo.repo);
    return mapPage(result, (s) => toApiCommitStatus(s, repoPath, result.creators.get(s.creator_id), view));
  };
  repo.add({
    method: 'GET',
    path: '/statuses/{sha}',
    operationId: 'repoListStatuses',
    summary: "Get a commit's statuses",
    query: StatusListQuery,
    reply: { status: 200, description: 'CommitStatusList', list: CommitStatusSchema },
    errors: ['bad_request', 'not_found', 'validation'],
    handler: (ctx) => listStatuses(ctx, { sha: ctx.params.sha }),
  });
  repo.add({
    method: 'GET',
    path: '/commits/{ref}/statuses',
    operationId: 'repoListStatusesByRef',
    summary: "Get a commit's statuses, by branch/tag/commit reference",
    query: StatusListQuery,
    reply: { status: 200, description: 'CommitStatusList', list: CommitStatusSchema },
    errors: ['bad_request', 'not_found'],
    handler: (ctx) => listStatuses(ctx, { ref: ctx.params.ref }),
  });

  repo.add({
    method: 'GET',
    path: '/commits/{ref}/status',
    operationId: 'repoGetCombinedStatusByRef',
    summary: "Get a commit's combined status, by branch/tag/commit reference",
    query: Type.Object({
      page: Type.Optional(Type.Integer({ description: 'page number of results to return (1-based)' })),
      limit: Type.Optional(Type.Integer({ description: 'page size of results' })),
    }),
    reply: { status: 200, description: 'CombinedStatus', schema: CombinedStatusSchema },
    errors: ['bad_request', 'not_found'],
    handler: async ({ host, actor, repo, params, query, view }) => {
      const combined = await host.commitStatuses.combined(actor, repo, params.ref, query);
      // Forgejo answers a commit without statuses with an empty record.
      if (combined.items.length === 0 && combined.total === 0) {
        return { state: '' as const, sha: '', total_count: 0, statuses: null, repository: null, commit_url: '', url: '' };
      }
      const repoPath = repoWebPath(repo.owner, repo.repo);
      return {
        state: combined.state,
        sha: combined.sha,
        total_count: combined.total,
        statuses: combined.items.map((s) => toApiCommitStatus(s, repoPath, combined.creators.get(s.creator_id), view)),
        repository: toApiRepository(repo, view),
        commit_url: apiUrl(view.settings, `/repos/${repoPath}/commits/${combined.sha}`),
        url: apiUrl(view.settings, `/repos/${repoPath}/commits/${combined.sha}/status`),
      };
    },
  });
}
