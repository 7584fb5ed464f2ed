import { defineDomain } from '../domain.js';
import { ActionsService } from './service.js';
import { RunnersService } from './runners.js';
import { RunsService } from './runs.js';

/**
 * Actions: a repository's or an account's secrets, variables, runner registration tokens and runners go with it (its
 * `repo.deleted` and `user.deleted` handlers), and the secrets and registration tokens, encrypted, move with
 * `repohost admin regenerate secrets`.
 */
export const actionsDomain = defineDomain({
  name: 'actions',
  subscribe(ctx) {
    ctx.service(ActionsService).subscribe();
    ctx.service(RunnersService).subscribe();
    ctx.service(RunsService).subscribe();
  },
  jobs: {
    // Idempotent: a run remembers the detection that made it (its trigger key), so a retried attempt adds none.
    'actions.detect': { maxAttempts: 3, timeoutSeconds: 300, handle: (ctx, run) => ctx.service(RunsService).handleDetect(run) },
  },
  secrets: [
    { kind: 'actions secrets', reencrypt: (ctx, tx, rekey) => ctx.service(ActionsService).reencryptSecrets(tx, rekey) },
    { kind: 'runner registration tokens', reencrypt: (ctx, tx, rekey) => ctx.service(RunnersService).reencryptTokens(tx, rekey) },
  ],
});
