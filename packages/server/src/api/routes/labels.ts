import { Type } from '@sinclair/typebox';
import { LabelSchema, LabelSortSchema, repoWebPath, toApiLabel } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** `/repos/{owner}/{repo}/labels`: reading a repository's labels (writing them comes with the issue tracker). */
export function registerLabelRoutes(_router: ApiRouter, { repo }: Groups): void {
  repo.add({
    method: 'GET',
    path: '/labels',
    operationId: 'issueListLabels',
    summary: "Get all of a repository's labels",
    tag: 'issue',
    scopes: ['issue'],
    query: Type.Object({ sort: Type.Optional(LabelSortSchema) }),
    reply: { status: 200, description: 'LabelList', list: LabelSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, query, page, view }) => {
      const result = await host.labels.listOfRepo(actor, repo, { ...page, sort: query.sort });
      const path = repoWebPath(repo.owner, repo.repo);
      return { items: result.items.map((label) => toApiLabel(label, path, view.settings)), total: result.total };
    },
  });
}
