import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { BadRequestError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { clampPage, offsetOf, type CoreContext, type Page } from '../context.js';
import { isSelf, isSiteAdmin, type Actor } from '../access/actor.js';
import { isUniqueViolation, nowUnix } from '../storage/database.js';
import { parseInput } from '../validation/validate.js';
import type { User } from '../users/tables.js';
import type { UsersService } from '../users/service.js';
import { isoTime } from '../users/convert.js';
import { grantsAnything, InvalidScopeError, normalizeScopes } from './scopes.js';
import { CreateAccessTokenOptionSchema, type ApiAccessToken, type CreateAccessTokenOption } from './schemas.js';
import type { AccessToken } from './tables.js';

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
  constructor(
    private readonly ctx: CoreContext,
    private readonly users: UsersService,
  ) {}

  /** The account whose tokens `actor` wants to manage: the actor's own, or any for a site administrator. */
  private async owner(actor: Actor, username: string): Promise<User> {
    const user = await this.users.get(actor, username);
    if (!isSelf(actor, user) && !isSiteAdmin(actor)) throw new ForbiddenError('only site administrators may manage other users\' tokens');
    return user;
  }

  async create(actor: Actor, username: string, input: CreateAccessTokenOption | Record<string, unknown>): Promise<CreatedToken> {
    const user = await this.owner(actor, username);
    const opts = parseInput(CreateAccessTokenOptionSchema, input);
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
      const token = await this.ctx.db
        .insertInto('access_token')
        .values({
          uid: user.id,
          name,
          token_hash: hashToken(value, salt),
          token_salt: salt,
          token_last_eight: value.slice(-8),
          scope: scopes.join(','),
          created_unix: now,
          updated_unix: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { token, value };
    } catch (error) {
      if (isUniqueViolation(error)) throw new BadRequestError('access token name has been used already');
      throw error;
    }
  }

  async list(actor: Actor, username: string, paging: { page?: number; limit?: number } = {}): Promise<Page<AccessToken>> {
    const user = await this.owner(actor, username);
    const page = clampPage(this.ctx.settings, paging.page, paging.limit);
    const base = this.ctx.db.selectFrom('access_token').where('uid', '=', user.id);
    const [items, count] = await Promise.all([
      base.selectAll().orderBy('id', 'desc').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  }

  /** Deletes a token named by its id (all digits) or its name. */
  async delete(actor: Actor, username: string, idOrName: string): Promise<void> {
    const user = await this.owner(actor, username);
    const query = this.ctx.db.deleteFrom('access_token').where('uid', '=', user.id);
    const byId = /^\d+$/.test(idOrName);
    // Token names never hold a NUL (input validation refuses it), and PostgreSQL refuses one in a parameter.
    if (idOrName.includes('\0')) throw new NotFoundError('access token does not exist [id: 0]');
    const result = await (byId ? query.where('id', '=', Number(idOrName)) : query.where('name', '=', idOrName)).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new NotFoundError(`access token does not exist [id: ${byId ? idOrName : 0}]`);
  }

  /** Finds the active token with this value, with its user. Null for unknown tokens or users who may not sign in. */
  async authenticate(value: string): Promise<AuthenticatedToken | null> {
    // Tokens are issued as lower-case hex; anything else is not one of ours.
    if (!/^[0-9a-f]{40}$/.test(value)) return null;
    const candidates = await this.ctx.db
      .selectFrom('access_token')
      .selectAll()
      .where('token_last_eight', '=', value.slice(-8))
      .execute();
    for (const token of candidates) {
      const expected = Buffer.from(token.token_hash, 'hex');
      const actual = Buffer.from(hashToken(value, token.token_salt), 'hex');
      if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) continue;
      const user = await this.users.findById(token.uid);
      if (!user || user.is_active !== 1 || user.prohibit_login === 1) return null;
      return { token, user, scopes: token.scope.split(',').filter(Boolean) };
    }
    return null;
  }

  toApi(token: AccessToken, value = ''): ApiAccessToken {
    return {
      id: token.id,
      name: token.name,
      sha1: value,
      token_last_eight: token.token_last_eight,
      scopes: token.scope.split(',').filter(Boolean),
      created_at: isoTime(token.created_unix),
    };
  }
}
