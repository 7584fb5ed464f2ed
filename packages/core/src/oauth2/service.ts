import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { isSelf, isSiteAdmin, type Actor } from '../users/index.js';
import { isStorableText, nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import type { User } from '../users/index.js';
import { CreateOAuth2ApplicationOptionsSchema, type CreateOAuth2ApplicationOptions } from './schemas.js';
import { hashClientSecret, newClientId, newClientSecret, verifyClientSecret } from './secrets.js';
import type { OAuth2Application } from './tables.js';
import { OAuth2Store } from './store.js';

/** An application with the secret just generated for it; the secret is shown this once and never stored. */
export interface OAuth2ApplicationWithSecret {
  app: OAuth2Application;
  secret: string;
}

/**
 * A redirect URI the provider may send a user back to: an absolute URI (any scheme, since native clients use
 * their own, e.g. `com.example.app:/callback`) without a fragment (RFC 6749 §3.1.2).
 */
function isRedirectUri(value: string): boolean {
  if (value.trim() !== value || value === '') return false;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return false;
  }
  return parsed.hash === '' && !value.includes('#');
}

/** The fields as they will be stored, after Forgejo's checks (`binding:"Required"` on name and redirect_uris). */
function acceptFields(input: CreateOAuth2ApplicationOptions): { name: string; redirectUris: string[]; confidential: boolean } {
  const opts = acceptInput(CreateOAuth2ApplicationOptionsSchema, input);
  if (opts.name === '') throw new ValidationError('name', 'Required');
  if (opts.redirect_uris.length === 0) throw new ValidationError('redirect_uris', 'Required');
  opts.redirect_uris.forEach((uri, index) => {
    if (!isRedirectUri(uri)) throw new ValidationError(`redirect_uris.${index}`, 'must be an absolute URI without a fragment');
  });
  return { name: opts.name, redirectUris: opts.redirect_uris, confidential: opts.confidential_client === true };
}

/** Forgejo's OAuth2 applications of a user (`/user/applications/oauth2`), and what its provider will read of them. */
export class OAuth2Service {
  private readonly store: OAuth2Store;

  constructor(private readonly ctx: CoreContext) {
    this.store = ctx.store(OAuth2Store);
  }

  /** An account's applications go with it. Registered once per host. */
  subscribe(): void {
    this.ctx.events.withinTransaction('user.deleted', async ({ payload }, tx) => {
      await tx.store(OAuth2Store).deleteAllOf(payload.user.id);
    });
  }

  /** Applications are managed by their owner (a site administrator acts through `Sudo`, or as an embedder). */
  private assertMayManage(actor: Actor, user: User): void {
    if (!isSelf(actor, user) && !isSiteAdmin(actor)) throw new ForbiddenError('doer should be the site admin or be same as the contextUser');
  }

  /** Ids no row can have (0 for a path id that was not a number, or beyond int64 as a double) are simply absent. */
  private static isRowId(id: number): boolean {
    return Number.isSafeInteger(id) && id > 0;
  }

  private notFound(id: number): NotFoundError {
    return new NotFoundError(`OAuth2 application does not exist [id: ${id}]`);
  }

  async create(actor: Actor, user: User, input: CreateOAuth2ApplicationOptions): Promise<OAuth2ApplicationWithSecret> {
    this.assertMayManage(actor, user);
    const fields = acceptFields(input);
    const secret = newClientSecret();
    const now = nowUnix();
    const app = await this.store.insert({
      uid: user.id,
      name: fields.name,
      client_id: newClientId(),
      client_secret_hash: hashClientSecret(secret),
      confidential_client: fields.confidential ? 1 : 0,
      redirect_uris: JSON.stringify(fields.redirectUris),
      created_unix: now,
      updated_unix: now,
    });
    return { app, secret };
  }

  /** A user's applications, newest first. */
  async list(actor: Actor, user: User, paging?: Paging): Promise<Page<OAuth2Application>> {
    this.assertMayManage(actor, user);
    return this.store.listOf(user.id, clampPage(this.ctx.settings, paging));
  }

  /** One of the user's applications; another user's is not found. */
  async get(actor: Actor, user: User, id: number): Promise<OAuth2Application> {
    this.assertMayManage(actor, user);
    const app = OAuth2Service.isRowId(id) ? await this.store.byId(id) : undefined;
    if (!app || app.uid !== user.id) throw this.notFound(id);
    return app;
  }

  /** Replaces name, redirect URIs and confidentiality, and generates a new secret (Forgejo's update does both). */
  async update(actor: Actor, user: User, id: number, input: CreateOAuth2ApplicationOptions): Promise<OAuth2ApplicationWithSecret> {
    this.assertMayManage(actor, user);
    const fields = acceptFields(input);
    if (!OAuth2Service.isRowId(id)) throw this.notFound(id);
    const secret = newClientSecret();
    const app = await this.store.updateOne(user.id, id, {
      name: fields.name,
      redirect_uris: JSON.stringify(fields.redirectUris),
      confidential_client: fields.confidential ? 1 : 0,
      client_secret_hash: hashClientSecret(secret),
      updated_unix: nowUnix(),
    });
    if (!app) throw this.notFound(id);
    return { app, secret };
  }

  /** Generates a new secret and invalidates the old one. */
  async regenerateSecret(actor: Actor, user: User, id: number): Promise<OAuth2ApplicationWithSecret> {
    this.assertMayManage(actor, user);
    if (!OAuth2Service.isRowId(id)) throw this.notFound(id);
    const secret = newClientSecret();
    const app = await this.store.updateOne(user.id, id, { client_secret_hash: hashClientSecret(secret), updated_unix: nowUnix() });
    if (!app) throw this.notFound(id);
    return { app, secret };
  }

  async delete(actor: Actor, user: User, id: number): Promise<void> {
    this.assertMayManage(actor, user);
    if (!OAuth2Service.isRowId(id) || !(await this.store.deleteOne(user.id, id))) throw this.notFound(id);
  }

  /** The application a provider request names by `client_id`, or undefined. */
  async byClientId(clientId: string): Promise<OAuth2Application | undefined> {
    return isStorableText(clientId) ? this.store.byClientId(clientId) : undefined;
  }

  /** True when `secret` is the application's current client secret (constant-time). */
  verifyClientSecret(app: OAuth2Application, secret: string): boolean {
    return verifyClientSecret(app, secret);
  }
}
