import './events.js';
import { Type, type Static } from '@sinclair/typebox';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { actorUser, isSiteAdmin, type Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { AccessService } from '../access/index.js';
import { OrgsService } from '../orgs/index.js';
import { QuotaService } from '../quota/index.js';
import { DatabaseLocks, isUniqueViolation, nowUnix, type HeldLock } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { DEFAULT_OBJECT_FORMAT, isObjectFormat, RepositoryExistsError, type RepoKey } from '../git/index.js';
import { UsersPort } from '../users/index.js';
import { isOrganization, Visibility, type User } from '../users/index.js';
import type { RepoAccess } from './access.js';
import { ForksStore } from './forks-store.js';
import { GitIntentStore } from './intents.js';
import { assertValidRepoName, REPO_NAME_MAX_LENGTH } from './names.js';
import { RepoSearchStore } from './search-store.js';
import { searchVisibility } from './search.js';
import { repoKey } from './service.js';
import { ReposStore } from './store.js';
import type { Repository } from './tables.js';
import { defaultUnits, serializeUnits } from './units.js';
import { WatchesStore } from './watches.js';

export const CreateForkOptionSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: REPO_NAME_MAX_LENGTH, description: 'name of the forked repository' })),
    organization: Type.Optional(Type.String({ description: 'organization name, if forking into an organization' })),
  },
  { $id: 'CreateForkOption', description: 'CreateForkOption options for creating a fork' },
);
export type CreateForkOption = Static<typeof CreateForkOptionSchema>;

/** A repository with the parent it was forked from, when the viewer may see that parent (see `withParents`). */
export type WithParent<T extends RepoAccess> = T & { parent?: RepoAccess };

/**
 * Forks, as Forgejo makes them: a new repository of the caller (or of an organization it may create in) with its
 * parent's branches, tags and objects; `fork_id` names the parent, whose `num_forks` counts its forks. The git
 * storage shares the parent's object files (see `git/native-forks.ts`), so a fork costs little disk and survives
 * whatever later happens to its parent.
 */
