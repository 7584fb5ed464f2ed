/**
 * The times folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { secondsToText, toApiTrackedTime } from './convert.js';
export { timesDomain } from './domain.js';
export { TimesPort } from './port.js';
export { TrackedTimeSchema, type ApiTrackedTime } from './schemas.js';
export { TimesService } from './service.js';
