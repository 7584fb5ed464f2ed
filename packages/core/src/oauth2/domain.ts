import { defineDomain } from '../domain.js';
import { OAuth2Service } from './service.js';
import { OAuth2ProviderService } from './provider.js';

/** OAuth2 applications go with their accounts; so do the provider's grants, tokens, codes and sign-in sessions. */
export const oauth2Domain = defineDomain({
  name: 'oauth2',
  subscribe(ctx) {
    ctx.service(OAuth2Service).subscribe();
    ctx.service(OAuth2ProviderService).subscribe();
  },
});
