/**
 * The activity folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { activityDomain } from './domain.js';
export { type ActivityEntry } from './convert.js';
export { ActivityService } from './service.js';
export { opTypeName } from './tables.js';
export { type ActivityTables } from './tables.js';
