import { defineDomain } from '../domain.js';
import { MirrorsService } from './service.js';

/** Pull mirrors fetch in durable jobs (their interval is queued by `update_mirrors`, in `domains.ts`). */
export const mirrorsDomain = defineDomain({
  name: 'mirrors',
  provide(ctx) {
    // A mirror's interval and pruning are edited with the repository's other settings (`PATCH /repos/{o}/{r}`).
    ctx.provide('repos.editExtension', ctx.service(MirrorsService));
  },
  jobs: {
    // One attempt: a failed fetch is recorded in the mirror's last_error; the next interval or mirror-sync tries again.
    // The fetch itself stops at `[git.timeout] MIRROR`.
    'mirror.sync': { maxAttempts: 1, timeoutSeconds: 3600, handle: (ctx, run) => ctx.service(MirrorsService).handleSync(run) },
  },
  secrets: [{ kind: 'pull mirror credentials', reencrypt: (ctx, tx, rekey) => ctx.service(MirrorsService).reencryptSecrets(tx, rekey) }],
});
