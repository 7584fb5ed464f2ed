import {
  CreateMilestoneOptionSchema,
  EditMilestoneOptionSchema,
  MilestoneListQuerySchema,
  MilestoneSchema,
  toApiMilestone,
} from '@repohost/core';
import { mapPage, type ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** `/repos/{owner}/{repo}/milestones…`: a repository's milestones; `{id}` is an id, or else a name. */
export function registerMilestoneRoutes(_router: ApiRouter, { repoIssues }: Groups): void {
  repoIssues.add({
    method: 'GET',
    path: '/milestones',
    operationId: 'issueGetMilestonesList',
    summary: "Get all of a repository's opened milestones",
    query: MilestoneListQuerySchema,
    reply: { status: 200, description: 'MilestoneList', list: MilestoneSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, query, page }) => mapPage(await host.milestones.list(actor, repo, query, page), toApiMilestone),
  });

  repoIssues.add({
    method: 'POST',
    path: '/milestones',
    operationId: 'issueCreateMilestone',
    summary: 'Create a milestone',
    auth: 'token',
    body: CreateMilestoneOptionSchema,
    reply: { status: 201, description: 'Milestone', schema: MilestoneSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, body }) => toApiMilestone(await host.milestones.create(actor, repo, body)),
  });

  repoIssues.add({
    method: 'GET',
    path: '/milestones/{id}',
    operationId: 'issueGetMilestone',
    summary: 'Get a milestone',
    reply: { status: 200, description: 'Milestone', schema: MilestoneSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, params }) => toApiMilestone(await host.milestones.resolve(actor, repo, params.id)),
  });

  repoIssues.add({
    method: 'PATCH',
    path: '/milestones/{id}',
    operationId: 'issueEditMilestone',
    summary: 'Update a milestone',
    auth: 'token',
    body: EditMilestoneOptionSchema,
    reply: { status: 200, description: 'Milestone', schema: MilestoneSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, repo, params, body }) => {
      // Forgejo checks the writer before it looks the milestone up.
      host.milestones.assertWriter(actor, repo);
      const milestone = await host.milestones.resolve(actor, repo, params.id);
      return toApiMilestone(await host.milestones.edit(actor, repo, milestone, body));
    },
  });

  repoIssues.add({
    method: 'DELETE',
    path: '/milestones/{id}',
    operationId: 'issueDeleteMilestone',
    summary: 'Delete a milestone',
    auth: 'token',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, params }) => {
      host.milestones.assertWriter(actor, repo);
      await host.milestones.delete(actor, repo, await host.milestones.resolve(actor, repo, params.id));
    },
  });
}
