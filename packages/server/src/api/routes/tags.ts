import { CreateTagOptionSchema, TagSchema } from '@repohost/core';
import type { ApiRouter } from '../router.js';
import type { Groups } from '../groups.js';
import { addRefRoutes } from './refs.js';

/** `/repos/{owner}/{repo}/tags…`. */
export function registerTagRoutes(_router: ApiRouter, groups: Groups): void {
  addRefRoutes(groups, {
    path: '/tags',
    param: 'tag',
    name: 'Tag',
    plural: 'Tags',
    schema: TagSchema,
    create: CreateTagOptionSchema,
    summaries: ["List a repository's tags", 'Create a new git tag in a repository', 'Get the tag of a repository by tag name', "Delete a repository's tag by name"],
    service: (host) => host.tags,
  });
}
