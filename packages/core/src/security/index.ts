/**
 * The security folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { SecurityPort } from './port.js';
export { countRekey, decryptSecret, emptyRekeyCounts, encryptSecret, forEachRowInBatches, rekeySecret, type RekeyCounts, type RekeyOutcome, type SecretRekey } from './secrets.js';
export { SecurityService, networkOf } from './service.js';
