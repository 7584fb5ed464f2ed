/**
 * The gpg folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { gpgDomain } from './domain.js';
export { GpgPort } from './port.js';
export { GpgKeysService } from './service.js';
export { verifiedSigner } from './signer.js';
