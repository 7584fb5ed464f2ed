import { defineDomain } from '../domain.js';
import { ActionsService } from './service.js';

/**
 * Actions: a repository's or an account's secrets and variables go with it (its `repo.deleted` and `user.deleted`
 * handlers), and the secrets, encrypted, move with `repohost admin regenerate secrets`.
 */
export const actionsDomain = defineDomain({
  name: 'actions',
  subscribe(ctx) {
    ctx.service(ActionsService).subscribe();
  },
  secrets: [{ kind: 'actions secrets', reencrypt: (ctx, tx, rekey) => ctx.service(ActionsService).reencryptSecrets(tx, rekey) }],
});
