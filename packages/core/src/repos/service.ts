import { sql } from 'kysely';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { clampPage, offsetOf, type CoreContext, type Page } from '../context.js';
import { actorUser, isSiteAdmin, type Actor } from '../access/actor.js';
import { AccessMode, repoAccessMode, type AccessModeValue } from '../access/permissions.js';
import { isUniqueViolation, nowUnix, precompiledQuery } from '../storage/database.js';
import { parseInput } from '../validation/validate.js';
import { RepositoryExistsError, type RefUpdate, type RepoKey } from '../git/backend.js';
import type { UsersService } from '../users/service.js';
import { noReplyAddress } from '../users/convert.js';
import { UserType, type User } from '../users/tables.js';
import { assertValidBranchName, assertValidRepoName } from './names.js';
import { CreateRepoOptionSchema, type ApiRepository, type CreateRepoOption } from './schemas.js';
import { toApiRepository } from './convert.js';
import type { Repository } from './tables.js';

/** A repository with its owner and what the asking actor may do to it. */
export interface RepoAccess {
  repo: Repository;
  owner: User;
  mode: AccessModeValue;
}

/** README templates available to `auto_init` (Forgejo ships the same single default). */
const README_TEMPLATES: Record<string, (vars: { name: string; description: string }) => string> = {
  Default: ({ name, description }) => `# ${name}\n\n${description}\n`,
};

/** `order_by` values of `GET /user/repos`, mapped to SQL orderings. */
const ORDER_BY = {
  name: [['lower_name', 'asc']],
  id: [['id', 'asc']],
  alphabetically: [['lower_name', 'asc']],
  reversealphabetically: [['lower_name', 'desc']],
  newest: [['created_unix', 'desc'], ['id', 'desc']],
  oldest: [['created_unix', 'asc'], ['id', 'asc']],
  recentupdate: [['updated_unix', 'desc'], ['id', 'desc']],
  leastupdate: [['updated_unix', 'asc'], ['id', 'asc']],
  size: [['size', 'asc'], ['id', 'asc']],
  reversesize: [['size', 'desc'], ['id', 'desc']],
  moststars: [['num_stars', 'desc'], ['id', 'desc']],
  feweststars: [['num_stars', 'asc'], ['id', 'asc']],
  mostforks: [['num_forks', 'desc'], ['id', 'desc']],
  fewestforks: [['num_forks', 'asc'], ['id', 'asc']],
} as const satisfies Record<string, readonly (readonly ['lower_name' | 'id' | 'created_unix' | 'updated_unix' | 'size' | 'num_stars' | 'num_forks', 'asc' | 'desc'])[]>;
export type RepoOrderBy = keyof typeof ORDER_BY;
export const REPO_ORDER_BY_VALUES = Object.keys(ORDER_BY) as RepoOrderBy[];

export function repoKey(owner: Pick<User, 'lower_name'>, repo: Pick<Repository, 'lower_name'>): RepoKey {
  return { owner: owner.lower_name, name: repo.lower_name };
}

export class ReposService {
  /** Repository by owner and name, compiled once: the hottest read, where building the SQL cost more than running it. */
  private readonly repoByOwner;

  constructor(
    private readonly ctx: CoreContext,
    private readonly users: UsersService,
  ) {
    this.repoByOwner = precompiledQuery<Repository, 'owner' | 'name'>(ctx, (param) =>
      ctx.db.selectFrom('repository').selectAll().where('owner_id', '=', param('owner')).where('lower_name', '=', param('name')),
    );
  }

