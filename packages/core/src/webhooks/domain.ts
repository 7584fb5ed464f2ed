import { defineDomain } from '../domain.js';
import { WebhooksService } from './service.js';

/** Webhook tasks are written in the transaction of the event that causes them; the delivery worker is woken after it. */
export const webhooksDomain = defineDomain({
  name: 'webhooks',
  subscribe(ctx) {
    ctx.service(WebhooksService).subscribe();
  },
  secrets: [{ kind: 'webhook authorization headers', reencrypt: (ctx, tx, rekey) => ctx.service(WebhooksService).reencryptSecrets(tx, rekey) }],
});
