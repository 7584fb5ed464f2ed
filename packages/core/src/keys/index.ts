/**
 * The keys folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { keysDomain } from './domain.js';
export { KeysPort } from './port.js';
export { KeysService } from './service.js';
export { keyBlobOf, verifySshSignature } from './sshsig.js';
