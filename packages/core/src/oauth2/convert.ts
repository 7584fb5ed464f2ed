import { isoTime } from '../wire.js';
import type { ApiOAuth2Application } from './schemas.js';
import { redirectUrisOf, type OAuth2Application } from './tables.js';

/** The API view of an application; `secret` only in the response that generated it. */
export function toApiOAuth2Application(app: OAuth2Application, secret = ''): ApiOAuth2Application {
  return {
    id: app.id,
    name: app.name,
    client_id: app.client_id,
    client_secret: secret,
    confidential_client: app.confidential_client === 1,
    redirect_uris: redirectUrisOf(app),
    created: isoTime(app.created_unix),
  };
}
