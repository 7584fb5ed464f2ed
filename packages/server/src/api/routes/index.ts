/**
 * Every route module, in registration order: the one place a new domain's routes are added.
 */
import type { ApiRouter } from '../router.js';
import { defineGroups, type Groups } from '../groups.js';
import { registerMiscRoutes } from './misc.js';
import { registerTemplateRoutes } from './templates.js';
import { registerUserRoutes } from './users.js';
import { registerTokenRoutes } from './tokens.js';
import { registerRepoRoutes } from './repos.js';
import { registerAdminRoutes } from './admin.js';
import { registerRepoSearchRoutes } from './repo-search.js';
import { registerTopicRoutes } from './topics.js';
import { registerRepoArchiveRoutes } from './repo-archive.js';
import { registerRepoLanguageRoutes } from './repo-languages.js';
import { registerLabelRoutes } from './labels.js';

const ROUTE_MODULES: readonly ((router: ApiRouter, groups: Groups) => void)[] = [
  registerMiscRoutes,
  registerTemplateRoutes,
  registerUserRoutes,
  registerTokenRoutes,
  registerRepoRoutes,
  registerAdminRoutes,
  registerRepoSearchRoutes,
  registerTopicRoutes,
  registerRepoArchiveRoutes,
  registerRepoLanguageRoutes,
  registerLabelRoutes,
];

export function registerRoutes(router: ApiRouter): void {
  const groups = defineGroups(router);
  for (const register of ROUTE_MODULES) register(router, groups);
}
