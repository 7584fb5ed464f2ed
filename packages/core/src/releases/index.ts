/**
 * The releases folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
import './events.js';
export { ReleaseAssetsService } from './assets.js';
export { toApiRelease, type ReleaseDetails } from './convert.js';
export { releasesDomain } from './domain.js';
export { ReleasesPort } from './port.js';
export { ReleasesService } from './service.js';
