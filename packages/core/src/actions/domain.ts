import { defineDomain } from '../domain.js';
import { ActionsService } from './service.js';
import { RunnersService } from './runners.js';

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
  },
  secrets: [
    { kind: 'actions secrets', reencrypt: (ctx, tx, rekey) => ctx.service(ActionsService).reencryptSecrets(tx, rekey) },
    { kind: 'runner registration tokens', reencrypt: (ctx, tx, rekey) => ctx.service(RunnersService).reencryptTokens(tx, rekey) },
  ],
});