export class RepoForksService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): ForksStore {
    return this.ctx.store(ForksStore);
  }

  /**
   * Keeps `num_forks`, the forks of deleted repositories and the visibility of forks true, in the transaction of
   * the change. Once per host.
   */
  subscribe(): void {
    this.ctx.events.withinTransaction('repo.deleted', async ({ payload }, tx) => {
      const { repo } = payload;
      const forks = tx.store(ForksStore);
      if (repo.is_fork === 1 && repo.fork_id > 0) await forks.adjustForkCount(repo.fork_id, -1);
      if (repo.num_forks > 0) await forks.detachForksOf(repo.id);
    });
    // A repository made private takes its forks (and theirs, through the events emitted here) with it, as in
    // Forgejo. A repository made public leaves its forks as they are: their owners may have pushed since.
    this.ctx.events.withinTransaction('repo.edited', async ({ payload }, tx) => {
      const { repo, previous, actor } = payload;
      if (repo.is_private !== 1 || previous.is_private === 1 || repo.num_forks === 0) return;
      const hidden = await tx.store(ForksStore).hideForksOf(repo.id);
      if (hidden.length === 0) return;
      const owners = await tx.port(UsersPort).byIds(hidden.map((r) => r.owner_id));
      for (const fork of hidden) {
        const owner = owners.get(fork.owner_id);
        if (owner) tx.emit('repo.edited', { repo: fork, previous: { ...fork, is_private: 0 }, owner, actor });
      }
    });
  }

  /**
   * Forks `parent` (which the actor reads) into the actor's account or `organization`, named `name` (default: the
   * parent's name). Refused: an organization the actor may not create in (403), a name taken, the parent's own
   * owner, or a parent the new owner forked already (409), the repository limit when `[repository] ALLOW_FORK_WITHOUT_MAXIMUM_LIMIT` is off
   * (409, as Forgejo), a quota exceeded (413). The storage is made under a `fork` intent, then the row.
   */
  async fork(actor: Actor, parent: RepoAccess, input: CreateForkOption = {}): Promise<RepoAccess> {
    // `[repository] DISABLE_FORKS`: Forgejo does not serve the routes at all.
    if (this.ctx.settings.repository.DISABLE_FORKS) throw new NotFoundError();
    const doer = actorUser(actor);
    if (!doer) throw new UnauthorizedError('sign in to fork a repository');
    const opts = acceptInput(CreateForkOptionSchema, input);
    if (unitMode(parent, 'repo.code') < AccessMode.Read) {
      throw new ForbiddenError('user should have specific read permission or be a repo admin or a site admin');
    }
    const owner = opts.organization === undefined ? doer : await this.organization(actor, opts.organization);
    await this.ctx.service(QuotaService).assertCanWrite(owner, 'size:repos:all');
    const name = opts.name ?? parent.repo.name;
    assertValidRepoName(name);
    if (!isSiteAdmin(actor) && !this.ctx.settings.repository.ALLOW_FORK_WITHOUT_MAXIMUM_LIMIT) await this.assertBelowCreationLimit(owner);
    // One fork into an owner at a time, whichever process makes it (a lock in the database), so two requests cannot
    // both pass the already-forked check; the row commits only while the lock is still held.
    return this.ctx.service(DatabaseLocks).withLock(`fork-owner:${owner.id}`, (lock) => this.forkInto(actor, doer, parent, owner, name, lock), {
      busyMessage: 'another fork into this account is in progress; try again later',
    });
  }

  private async forkInto(actor: Actor, doer: User, parent: RepoAccess, owner: User, name: string, lock: HeldLock): Promise<RepoAccess> {
    const base = parent.repo;
    // As Forgejo's fork form: a repository is not forked into the account that owns it.
    if (base.owner_id === owner.id) throw new ConflictError(`repository cannot be forked into its own owner [uname: ${owner.name}, name: ${base.name}]`);
    // Forgejo's GetUserFork: a fork of the parent, or of the parent's own parent, counts as forked already.
    const existing = await this.store.findForkOf(owner.id, base.is_fork === 1 && base.fork_id > 0 ? [base.id, base.fork_id] : [base.id]);
    if (existing) {
      throw new ConflictError(
        `repository is already forked by user [uname: ${owner.name}, repo path: ${parent.owner.name}/${base.name}, fork path: ${owner.name}/${existing.name}]`,
      );
    }
    if (await this.ctx.store(ReposStore).findByOwnerAndName(owner.id, name)) throw alreadyExists(owner, name);
    const key: RepoKey = { owner: owner.lower_name, name: name.toLowerCase() };
    if (await this.ctx.git.exists(key)) throw new ConflictError('The repository files already exist; ask a site administrator to adopt or delete them.');

    const parentKey = repoKey(parent.owner, base);
    // A row whose storage is missing (see the storage check) has nothing to fork.
    if (!(await this.ctx.git.exists(parentKey))) throw new NotFoundError('Repository not found');
    const objectFormat = isObjectFormat(base.object_format_name) ? base.object_format_name : DEFAULT_OBJECT_FORMAT;
    // The intent is committed before the storage exists and deleted by the transaction that inserts the row: a
    // crash in between leaves it, and start-up removes the storage it names.
    const intents = this.ctx.store(GitIntentStore);
    const intent = await intents.insert('fork', key);
    let created = false;
    try {
      try {
        await this.ctx.git.fork(parentKey, key, { objectFormat, defaultBranch: base.default_branch });
      } catch (error) {
        if (error instanceof RepositoryExistsError) throw alreadyExists(owner, name);
        throw error;
      }
      created = true;
      // Read from the fork itself: the parent may have been pushed to since its row was read.
      const [firstBranch, size] = await Promise.all([this.ctx.git.firstBranch(key), this.ctx.git.size(key)]);
      const now = nowUnix();
      const repo = await this.ctx.transaction(async (tx) => {
        await lock.confirm(tx);
        const row = await tx.store(ReposStore).insert({
          owner_id: owner.id,
          lower_name: key.name,
          name,
          description: base.description,
          default_branch: base.default_branch,
          object_format_name: objectFormat,
          // A fork of a private repository, or of a repository of a private account, is private.
          is_private: base.is_private === 1 || parent.owner.visibility === Visibility.Private ? 1 : 0,
          is_empty: firstBranch === undefined ? 1 : 0,
          is_fork: 1,
          fork_id: base.id,
          units: serializeUnits(defaultUnits(this.ctx.settings)),
          primary_language: base.primary_language,
          num_watches: 1,
          size,
          created_unix: now,
          updated_unix: now,
        });
        await tx.store(ForksStore).adjustForkCount(base.id, 1);
        await tx.port(UsersPort).adjustRepoCount(owner.id, 1);
        await tx.store(WatchesStore).watch(doer.id, row.id);
        await tx.store(GitIntentStore).delete(intent);
        // Created, as every repository is (feeds, organization hooks); forked, for the parent's `fork` hooks.
        tx.emit('repo.created', { repo: row, owner, actor });
        tx.emit('repo.forked', { repo: row, owner, parent: base, parentOwner: parent.owner, actor });
        return row;
      });
      // Forgejo answers with the new owner's rights, whatever the forker's own are.
      return { repo, owner, mode: AccessMode.Owner };
    } catch (error) {
      try {
        // Only storage this call made is removed: files that were there before belong to someone else.
        if (created) await this.ctx.git.remove(key);
        await intents.delete(intent);
      } catch (cleanupError) {
        // The intent stays, no longer held: the next sweep removes what the fork left.
        await intents.letGo(intent).catch(() => undefined);
        console.error('[repohost] removing the storage of a failed fork failed; it is repaired by the next sweep:', cleanupError);
      }
      if (isUniqueViolation(error)) throw alreadyExists(owner, name);
      throw error;
    }
  }

  /** The organization `name` as a fork's owner: 422 when there is none (or the actor may not see it), 403 when the actor may not create there. */
  private async organization(actor: Actor, name: string): Promise<User> {
    const org = await this.ctx.port(UsersPort).byName(name);
    if (!org || !isOrganization(org) || !(await this.ctx.service(AccessService).canSee(actor, org))) {
      throw new ValidationError('', `org does not exist [id: 0, name: ${name}]`);
    }
    const orgs = this.ctx.service(OrgsService);
    if (!isSiteAdmin(actor) && !(await this.ctx.service(AccessService).isMember(actor, org))) {
      throw new ForbiddenError(`User is no Member of Organisation '${org.name}'`);
    }
    if (!(await orgs.canCreateRepo(actor, org))) throw new ForbiddenError(`Given user is not allowed to create repository in organization ${org.name}.`);
    return org;
  }

  /** Forgejo answers the limit on forks with ErrReachLimitOfRepo, which its fork route turns into 409. */
  private async assertBelowCreationLimit(owner: User): Promise<void> {
    const own = await this.ctx.port(UsersPort).repoCreationLimitOf(owner.id);
    const limit = own > -1 ? own : this.ctx.settings.repository.MAX_CREATION_LIMIT;
    if (limit >= 0 && owner.num_repos >= limit) throw new ConflictError(`user has reached maximum limit of repositories [limit: ${limit}]`);
  }

  /** A page of the forks of `parent` the actor may see, with its access to each (a fixed number of queries). */
  async list(actor: Actor, parent: RepoAccess, paging: Paging = {}): Promise<Page<RepoAccess>> {
    if (this.ctx.settings.repository.DISABLE_FORKS) throw new NotFoundError();
    const visible = this.ctx.store(RepoSearchStore).visibleIds(searchVisibility(actor, true));
    const page = await this.store.listForks(parent.repo.id, visible, clampPage(this.ctx.settings, paging));
    const owners = await this.ctx.port(UsersPort).byIds(page.items.map((r) => r.owner_id));
    const pairs = page.items.flatMap((repo) => {
      const owner = owners.get(repo.owner_id);
      return owner ? [{ repo, owner }] : [];
    });
    const items = await this.ctx.service(AccessService).repoAccessMany(actor, pairs);
    return { items: items.filter((i) => i.mode > AccessMode.None), total: page.total };
  }

  /**
   * The repositories with their parents loaded (`parent` for `toApiRepository`), each parent only when `actor` may
   * see it: one query for the parents, one for their owners, one for the actor's grants.
   */
  async withParents<T extends RepoAccess>(actor: Actor, items: readonly T[]): Promise<WithParent<T>[]> {
    const parentIds = items.filter((i) => i.repo.is_fork === 1 && i.repo.fork_id > 0).map((i) => i.repo.fork_id);
    if (parentIds.length === 0) return [...items];
    const parents = await this.ctx.store(ReposStore).findByIds(parentIds);
    const owners = await this.ctx.port(UsersPort).byIds(parents.map((p) => p.owner_id));
    const pairs = parents.flatMap((repo) => {
      const owner = owners.get(repo.owner_id);
      return owner ? [{ repo, owner }] : [];
    });
    const accesses = await this.ctx.service(AccessService).repoAccessMany(actor, pairs);
    const byId = new Map(accesses.filter((a) => a.mode > AccessMode.None).map((a) => [a.repo.id, a]));
    return items.map((item) => {
      const parent = item.repo.is_fork === 1 ? byId.get(item.repo.fork_id) : undefined;
      return parent ? { ...item, parent } : item;
    });
  }

  /**
   * Whether pulling from `head` into `base` stays within one fork network as Forgejo allows it: the same
   * repository, a fork of `base`, or `base`'s own parent.
   */
  inSameForkNetwork(head: Pick<Repository, 'id' | 'is_fork' | 'fork_id'>, base: Pick<Repository, 'id' | 'is_fork' | 'fork_id'>): boolean {
    if (head.id === base.id) return true;
    if (head.is_fork === 1 && head.fork_id === base.id) return true;
    return base.is_fork === 1 && base.fork_id === head.id;
  }

  /**
   * The repository of `headOwner` a pull request into `base` takes its head from (Forgejo's parseCompareInfo):
   * `base` itself when `headOwner` owns it, else `headOwner`'s fork of `base`, else `base`'s parent when
   * `headOwner` owns that; undefined when none exists.
   */
  async headRepository(base: Repository, headOwner: Pick<User, 'id'>): Promise<Repository | undefined> {
    if (base.owner_id === headOwner.id) return base;
    const fork = await this.store.findForkOf(headOwner.id, [base.id]);
    if (fork) return fork;
    if (base.is_fork !== 1 || base.fork_id <= 0) return undefined;
    const parent = await this.ctx.store(ReposStore).findById(base.fork_id);
    return parent && parent.owner_id === headOwner.id ? parent : undefined;
  }

  /**
   * The repository `fork` was forked from, with its git storage's key, whoever asks (Forgejo's `GetBaseRepo`, for
   * syncing a fork); undefined when `fork` is no fork or its parent is gone.
   */
  async baseOf(fork: Repository): Promise<{ repo: Repository; key: RepoKey } | undefined> {
    if (fork.is_fork !== 1 || fork.fork_id <= 0) return undefined;
    const parent = await this.ctx.store(ReposStore).findById(fork.fork_id);
    const owner = parent && (await this.ctx.port(UsersPort).byId(parent.owner_id));
    return parent && owner ? { repo: parent, key: repoKey(owner, parent) } : undefined;
  }
}

function alreadyExists(owner: Pick<User, 'name'>, name: string): ConflictError {
  return new ConflictError(`repository already exists [uname: ${owner.name}, name: ${name}]`);
}
