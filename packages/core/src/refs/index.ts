/**
 * The refs folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { BranchesService } from './branches.js';
export { type TagReleases } from './tag-releases.js';
export { TagsService } from './tags.js';
export { moveRefs, zeroId } from './writes.js';
