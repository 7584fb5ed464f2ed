/**
 * The pulls folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { PullAutoMergeService } from './auto-merge.js';
export { toApiPullRequest } from './convert.js';
export { pullsDomain } from './domain.js';
export { type PullEventBase } from './events.js';
export { PullUpdateService } from './merge-update.js';
export { PullMergeService } from './merge.js';
export { PullsPort } from './port.js';
export { type PullReviewReader, type ReviewSummary } from './review-reader.js';
export { PullsService, type PullDetails } from './service.js';
export { PULL_STATUS, pullHeadRef, type NewPullRequest, type Pull, type PullRequest } from './tables.js';
