import { Type } from '@sinclair/typebox';
import {
  CreateLabelOptionSchema,
  DeleteLabelsOptionSchema,
  EditLabelOptionSchema,
  IssueLabelsOptionSchema,
  LabelSchema,
  LabelSortSchema,
  repoWebPath,
  toApiLabel,
  toApiOrgLabel,
} from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/**
 * Labels: a repository's (`/repos/{owner}/{repo}/labels`), an organization's (`/orgs/{org}/labels`), and those an
 * issue carries (`/repos/{owner}/{repo}/issues/{index}/labels`).
 */
export function registerLabelRoutes(_router: ApiRouter, { repo, issue, org }: Groups): void {
  // ---- repository labels ----

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

  repo.add({
    method: 'POST',
    path: '/labels',
    operationId: 'issueCreateLabel',
    summary: 'Create a label',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: CreateLabelOptionSchema,
    reply: { status: 201, description: 'Label', schema: LabelSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, body, view }) => toApiLabel(await host.labels.createInRepo(actor, repo, body), repoWebPath(repo.owner, repo.repo), view.settings),
  });

  repo.add({
    method: 'GET',
    path: '/labels/{id}',
    operationId: 'issueGetLabel',
    summary: 'Get a single label',
    tag: 'issue',
    scopes: ['issue'],
    reply: { status: 200, description: 'Label', schema: LabelSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, params, view }) => toApiLabel(await host.labels.getOfRepo(actor, repo, params.id), repoWebPath(repo.owner, repo.repo), view.settings),
  });

  repo.add({
    method: 'PATCH',
    path: '/labels/{id}',
    operationId: 'issueEditLabel',
    summary: 'Update a label',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: EditLabelOptionSchema,
    reply: { status: 200, description: 'Label', schema: LabelSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, params, body, view }) =>
      toApiLabel(await host.labels.editInRepo(actor, repo, params.id, body), repoWebPath(repo.owner, repo.repo), view.settings),
  });

  repo.add({
    method: 'DELETE',
    path: '/labels/{id}',
    operationId: 'issueDeleteLabel',
    summary: 'Delete a label',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found', 'locked'],
    handler: async ({ host, actor, repo, params }) => host.labels.deleteInRepo(actor, repo, params.id),
  });

  // ---- organization labels ----

  org.add({
    method: 'GET',
    path: '/labels',
    operationId: 'orgListLabels',
    summary: "List an organization's labels",
    tag: 'organization',
    scopes: ['organization'],
    query: Type.Object({ sort: Type.Optional(LabelSortSchema) }),
    reply: { status: 200, description: 'LabelList', list: LabelSchema },
    errors: ['not_found'],
    handler: async ({ host, actor, org, query, page, view }) => {
      const result = await host.labels.listOfOrg(actor, org, { ...page, sort: query.sort });
      return { items: result.items.map((label) => toApiOrgLabel(label, org.name, view.settings)), total: result.total };
    },
  });

  org.add({
    method: 'POST',
    path: '/labels',
    operationId: 'orgCreateLabel',
    summary: 'Create a label for an organization',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    body: CreateLabelOptionSchema,
    reply: { status: 201, description: 'Label', schema: LabelSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, org, body, view }) => toApiOrgLabel(await host.labels.createInOrg(actor, org, body), org.name, view.settings),
  });

  org.add({
    method: 'GET',
    path: '/labels/{id}',
    operationId: 'orgGetLabel',
    summary: 'Get a single label',
    tag: 'organization',
    // Forgejo asks for a token here, unlike the list.
    auth: 'token',
    scopes: ['organization'],
    reply: { status: 200, description: 'Label', schema: LabelSchema },
    errors: ['unauthorized', 'not_found'],
    handler: async ({ host, actor, org, params, view }) => toApiOrgLabel(await host.labels.getOfOrg(actor, org, params.id), org.name, view.settings),
  });

  org.add({
    method: 'PATCH',
    path: '/labels/{id}',
    operationId: 'orgEditLabel',
    summary: 'Update a label',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    body: EditLabelOptionSchema,
    reply: { status: 200, description: 'Label', schema: LabelSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation'],
    handler: async ({ host, actor, org, params, body, view }) => toApiOrgLabel(await host.labels.editInOrg(actor, org, params.id, body), org.name, view.settings),
  });

  org.add({
    method: 'DELETE',
    path: '/labels/{id}',
    operationId: 'orgDeleteLabel',
    summary: 'Delete a label',
    tag: 'organization',
    auth: 'token',
    scopes: ['organization'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, org, params }) => host.labels.deleteInOrg(actor, org, params.id),
  });

  // ---- labels on an issue ----

  issue.add({
    method: 'GET',
    path: '/labels',
    operationId: 'issueGetLabels',
    summary: "Get an issue's labels",
    tag: 'issue',
    scopes: ['issue'],
    reply: { status: 200, description: 'LabelListWithoutPagination', schema: Type.Array(LabelSchema) },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, issue, view }) => {
      const path = repoWebPath(repo.owner, repo.repo);
      return (await host.issueLabels.list(actor, repo, issue)).map((label) => toApiLabel(label, path, view.settings));
    },
  });

  issue.add({
    method: 'POST',
    path: '/labels',
    operationId: 'issueAddLabel',
    summary: 'Add a label to an issue',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: IssueLabelsOptionSchema,
    reply: { status: 200, description: 'LabelListWithoutPagination', schema: Type.Array(LabelSchema) },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, issue, body, view }) => {
      const path = repoWebPath(repo.owner, repo.repo);
      const labels = await host.issueLabels.add(actor, repo, issue, body.labels, { updatedAt: body.updated_at });
      return labels.map((label) => toApiLabel(label, path, view.settings));
    },
  });

  issue.add({
    method: 'PUT',
    path: '/labels',
    operationId: 'issueReplaceLabels',
    summary: "Replace an issue's labels",
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: IssueLabelsOptionSchema,
    reply: { status: 200, description: 'LabelListWithoutPagination', schema: Type.Array(LabelSchema) },
    errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, issue, body, view }) => {
      const path = repoWebPath(repo.owner, repo.repo);
      const labels = await host.issueLabels.replace(actor, repo, issue, body.labels, { updatedAt: body.updated_at });
      return labels.map((label) => toApiLabel(label, path, view.settings));
    },
  });

  issue.add({
    method: 'DELETE',
    path: '/labels',
    operationId: 'issueClearLabels',
    summary: 'Remove all labels from an issue',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: DeleteLabelsOptionSchema,
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, issue, body }) => host.issueLabels.clear(actor, repo, issue, { updatedAt: body.updated_at }),
  });

  issue.add({
    method: 'DELETE',
    path: '/labels/{identifier}',
    operationId: 'issueRemoveLabel',
    summary: 'Remove a label from an issue',
    tag: 'issue',
    auth: 'token',
    scopes: ['issue'],
    body: DeleteLabelsOptionSchema,
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, issue, params, body }) => host.issueLabels.remove(actor, repo, issue, params.identifier, { updatedAt: body.updated_at }),
  });
}
