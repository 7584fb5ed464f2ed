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
  type ApiLabel,
  type ApiView,
  type CreateLabelOption,
  type EditLabelOption,
  type Label,
  type LabelSort,
  type Page,
  type PageRequest,
  type RepoAccess,
  type RepoHostErrorKind,
} from '@repohost/core';
import type { RequestBase } from '../contract.js';
import { mapPage, type ApiRouter, type RouteGroup } from '../router.js';
import type { Groups } from '../groups.js';
import { EMPTY } from './common.js';

/** A repository's labels as the wire shows them. */
function repoLabels(repo: RepoAccess, view: ApiView, labels: readonly Label[]): ApiLabel[] {
  const path = repoWebPath(repo.owner, repo.repo);
  return labels.map((label) => toApiLabel(label, path, view.settings));
}

/** A label owner's labels, as its routes reach them. */
interface OwnedLabels {
  list(paging: PageRequest & { sort?: LabelSort }): Promise<Page<Label>>;
  create(input: CreateLabelOption): Promise<Label>;
  get(id: string): Promise<Label>;
  edit(id: string, input: EditLabelOption): Promise<Label>;
  delete(id: string): Promise<void>;
  toApi(label: Label): ApiLabel;
}

/** What a repository's label routes and an organization's differ in. */
interface LabelOwner<Loaded> {
  /** Operation ids' prefix: `issue`, `org`. */
  prefix: string;
  /** Of the list and the creation (the others are worded alike). */
  summaries: readonly [string, string];
  /** `locked` where changes refuse an archived repository. */
  locked: readonly RepoHostErrorKind[];
  /** Reading one label, where it is not as the list (anyone who sees the owner). */
  get?: { auth: 'token'; errors: readonly RepoHostErrorKind[] };
  labels: (ctx: RequestBase<unknown> & Loaded) => OwnedLabels;
}