  /**
   * Creates a repository owned by `ownerName` (default: the actor). The git storage is created first and
   * removed again if the database write fails, so either both exist or neither does.
   */
  async create(actor: Actor, input: CreateRepoOption | Record<string, unknown>, options: { owner?: string } = {}): Promise<RepoAccess> {
    const doer = actorUser(actor);
    if (!doer && actor.kind !== 'system') throw new ForbiddenError('sign in to create a repository');
    const opts = parseInput(CreateRepoOptionSchema, input);
    const owner = options.owner ? await this.users.get(actor, options.owner) : doer!;
    if (!owner) throw new ValidationError('owner', 'Required');
    if (doer && doer.id !== owner.id && !isSiteAdmin(actor)) throw new ForbiddenError('you may not create repositories for this user');
    if (owner.type === UserType.Organization) throw new ValidationError('owner', 'not allowed creating repository for organization');
    assertValidRepoName(opts.name);
    const defaultBranch = opts.default_branch || this.ctx.settings.repository.DEFAULT_BRANCH;
    assertValidBranchName(defaultBranch);
    const readmeName = opts.auto_init ? opts.readme || 'Default' : undefined;
    const readme = readmeName === undefined ? undefined : README_TEMPLATES[readmeName];
    if (readmeName !== undefined && !readme) {
      throw new BadRequestError(`readme template does not exist, available templates: [${Object.keys(README_TEMPLATES).join(' ')}]`);
    }
    // No .gitignore, license or label templates are shipped yet: refuse rather than silently ignore.
    if (opts.auto_init && opts.gitignores) throw new BadRequestError(`gitignore template does not exist [name: ${opts.gitignores}]`);
    if (opts.auto_init && opts.license) throw new BadRequestError(`license template does not exist [name: ${opts.license}]`);
    if (opts.issue_labels) throw new ValidationError('issue_labels', `label template does not exist [name: ${opts.issue_labels}]`);
    if (!isSiteAdmin(actor)) await this.assertBelowCreationLimit(owner);
    await this.assertNameFree(owner, opts.name);

    const key = repoKey(owner, { lower_name: opts.name.toLowerCase() });
    const objectFormat = opts.object_format_name ?? 'sha1';
    try {
      await this.ctx.git.create(key, { objectFormat, defaultBranch });
    } catch (error) {
      if (error instanceof RepositoryExistsError) throw new ConflictError('The repository files already exist; ask a site administrator to adopt or delete them.');
      throw error;
    }
    try {
      if (readme) {
        const author = doer ?? owner;
        await this.ctx.git.commitFiles(key, {
          branch: defaultBranch,
          message: 'Initial commit',
          author: {
            name: author.full_name || author.name,
            email: author.keep_email_private ? noReplyAddress(author, this.ctx.settings) : author.email,
          },
          files: [{ path: 'README.md', content: readme({ name: opts.name, description: opts.description ?? '' }) }],
        });
      }
      const size = await this.ctx.git.size(key);
      const now = nowUnix();
      const repo = await this.ctx.db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('repository')
          .values({
            owner_id: owner.id,
            lower_name: opts.name.toLowerCase(),
            name: opts.name,
            description: opts.description ?? '',
            default_branch: defaultBranch,
            object_format_name: objectFormat,
            is_private: opts.private ? 1 : 0,
            is_empty: readme ? 0 : 1,
            is_template: opts.template ? 1 : 0,
            size,
            created_unix: now,
            updated_unix: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx.updateTable('user').set({ num_repos: sql`num_repos + 1` }).where('id', '=', owner.id).execute();
        return row;
      });
      return { repo, owner, mode: repoAccessMode(actor, repo, owner) };
    } catch (error) {
      const parked = await this.ctx.git.park(key);
      await parked.discard();
      if (isUniqueViolation(error)) throw new ConflictError('The repository with the same name already exists.');
      throw error;
    }
  }

  private async assertNameFree(owner: User, name: string): Promise<void> {
    const existing = await this.ctx.db
      .selectFrom('repository')
      .select('id')
      .where('owner_id', '=', owner.id)
      .where('lower_name', '=', name.toLowerCase())
      .executeTakeFirst();
    if (existing) throw new ConflictError('The repository with the same name already exists.');
  }

  private async assertBelowCreationLimit(owner: User): Promise<void> {
    const limit = this.ctx.settings.repository.MAX_CREATION_LIMIT;
    if (limit < 0) return;
    if (owner.num_repos >= limit) throw new ForbiddenError(`user has reached maximum limit of repositories [limit: ${limit}]`);
  }

  /** The repository `owner/name` with the actor's access, or NotFound when the actor may not see it. */
  async get(actor: Actor, ownerName: string, name: string): Promise<RepoAccess> {
    const owner = await this.users.findByName(ownerName);
    // No valid name holds a NUL, and PostgreSQL refuses one in a text parameter.
    const [repo] = owner && !name.includes('\0') ? await this.repoByOwner({ owner: owner.id, name: name.toLowerCase() }) : [];
    if (!owner || !repo) throw new NotFoundError();
    const mode = repoAccessMode(actor, repo, owner);
    if (mode === AccessMode.None) throw new NotFoundError();
    return { repo, owner, mode };
  }

