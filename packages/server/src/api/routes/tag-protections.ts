import { Type } from '@sinclair/typebox';
import { CreateTagProtectionOptionSchema, EditTagProtectionOptionSchema, TagProtectionSchema } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** Go's `strconv.ParseInt` syntax, as Forgejo reads an `{id}` path parameter (anything else reads as 0: not found). */
const PATH_ID = /^[+-]?\d{1,19}$/;
const pathId = (value: string) => (PATH_ID.test(value) ? Number(value) : 0);

/** `/repos/{owner}/{repo}/tag_protections…`: who may create, move and delete which tags, for administrators. */
export function registerTagProtectionRoutes(_router: ApiRouter, { repo }: Groups): void {
  // Forgejo's reqToken and reqAdmin, after the repository was found and before the body is read.
  const rules = repo.nest('/tag_protections', async ({ host, actor, repo }) => {
    host.protection.assertRepoAdmin(actor, repo);
    return {};
  });

  rules.add({
    method: 'GET',
    path: '',
    operationId: 'repoListTagProtection',
    summary: 'List tag protections for a repository',
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 200, description: 'TagProtectionList', schema: Type.Array(TagProtectionSchema) },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo }) => host.protection.listTagRules(actor, repo),
  });

  rules.add({
    method: 'POST',
    path: '',
    operationId: 'repoCreateTagProtection',
    summary: 'Create a tag protections for a repository',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    body: CreateTagProtectionOptionSchema,
    reply: { status: 201, description: 'TagProtection', schema: TagProtectionSchema },
    errors: ['unauthorized', 'bad_request', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, body }) => host.protection.createTagRule(actor, repo, body),
  });

  rules.add({
    method: 'GET',
    path: '/{id}',
    operationId: 'repoGetTagProtection',
    summary: 'Get a specific tag protection for the repository',
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 200, description: 'TagProtection', schema: TagProtectionSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, params }) => host.protection.getTagRule(actor, repo, pathId(params.id)),
  });

  rules.add({
    method: 'PATCH',
    path: '/{id}',
    operationId: 'repoEditTagProtection',
    summary: 'Edit a tag protections for a repository. Only fields that are set will be changed',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    body: EditTagProtectionOptionSchema,
    reply: { status: 200, description: 'TagProtection', schema: TagProtectionSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, params, body }) => host.protection.editTagRule(actor, repo, pathId(params.id), body),
  });

  rules.add({
    method: 'DELETE',
    path: '/{id}',
    operationId: 'repoDeleteTagProtection',
    summary: 'Delete a specific tag protection for the repository',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, params }) => {
      await host.protection.deleteTagRule(actor, repo, pathId(params.id));
    },
  });
}