/** `…/labels` (list, create) and `…/labels/{id}` (read, edit, delete) of the owner the group loaded. */
function addLabelRoutes<P extends string, Loaded>(group: RouteGroup<P, Loaded, true>, owner: LabelOwner<Loaded>): void {
  const { prefix, summaries, locked, labels } = owner;
  group.add({
    method: 'GET',
    path: '/labels',
    operationId: `${prefix}ListLabels`,
    summary: summaries[0],
    query: Type.Object({ sort: Type.Optional(LabelSortSchema) }),
    reply: { status: 200, description: 'LabelList', list: LabelSchema },
    errors: ['not_found'],
    handler: async (ctx) => {
      const owned = labels(ctx);
      return mapPage(await owned.list({ ...ctx.page, sort: ctx.query.sort }), (label) => owned.toApi(label));
    },
  });

  group.add({
    method: 'POST',
    path: '/labels',
    operationId: `${prefix}CreateLabel`,
    summary: summaries[1],
    auth: 'token',
    body: CreateLabelOptionSchema,
    reply: { status: 201, description: 'Label', schema: LabelSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', ...locked],
    handler: async (ctx) => {
      const owned = labels(ctx);
      return owned.toApi(await owned.create(ctx.body));
    },
  });

  group.add({
    method: 'GET',
    path: '/labels/{id}',
    operationId: `${prefix}GetLabel`,
    summary: 'Get a single label',
    ...(owner.get && { auth: owner.get.auth }),
    reply: { status: 200, description: 'Label', schema: LabelSchema },
    errors: owner.get?.errors ?? ['not_found'],
    handler: async (ctx) => {
      const owned = labels(ctx);
      return owned.toApi(await owned.get(ctx.params.id));
    },
  });

  group.add({
    method: 'PATCH',
    path: '/labels/{id}',
    operationId: `${prefix}EditLabel`,
    summary: 'Update a label',
    auth: 'token',
    body: EditLabelOptionSchema,
    reply: { status: 200, description: 'Label', schema: LabelSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', ...locked],
    handler: async (ctx) => {
      const owned = labels(ctx);
      return owned.toApi(await owned.edit(ctx.params.id, ctx.body));
    },
  });

  group.add({
    method: 'DELETE',
    path: '/labels/{id}',
    operationId: `${prefix}DeleteLabel`,
    summary: 'Delete a label',
    auth: 'token',
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', ...locked],
    handler: async (ctx) => labels(ctx).delete(ctx.params.id),
  });
}

/**
 * Labels: a repository's (`/repos/{owner}/{repo}/labels`), an organization's (`/orgs/{org}/labels`), and those an
 * issue carries (`/repos/{owner}/{repo}/issues/{index}/labels`).
 */
export function registerLabelRoutes(_router: ApiRouter, { repoIssues, issue, org }: Groups): void {
  // ---- a repository's labels, and an organization's ----
  addLabelRoutes(repoIssues, {
    prefix: 'issue',
    summaries: ["Get all of a repository's labels", 'Create a label'],
    locked: ['locked'],
    labels: ({ host, actor, repo }) => ({
      list: (paging) => host.labels.listOfRepo(actor, repo, paging),
      create: (input) => host.labels.createInRepo(actor, repo, input),
      get: (id) => host.labels.getOfRepo(actor, repo, id),
      edit: (id, input) => host.labels.editInRepo(actor, repo, id, input),
      delete: (id) => host.labels.deleteInRepo(actor, repo, id),
      toApi: (label) => toApiLabel(label, repoWebPath(repo.owner, repo.repo), host.settings),
    }),
  });

  // Forgejo asks for a token to read one organization label, unlike the list.
  addLabelRoutes(org, {
    prefix: 'org',
    summaries: ["List an organization's labels", 'Create a label for an organization'],
    locked: [],
    get: { auth: 'token', errors: ['unauthorized', 'not_found'] },
    labels: ({ host, actor, org }) => ({
      list: (paging) => host.labels.listOfOrg(actor, org, paging),
      create: (input) => host.labels.createInOrg(actor, org, input),
      get: (id) => host.labels.getOfOrg(actor, org, id),
      edit: (id, input) => host.labels.editInOrg(actor, org, id, input),
      delete: (id) => host.labels.deleteInOrg(actor, org, id),
      toApi: (label) => toApiOrgLabel(label, org.name, host.settings),
    }),
  });

  // ---- labels on an issue ----

  issue.add({
    method: 'GET',
    path: '/labels',
    operationId: 'issueGetLabels',
    summary: "Get an issue's labels",
    reply: { status: 200, description: 'LabelListWithoutPagination', schema: Type.Array(LabelSchema) },
    errors: ['not_found'],
    handler: async ({ host, actor, repo, issue, view }) => repoLabels(repo, view, await host.issueLabels.list(actor, repo, issue)),
  });

  for (const [method, operationId, summary, change] of [
    ['POST', 'issueAddLabel', 'Add a label to an issue', 'add'],
    ['PUT', 'issueReplaceLabels', "Replace an issue's labels", 'replace'],
  ] as const) {
    issue.add({
      method,
      path: '/labels',
      operationId,
      summary,
      auth: 'token',
      body: IssueLabelsOptionSchema,
      reply: { status: 200, description: 'LabelListWithoutPagination', schema: Type.Array(LabelSchema) },
      errors: ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
      handler: async ({ host, actor, repo, issue, body, view }) =>
        repoLabels(repo, view, await host.issueLabels[change](actor, repo, issue, body.labels, { updatedAt: body.updated_at })),
    });
  }

  issue.add({
    method: 'DELETE',
    path: '/labels',
    operationId: 'issueClearLabels',
    summary: 'Remove all labels from an issue',
    auth: 'token',
    body: DeleteLabelsOptionSchema,
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, issue, body }) => host.issueLabels.clear(actor, repo, issue, { updatedAt: body.updated_at }),
  });

  issue.add({
    method: 'DELETE',
    path: '/labels/{identifier}',
    operationId: 'issueRemoveLabel',
    summary: 'Remove a label from an issue',
    auth: 'token',
    body: DeleteLabelsOptionSchema,
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, issue, params, body }) => host.issueLabels.remove(actor, repo, issue, params.identifier, { updatedAt: body.updated_at }),
  });
}
