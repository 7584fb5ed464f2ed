import { BranchProtectionSchema, CreateBranchProtectionOptionSchema, EditBranchProtectionOptionSchema } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { addRuleRoutes } from './protection-rules.js';

/** `/repos/{owner}/{repo}/branch_protections…`: a repository's branch rules, for its administrators. */
export function registerBranchProtectionRoutes(_router: ApiRouter, { branchProtections }: Groups): void {
  addRuleRoutes(branchProtections, {
    kind: 'Branch',
    param: 'name',
    key: (name) => name,
    schemas: [BranchProtectionSchema, CreateBranchProtectionOptionSchema, EditBranchProtectionOptionSchema],
    deleteErrors: ['unauthorized', 'forbidden', 'not_found', 'locked'],
    operations: (protection) => ({
      list: (actor, repo) => protection.listBranchRules(actor, repo),
      create: (actor, repo, input) => protection.createBranchRule(actor, repo, input),
      get: (actor, repo, name) => protection.getBranchRule(actor, repo, name),
      edit: (actor, repo, name, input) => protection.editBranchRule(actor, repo, name, input),
      delete: (actor, repo, name) => protection.deleteBranchRule(actor, repo, name),
    }),
  });
}
