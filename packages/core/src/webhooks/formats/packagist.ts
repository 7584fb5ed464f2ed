/**
 * Packagist (services/webhook/packagist.go): asks Packagist to update one package; sent on push only.
 * Settings: `package_url` (required), `username` and `api_token` (with both, the request goes to Packagist's
 * `update-package` endpoint with them, as Forgejo's form builds the hook URL; otherwise to the hook's URL).
 */
import { ValidationError } from '../../errors.js';
import { isHttpUrl } from '../../urls.js';
import { goJson, queryEscape } from './common.js';
import type { HookFormatter } from './types.js';

export const PACKAGIST_FORMATTER: HookFormatter = {
  parseConfig(config) {
    const packageUrl = config.package_url;
    if (packageUrl === undefined || packageUrl === '') throw new ValidationError('', 'Missing config option: package_url');
    if (!isHttpUrl(packageUrl)) throw new ValidationError('', 'Invalid package_url');
    return { username: config.username ?? '', api_token: config.api_token ?? '', package_url: packageUrl };
  },
  format(event, _payload, hook) {
    if (event !== 'push') return undefined;
    const meta = hook.meta;
    const username = typeof meta.username === 'string' ? meta.username : '';
    const token = typeof meta.api_token === 'string' ? meta.api_token : '';
    const packageUrl = typeof meta.package_url === 'string' ? meta.package_url : '';
    const url =
      username !== '' && token !== ''
        ? `https://packagist.org/api/update-package?username=${queryEscape(username)}&apiToken=${queryEscape(token)}`
        : undefined;
    return { ...(url === undefined ? {} : { url }), contentType: 'application/json', body: goJson({ repository: { url: packageUrl } }) };
  },
};
