import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { BadRequestError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { isSelf, isSiteAdmin, type Actor } from '../access/actor.js';
import { isStorableText, isUniqueViolation, nowUnix } from '../storage/database.js';
import { acceptInput } from '../validation/validate.js';
import { canSignIn, type User } from '../users/tables.js';
import { UsersStore } from '../users/store.js';
import { grantsAnything, InvalidScopeError, normalizeScopes } from './scopes.js';
import { CreateAccessTokenOptionSchema, type CreateAccessTokenOption } from './schemas.js';
import type { AccessToken } from './tables.js';
import { TokensStore } from './store.js';

/** Tokens are issued as 40 lower-case hex characters; anything else is not one of ours. */
export const TOKEN_PATTERN = /^[0-9a-f]{40}$/;

export function looksLikeToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}

export interface CreatedToken {
  token: AccessToken;
  /** The secret itself; shown once, never stored. */
  value: string;
}

export interface AuthenticatedToken {
  token: AccessToken;
  user: User;
  scopes: string[];
}

function hashToken(value: string, salt: string): string {
  return createHmac('sha256', salt).update(value).digest('hex');
}

export class TokensService {
  private readonly store: TokensStore;
  private readonly users: UsersStore;

  constructor(private readonly ctx: CoreContext) {
    this.store = ctx.store(TokensStore);
    this.users = ctx.store(UsersStore);
  }

  /** Tokens are managed by their owner, or by a site administrator. */
  private assertMayManage(actor: Actor, user: User): void {
    if (!isSelf(actor, user) && !isSiteAdmin(actor)) throw new ForbiddenError('doer should be the site admin or be same as the contextUser');
  }

  async create(actor: Actor, user: User, input: CreateAccessTokenOption): Promise<CreatedToken> {
    this.assertMayManage(actor, user);
    const opts = acceptInput(CreateAccessTokenOptionSchema, input);
    const name = opts.name.trim();
    if (name === '') throw new ValidationError('name', 'Required');
    if (opts.repositories && opts.repositories.length > 0) {
      throw new ValidationError('repositories', 'repository-specific access tokens are not supported');
    }
    let scopes: string[];
    try {
      scopes = normalizeScopes(opts.scopes ?? []);
    } catch (error) {
      if (error instanceof InvalidScopeError) throw new BadRequestError(error.message);
      throw error;
    }
    if (!grantsAnything(scopes)) throw new BadRequestError('access token must have a scope');

    const value = randomBytes(20).toString('hex');
    const salt = randomBytes(10).toString('hex');
    const now = nowUnix();
    try {
      const token = await this.store.insert({
        uid: user.id,
        name,
        token_hash: hashToken(value, salt),
        token_salt: salt,
        token_last_eight: value.slice(-8),
        scope: scopes.join(','),
        created_unix: now,
        updated_unix: now,
      });
      return { token, value };
    } catch (error) {
      if (isUniqueViolation(error)) throw new BadRequestError('access token name has been used already');
      throw error;
    }
  }

  /** A user's tokens, newest first. */
  async list(actor: Actor, user: User, paging?: Paging): Promise<Page<AccessToken>> {
    this.assertMayManage(actor, user);
    return this.store.listOf(user.id, clampPage(this.ctx.settings, paging));
  }

  /** Deletes a token named by its id (all digits) or its name. */
  async delete(actor: Actor, user: User, idOrName: string): Promise<void> {
    this.assertMayManage(actor, user);
    const byId = /^\d+$/.test(idOrName);
    // Token names never hold a NUL (input validation refuses it).
    const deleted =
      isStorableText(idOrName) && (await this.store.deleteOne(user.id, byId ? { id: Number(idOrName) } : { name: idOrName }));
    if (!deleted) throw new NotFoundError(`access token does not exist [id: ${byId ? idOrName : 0}]`);
  }

  /** Finds the active token with this value, with its user. Null for unknown tokens or users who may not sign in. */
  async authenticate(value: string): Promise<AuthenticatedToken | null> {
    if (!looksLikeToken(value)) return null;
    for (const token of await this.store.byLastEight(value.slice(-8))) {
      const expected = Buffer.from(token.token_hash, 'hex');
      const actual = Buffer.from(hashToken(value, token.token_salt), 'hex');
      if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) continue;
      const user = await this.users.findById(token.uid);
      if (!user || !canSignIn(user)) return null;
      return { token, user, scopes: token.scope.split(',').filter(Boolean) };
    }
    return null;
  }
}
