import { defineDomain } from '../domain.js';
import { FederationService } from './service.js';

/** Federation: the private keys accounts sign ActivityPub requests with are kept encrypted; an account's go with it. */
export const federationDomain = defineDomain({
  name: 'federation',
  subscribe(ctx) {
    ctx.service(FederationService).subscribe();
  },
  secrets: [{ kind: 'federation private keys', reencrypt: (ctx, tx, rekey) => ctx.service(FederationService).reencryptSecrets(tx, rekey) }],
});
