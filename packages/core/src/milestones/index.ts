/**
 * The milestones folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
import './issues.js';
export { toApiMilestone } from './convert.js';
export { milestonesDomain } from './domain.js';
export { MilestonesPort } from './port.js';
export { MilestoneSchema, type ApiMilestone } from './schemas.js';
export { MilestonesService } from './service.js';
export { type Milestone } from './tables.js';
