import { defineDomain } from '../domain.js';
import { GpgKeysService } from './service.js';

/** GPG keys go with their account. */
export const gpgDomain = defineDomain({
  name: 'gpg',
  subscribe(ctx) {
    ctx.service(GpgKeysService).subscribe();
  },
});
