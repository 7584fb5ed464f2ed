/**
 * Every route module, in registration order: the one place a new domain's routes are added.
 */
import type { ApiRouter } from '../router.js';
import { defineGroups, type Groups } from '../groups.js';
import { registerMiscRoutes } from './misc.js';
import { registerUserRoutes } from './users.js';
import { registerTokenRoutes } from './tokens.js';
import { registerRepoRoutes } from './repos.js';
import { registerAdminRoutes } from './admin.js';

const ROUTE_MODULES: readonly ((router: ApiRouter, groups: Groups) => void)[] = [
  registerMiscRoutes,
  registerUserRoutes,
  registerTokenRoutes,
  registerRepoRoutes,
  registerAdminRoutes,
];

export function registerRoutes(router: ApiRouter): void {
  const groups = defineGroups(router);
  for (const register of ROUTE_MODULES) register(router, groups);
}
