import { isoTime } from '../wire.js';
import type { ApiActionVariable, ApiSecret } from './schemas.js';
import type { SecretListing } from './store.js';
import type { ActionVariable } from './tables.js';

/** Forgejo's `Secret`: the name and the creation time; a value never leaves the server. */
export function toApiSecret(secret: SecretListing): ApiSecret {
  return { name: secret.name, created_at: isoTime(secret.created_unix) };
}

/** Forgejo's `ActionVariable`. */
export function toApiActionVariable(variable: ActionVariable): ApiActionVariable {
  return { owner_id: variable.owner_id, repo_id: variable.repo_id, name: variable.name, data: variable.data };
}
