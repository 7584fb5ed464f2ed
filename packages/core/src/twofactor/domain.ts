import { defineDomain } from '../domain.js';
import { TwoFactorService } from './service.js';

/** Two-factor authentication contributes only its encrypted TOTP secrets (to `repohost admin regenerate secrets`). */
export const twoFactorDomain = defineDomain({
  name: 'twofactor',
  secrets: [{ kind: 'two-factor secrets', reencrypt: (ctx, tx, rekey) => ctx.service(TwoFactorService).reencryptSecrets(tx, rekey) }],
});
