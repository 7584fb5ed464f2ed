/**
 * The protection folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { protectionDomain } from './domain.js';
export { ProtectionPort } from './port.js';
export { ProtectionService, firstMatchingRule, protectedFilesAmong, requiredStatusState, type MergeFacts } from './service.js';
export { type BranchRule } from './tables.js';
