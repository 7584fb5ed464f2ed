/**
 * The access folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { accessDomain } from './domain.js';
export { ACCESS_MODE_NAMES, AccessMode, NO_GRANTS, UNIT_NAMES, accessModeName, accessModeOf, canSeeUser, repoPermission, unitMode, type AccessModeName, type AccessModeValue, type OwnedRepoFilter, type RepoAccessOf, type RepoPermission, type UnitName } from './permissions.js';
export { AccessPort } from './port.js';
export { AccessService } from './service.js';
