/**
 * The oauth2 folder's public surface: what other folders may import from it. Everything else in the folder (its
 * stores above all) is private; `test/domain-layers.test.ts` checks that imports from outside come through here.
 */
export { oauth2Domain } from './domain.js';
export { OAuth2Port } from './port.js';
export { OAuth2ProviderService } from './provider.js';
export { OAuth2Service } from './service.js';
