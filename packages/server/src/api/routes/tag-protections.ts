import { CreateTagProtectionOptionSchema, EditTagProtectionOptionSchema, TagProtectionSchema } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { pathId } from './common.js';
import { addRuleRoutes } from './protection-rules.js';

/** `/repos/{owner}/{repo}/tag_protections…`: who may create, move and delete which tags, for administrators. */
export function registerTagProtectionRoutes(_router: ApiRouter, { tagProtections }: Groups): void {
  addRuleRoutes(tagProtections, {
    kind: 'Tag',
    param: 'id',
    key: pathId,
    schemas: [TagProtectionSchema, CreateTagProtectionOptionSchema, EditTagProtectionOptionSchema],
    deleteErrors: ['unauthorized', 'forbidden', 'not_found'],
    operations: (protection) => ({
      list: (actor, repo) => protection.listTagRules(actor, repo),
      create: (actor, repo, input) => protection.createTagRule(actor, repo, input),
      get: (actor, repo, id) => protection.getTagRule(actor, repo, id),
      edit: (actor, repo, id, input) => protection.editTagRule(actor, repo, id, input),
      delete: (actor, repo, id) => protection.deleteTagRule(actor, repo, id),
    }),
  });
}
