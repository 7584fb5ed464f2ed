/**
 * The reviews folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
import './events.js';
export { reviewsDomain } from './domain.js';
export { ReviewsPort } from './port.js';
export { ReviewsService } from './service.js';
export { REVIEW_TYPES, type NewReview } from './tables.js';