  /** Deletes a repository and its git storage. Its owner and site administrators may. */
  async delete(actor: Actor, ownerName: string, name: string): Promise<void> {
    const { repo, owner, mode } = await this.get(actor, ownerName, name);
    if (mode < AccessMode.Owner && !isSiteAdmin(actor)) throw new ForbiddenError('user should be the owner of the repo');
    const parked = await this.ctx.git.park(repoKey(owner, repo));
    try {
      await this.ctx.db.transaction().execute(async (trx) => {
        const result = await trx.deleteFrom('repository').where('id', '=', repo.id).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) throw new NotFoundError();
        await trx.updateTable('user').set({ num_repos: sql`num_repos - 1` }).where('id', '=', owner.id).execute();
      });
    } catch (error) {
      await parked.restore();
      throw error;
    }
    await parked.discard();
  }

  /** Repositories owned by `username` that `actor` may see, oldest first. */
  async listOwnedBy(actor: Actor, username: string, paging: { page?: number; limit?: number } = {}): Promise<Page<RepoAccess>> {
    const owner = await this.users.get(actor, username);
    return this.listOwned(actor, owner, paging, ORDER_BY.id);
  }

  /** Repositories of the signed-in actor (owned; collaborations will join here). */
  async listMine(actor: Actor, paging: { page?: number; limit?: number; orderBy?: string } = {}): Promise<Page<RepoAccess>> {
    const me = actorUser(actor);
    if (!me) throw new ForbiddenError('sign in to list your repositories');
    const order = paging.orderBy ? ORDER_BY[paging.orderBy as RepoOrderBy] : ORDER_BY.name;
    if (!order) throw new ValidationError('order_by', 'invalid order_by');
    return this.listOwned(actor, me, paging, order);
  }

  private async listOwned(
    actor: Actor,
    owner: User,
    paging: { page?: number; limit?: number },
    order: readonly (readonly [string, 'asc' | 'desc'])[],
  ): Promise<Page<RepoAccess>> {
    const page = clampPage(this.ctx.settings, paging.page, paging.limit);
    // Private repositories are listed only to those who can read them (the owner and site admins, for now).
    const probe = { is_private: 1 } as Repository;
    const seesPrivate = repoAccessMode(actor, probe, owner) !== AccessMode.None;
    let base = this.ctx.db.selectFrom('repository').where('owner_id', '=', owner.id);
    if (!seesPrivate) base = base.where('is_private', '=', 0);
    let query = base.selectAll();
    for (const [column, direction] of order) query = query.orderBy(column as 'id', direction);
    const [repos, count] = await Promise.all([
      query.limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const items = repos
      .map((repo) => ({ repo, owner, mode: repoAccessMode(actor, repo, owner) }))
      .filter((r) => r.mode !== AccessMode.None);
    return { items, total: Number(count.n) };
  }

  /**
   * Brings the database in line with git after a push: emptiness, size, update time; and, when the default
   * branch does not exist but another branch was pushed, makes the first pushed branch the default (as Forgejo
   * does for a first push).
   */
  async recordPush(repoId: number, updates: RefUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    const repo = await this.ctx.db.selectFrom('repository').selectAll().where('id', '=', repoId).executeTakeFirst();
    const owner = repo && (await this.users.findById(repo.owner_id));
    if (!repo || !owner) return;
    const key = repoKey(owner, repo);
    const defaultRef = `refs/heads/${repo.default_branch}`;
    let defaultBranch = repo.default_branch;
    const present = await this.ctx.git.readRefs(key, [defaultRef]);
    if (!present.has(defaultRef)) {
      const pushed = updates.find((u) => u.ref.startsWith('refs/heads/') && !/^0+$/.test(u.newId));
      if (pushed) {
        defaultBranch = pushed.ref.slice('refs/heads/'.length);
        await this.ctx.git.setDefaultBranch(key, defaultBranch);
      }
    }
    const [isEmpty, size] = await Promise.all([this.ctx.git.isEmpty(key), this.ctx.git.size(key)]);
    await this.ctx.db
      .updateTable('repository')
      .set({ is_empty: isEmpty ? 1 : 0, size, default_branch: defaultBranch, updated_unix: nowUnix() })
      .where('id', '=', repo.id)
      .execute();
  }

  toApi(access: RepoAccess, viewer: Actor): ApiRepository {
    return toApiRepository(access.repo, access.owner, viewer, access.mode, this.ctx.settings);
  }
}
