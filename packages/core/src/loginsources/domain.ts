import { defineDomain } from '../domain.js';
import { LoginSourcesService } from './service.js';

/** Login sources check sign-ins for the users domain, which sits below them (`users/directory.ts`). */
export const loginSourcesDomain = defineDomain({
  name: 'loginsources',
  provide(ctx) {
    // Sign-in asks the directories: for an account bound to one, and for a name no account has (auto-registration).
    ctx.provide('users.directory', ctx.service(LoginSourcesService));
  },
  secrets: [{ kind: 'LDAP bind passwords', reencrypt: (ctx, tx, rekey) => ctx.service(LoginSourcesService).reencryptSecrets(tx, rekey) }],
});
