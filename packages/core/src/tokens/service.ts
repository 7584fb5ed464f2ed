import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { BadRequestError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { isSelf, isSiteAdmin, userActor, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { AccessService } from '../access/index.js';
import type { ApiRepositoryMeta } from '../repos/index.js';
import type { RepoAccess } from '../repos/index.js';
import { ReposService } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import { isStorableText, isUniqueViolation, nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { canSignIn, type User } from '../users/index.js';
import { UsersPort } from '../users/index.js';
import { grantsAnything, InvalidScopeError, isPublicOnly, normalizeScopes } from './scopes.js';
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
  /** The repositories a repository-limited token is for; null for a token that is not limited. */
  repositories: ApiRepositoryMeta[] | null;
}

/** A token as its list shows it: with the repositories it is limited to (null: not limited). */
export interface ListedToken {
  token: AccessToken;
  repositories: ApiRepositoryMeta[] | null;
}

export interface AuthenticatedToken {
  token: AccessToken;
  user: User;
  scopes: string[];
  /** For a repository-limited token, the repositories it is for. */
  repoIds?: number[];
}

/** The scopes a repository-limited token may hold: only these are judged per repository (Forgejo's rule). */
const REPOSITORY_SCOPES = new Set(['read:issue', 'write:issue', 'read:repository', 'write:repository']);

function hashToken(value: string, salt: string): string {
  return createHmac('sha256', salt).update(value).digest('hex');
}

export class TokensService {
  private readonly store: TokensStore;
  private readonly users: UsersPort;

  constructor(private readonly ctx: CoreContext) {
    this.store = ctx.store(TokensStore);
    this.users = ctx.port(UsersPort);
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
    let scopes: string[];
    try {
      scopes = normalizeScopes(opts.scopes ?? []);
    } catch (error) {
      if (error instanceof InvalidScopeError) throw new BadRequestError(error.message);
      throw error;
    }
    if (!grantsAnything(scopes)) throw new BadRequestError('access token must have a scope');
    const limited = opts.repositories !== undefined ? await this.limitedTo(actor, opts.repositories, scopes) : undefined;

    const value = randomBytes(20).toString('hex');
    const salt = randomBytes(10).toString('hex');
    const now = nowUnix();
    try {
      const token = await this.ctx.transaction(async (tx) => {
        const store = tx.store(TokensStore);
        const row = await store.insert({
          uid: user.id,
          name,
          token_hash: hashToken(value, salt),
          token_salt: salt,
          token_last_eight: value.slice(-8),
          scope: scopes.join(','),
          resource_all_repos: limited ? 0 : 1,
          created_unix: now,
          updated_unix: now,
        });
        if (limited) await store.insertRepos(row.id, limited.map((a) => a.repo.id), now);
        return row;
      });
      return { token, value, repositories: limited ? limited.map(repositoryMeta) : null };
    } catch (error) {
      if (isUniqueViolation(error)) throw new BadRequestError('access token name has been used already');
      throw error;
    }
  }

  /**
   * The repositories a repository-limited token asks for, each of which the actor must see (one it may not is
   * answered exactly as one that does not exist), and Forgejo's rules for such tokens: at least one repository,
   * not public-only, and only issue and repository scopes (the only ones judged per repository).
   */
  private async limitedTo(actor: Actor, targets: readonly { owner: string; name: string }[], scopes: readonly string[]): Promise<RepoAccess[]> {
    const found: RepoAccess[] = [];
    for (const target of targets) {
      const access = await this.ctx.service(ReposService).resolve(actor, target.owner, target.name).catch((error: unknown) => {
        if (error instanceof NotFoundError) throw new BadRequestError(`repository ${target.owner}/${target.name} does not exist`);
        throw error;
      });
      if (!found.some((a) => a.repo.id === access.repo.id)) found.push(access);
    }
    if (found.length === 0) throw new BadRequestError('specified repository access token: must have at least one repository');
    if (isPublicOnly(scopes)) throw new BadRequestError('specified repository access token: cannot be combined with public-only scope');
    const other = scopes.find((scope) => !REPOSITORY_SCOPES.has(scope));
    if (other !== undefined) throw new BadRequestError(`specified repository access token: invalid scope: cannot be combined with scope ${other}`);
    return found;
  }

  /**
   * A user's tokens, newest first, each with the repositories it is limited to (those the user can still see: an
   * access taken away since is not shown, as in Forgejo).
   */
  async list(actor: Actor, user: User, paging?: Paging): Promise<Page<ListedToken>> {
    this.assertMayManage(actor, user);
    const page = await this.store.listOf(user.id, clampPage(this.ctx.settings, paging));
    const limited = page.items.filter((t) => t.resource_all_repos === 0);
    const repoIds = await this.store.repoIdsOfTokens(limited.map((t) => t.id));
    const repos = await this.ctx.port(ReposPort).byIds([...new Set([...repoIds.values()].flat())]);
    const owners = await this.users.byIds([...new Set(repos.map((r) => r.owner_id))]);
    const pairs = repos.flatMap((repo) => {
      const owner = owners.get(repo.owner_id);
      return owner ? [{ repo, owner }] : [];
    });
    const seen = new Map((await this.ctx.service(AccessService).repoAccessMany(userActor(user), pairs)).filter((a) => a.mode > AccessMode.None).map((a) => [a.repo.id, a]));
    return {
      total: page.total,
      items: page.items.map((token) => ({
        token,
        repositories: token.resource_all_repos === 0 ? (repoIds.get(token.id) ?? []).flatMap((id) => (seen.has(id) ? [repositoryMeta(seen.get(id)!)] : [])) : null,
      })),
    };
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
      const user = await this.users.byId(token.uid);
      if (!user || !canSignIn(user)) return null;
      const scopes = token.scope.split(',').filter(Boolean);
      // Only a repository-limited token costs a second query.
      if (token.resource_all_repos === 0) return { token, user, scopes, repoIds: await this.store.repoIdsOf(token.id) };
      return { token, user, scopes };
    }
    return null;
  }
}

function repositoryMeta({ repo, owner }: Pick<RepoAccess, 'repo' | 'owner'>): ApiRepositoryMeta {
  return { id: repo.id, name: repo.name, owner: owner.name, full_name: `${owner.name}/${repo.name}` };
}
