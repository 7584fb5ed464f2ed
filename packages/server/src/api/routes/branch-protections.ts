import { Type } from '@sinclair/typebox';
import { BranchProtectionSchema, CreateBranchProtectionOptionSchema, EditBranchProtectionOptionSchema } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';

/** `/repos/{owner}/{repo}/branch_protections…`: a repository's branch rules, for its administrators. */
export function registerBranchProtectionRoutes(_router: ApiRouter, { repo }: Groups): void {
  // Forgejo's reqToken and reqAdmin, after the repository was found (one the caller may not see is 404 before
  // this) and before the body is read.
  const rules = repo.nest('/branch_protections', async ({ host, actor, repo }) => {
    host.protection.assertRepoAdmin(actor, repo);
    return {};
  });

  rules.add({
    method: 'GET',
    path: '',
    operationId: 'repoListBranchProtection',
    summary: 'List branch protections for a repository',
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 200, description: 'BranchProtectionList', schema: Type.Array(BranchProtectionSchema) },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo }) => host.protection.listBranchRules(actor, repo),
  });

  rules.add({
    method: 'POST',
    path: '',
    operationId: 'repoCreateBranchProtection',
    summary: 'Create a branch protections for a repository',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    body: CreateBranchProtectionOptionSchema,
    reply: { status: 201, description: 'BranchProtection', schema: BranchProtectionSchema },
    errors: ['unauthorized', 'bad_request', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, body }) => host.protection.createBranchRule(actor, repo, body),
  });

  rules.add({
    method: 'GET',
    path: '/{name}',
    operationId: 'repoGetBranchProtection',
    summary: 'Get a specific branch protection for the repository',
    tag: 'repository',
    scopes: ['repository'],
    reply: { status: 200, description: 'BranchProtection', schema: BranchProtectionSchema },
    errors: ['unauthorized', 'forbidden', 'not_found'],
    handler: async ({ host, actor, repo, params }) => host.protection.getBranchRule(actor, repo, params.name),
  });

  rules.add({
    method: 'PATCH',
    path: '/{name}',
    operationId: 'repoEditBranchProtection',
    summary: 'Edit a branch protections for a repository. Only fields that are set will be changed',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    body: EditBranchProtectionOptionSchema,
    reply: { status: 200, description: 'BranchProtection', schema: BranchProtectionSchema },
    errors: ['unauthorized', 'forbidden', 'not_found', 'validation', 'locked'],
    handler: async ({ host, actor, repo, params, body }) => host.protection.editBranchRule(actor, repo, params.name, body),
  });

  rules.add({
    method: 'DELETE',
    path: '/{name}',
    operationId: 'repoDeleteBranchProtection',
    summary: 'Delete a specific branch protection for the repository',
    tag: 'repository',
    auth: 'token',
    scopes: ['repository'],
    reply: { status: 204, description: 'APIEmpty is an empty response' },
    errors: ['unauthorized', 'forbidden', 'not_found', 'locked'],
    handler: async ({ host, actor, repo, params }) => {
      await host.protection.deleteBranchRule(actor, repo, params.name);
    },
  });
}
