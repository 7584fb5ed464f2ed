/**
 * The contents folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { ContentsService } from './service.js';
export { ForkSyncService } from './fork-sync.js';
