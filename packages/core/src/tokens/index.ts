/**
 * The tokens folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { TokensPort } from './port.js';
export { ALL_SCOPE, PUBLIC_ONLY_SCOPE, SCOPE_CATEGORIES, normalizeScopes } from './scopes.js';
export { TokensService } from './service.js';
