import { defineDomain } from '../domain.js';
import { PushMirrorsService } from './service.js';

/** Push mirrors go with their repository; a push queues those that sync on commit. */
export const pushMirrorsDomain = defineDomain({
  name: 'pushmirrors',
  subscribe(ctx) {
    ctx.service(PushMirrorsService).subscribe();
  },
  jobs: {
    // One attempt: a failed push is recorded in the mirror's last_error; the next push, commit or interval tries again.
    'pushmirror.sync': { maxAttempts: 1, timeoutSeconds: 3600, handle: (ctx, run) => ctx.service(PushMirrorsService).handleSync(run) },
  },
  secrets: [{ kind: 'push mirror credentials', reencrypt: (ctx, tx, rekey) => ctx.service(PushMirrorsService).reencryptSecrets(tx, rekey) }],
});
