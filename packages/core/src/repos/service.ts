import './events.js';
import type { RenamedBranch } from './events.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { CoreContext, CoreTransaction } from '../context.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { actorUser, isSiteAdmin, SYSTEM, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { AccessService } from '../access/index.js';
import { OrgsService } from '../orgs/index.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { DEFAULT_OBJECT_FORMAT, isObjectFormat, RepositoryExistsError, type FileToCommit, type RefUpdate, type RepoKey, wikiRepoKey } from '../git/index.js';
import { sshCloneUrl, webUrl } from '../urls.js';
import type { RepoAccess } from './access.js';
import { RepoTemplatesService } from '../templates/index.js';
import './labels.js';
import { WatchesStore } from './watches.js';
import { PushesStore } from './pushes.js';
import { defaultUnits, parseTopics, serializeUnits } from './units.js';
import { UsersPort } from '../users/index.js';
import { noReplyAddress } from '../users/index.js';
import { isOrganization, type User } from '../users/index.js';
import { assertValidBranchName, assertValidRepoName } from './names.js';
import { CreateRepoOptionSchema, GenerateRepoOptionSchema, type CreateRepoOption, type GenerateRepoOption } from './schemas.js';
import './topics.js';
import { REPO_ORDERINGS, ReposStore } from './store.js';
import { RepoSearchStore } from './search-store.js';
import { searchVisibility } from './search.js';
import { GitIntentStore } from './intents.js';
import type { RepoPush, Repository } from './tables.js';
import { QuotaService } from '../quota/index.js';

export type { RepoAccess } from './access.js';

/** Refused: files exist where the repository would go, and no row claims them (see `/admin/unadopted`). */
const FILES_EXIST = 'The repository files already exist; ask a site administrator to adopt or delete them.';

export function repoKey(owner: Pick<User, 'lower_name'>, repo: Pick<Repository, 'lower_name'>): RepoKey {
  return { owner: owner.lower_name, name: repo.lower_name };
}

export class ReposService {
  private readonly store: ReposStore;
  private readonly users: UsersPort;

  constructor(private readonly ctx: CoreContext) {
    this.store = ctx.store(ReposStore);
    this.users = ctx.port(UsersPort);
  }

  private get access(): AccessService {
    return this.ctx.service(AccessService);
  }

  /**
   * Creates a repository owned by `options.owner` (default: the actor). The git storage is created first and
   * removed again if the database write fails, so either both exist or neither does.
   */
  async create(actor: Actor, input: CreateRepoOption, options: { owner?: User } = {}): Promise<RepoAccess> {
    const doer = actorUser(actor);
    if (!doer && actor.kind !== 'system') throw new ForbiddenError('sign in to create a repository');
    const opts = acceptInput(CreateRepoOptionSchema, input);
    const owner = options.owner ?? doer;
    if (!owner) throw new ValidationError('owner', 'Required');
    if (isOrganization(owner)) {
      if (!(await this.ctx.service(OrgsService).canCreateRepo(actor, owner))) {
        throw new ForbiddenError(`Given user is not allowed to create repository in organization ${owner.name}.`);
      }
    } else if (doer && doer.id !== owner.id && !isSiteAdmin(actor)) {
      throw new ForbiddenError('you may not create repositories for this user');
    }
    await this.ctx.service(QuotaService).assertCanWrite(owner, 'size:repos:all');
    assertValidRepoName(opts.name);
    const defaultBranch = opts.default_branch || this.ctx.settings.repository.DEFAULT_BRANCH;
    assertValidBranchName(defaultBranch);
    const templates = this.ctx.service(RepoTemplatesService);
    // Everything the templates name is checked before anything is written.
    const labels = opts.issue_labels ? templates.issueLabels(opts.issue_labels) : [];
    const initialFiles = opts.auto_init ? await this.initialFiles(opts, owner) : [];
    const limit = isSiteAdmin(actor) ? -1 : await this.assertBelowCreationLimit(owner);
    if (await this.store.findByOwnerAndName(owner.id, opts.name)) throw new ConflictError('The repository with the same name already exists.');

    const key: RepoKey = { owner: owner.lower_name, name: opts.name.toLowerCase() };
    const objectFormat = opts.object_format_name ?? DEFAULT_OBJECT_FORMAT;
    if (await this.ctx.git.exists(key)) throw new ConflictError(FILES_EXIST);
    // The intent is committed before the storage exists and deleted by the transaction that inserts the row: a
    // crash in between leaves it, and start-up removes the storage it names.
    const intents = this.ctx.store(GitIntentStore);
    const intent = await intents.insert('create', key);
    let created = false;
    try {
      try {
        await this.ctx.git.create(key, { objectFormat, defaultBranch });
      } catch (error) {
        if (error instanceof RepositoryExistsError) throw new ConflictError(FILES_EXIST);
        throw error;
      }
      created = true;
      if (initialFiles.length > 0) {
        const author = doer ?? owner;
        await this.ctx.git.commitFiles(key, {
          branch: defaultBranch,
          // Ends with a newline, as `git commit` writes a message.
          message: 'Initial commit\n',
          author: {
            name: author.full_name || author.name,
            email: author.keep_email_private ? noReplyAddress(author, this.ctx.settings) : author.email,
          },
          files: initialFiles,
        });
      }
      // A repository made without files is as big as git's empty skeleton: nothing to count.
      const size = initialFiles.length > 0 ? await this.ctx.git.size(key) : 0;
      const now = nowUnix();
      const repo = await this.ctx.transaction(async (tx) => {
        const row = await tx.store(ReposStore).insert({
          owner_id: owner.id,
          lower_name: key.name,
          name: opts.name,
          description: opts.description ?? '',
          default_branch: defaultBranch,
          object_format_name: objectFormat,
          is_private: opts.private ? 1 : 0,
          is_empty: initialFiles.length > 0 ? 0 : 1,
          is_template: opts.template ? 1 : 0,
          trust_model: opts.trust_model || 'default',
          units: serializeUnits(defaultUnits(this.ctx.settings)),
          // The creator watches what it creates, as on Forgejo.
          num_watches: doer ? 1 : 0,
          size,
          created_unix: now,
          updated_unix: now,
        });
        // The limit once more, where it is counted: creations that passed the check above together stop at it.
        if (!(await tx.port(UsersPort).adjustRepoCount(owner.id, 1, limit))) throw new ForbiddenError(`user has reached maximum limit of repositories [limit: ${limit}]`);
        if (doer) await tx.store(WatchesStore).watch(doer.id, row.id);
        await this.ctx.provider('repos.labels').createFromTemplates(tx, row.id, labels);
        await tx.store(GitIntentStore).delete(intent);
        tx.emit('repo.created', { repo: row, owner, actor });
        return row;
      });
      return this.access.repoAccess(actor, repo, owner);
    } catch (error) {
      // Only storage this call made is removed: files that were there before belong to someone else.
      if (created) await this.ctx.git.remove(key);
      await intents.delete(intent);
      if (isUniqueViolation(error)) throw new ConflictError('The repository with the same name already exists.');
      throw error;
    }
  }

  /** The files `auto_init` commits: README, .gitignore and LICENSE as the options name them (Forgejo's order). */
  private async initialFiles(opts: CreateRepoOption, owner: User): Promise<FileToCommit[]> {
    const templates = this.ctx.service(RepoTemplatesService);
    const path = `${owner.name}/${opts.name}`;
    const files: FileToCommit[] = [
      {
        path: 'README.md',
        content: templates.readme(opts.readme || 'Default', {
          name: opts.name,
          description: opts.description ?? '',
          ownerName: owner.name,
          cloneUrlHttps: webUrl(this.ctx.settings, `${path}.git`),
          cloneUrlSsh: sshCloneUrl(this.ctx.settings, path),
        }),
      },
    ];
    if (opts.gitignores) files.push({ path: '.gitignore', content: await templates.composeGitignore(opts.gitignores) });
    if (opts.license) {
      const year = String(new Date().getUTCFullYear());
      files.push({ path: 'LICENSE', content: await templates.licenseText(opts.license, { year, owner: owner.full_name || owner.name, repo: opts.name }) });
    }
    return files;
  }

  /**
   * Creates a repository from a template repository the actor may read: the template's files as one initial
   * commit (`git_content`), its topics and its labels, as the options select. Webhooks, git hooks, avatars and
   * branch protection are not copied yet (none of them exist in RepoHost so far).
   */
  async generate(actor: Actor, template: RepoAccess, input: GenerateRepoOption): Promise<RepoAccess> {
    const doer = actorUser(actor);
    if (!doer) throw new ForbiddenError('sign in to create a repository');
    const opts = acceptInput(GenerateRepoOptionSchema, input);
    if (template.repo.is_template !== 1) throw new ValidationError('template', 'this is not a template repo');
    if (!(opts.git_content || opts.topics || opts.git_hooks || opts.webhooks || opts.avatar || opts.labels || opts.protected_branch)) {
      throw new ValidationError('', 'must select at least one template item');
    }
    const owner = opts.owner.toLowerCase() === doer.lower_name ? doer : await this.users.byName(opts.owner);
    if (!owner) throw new NotFoundError('the owner does not exist');
    if (owner.id !== doer.id && !isSiteAdmin(actor)) throw new ForbiddenError('Only admin can generate repository for other user.');
    const source = template.repo;
    const created = await this.create(actor, {
      name: opts.name,
      description: opts.description,
      private: opts.private,
      default_branch: opts.default_branch || source.default_branch,
      object_format_name: isObjectFormat(source.object_format_name) ? source.object_format_name : DEFAULT_OBJECT_FORMAT,
    }, { owner });
    const key = repoKey(created.owner, created.repo);
    if (opts.git_content && source.is_empty !== 1) {
      const author = { name: doer.full_name || doer.name, email: doer.keep_email_private ? noReplyAddress(doer, this.ctx.settings) : doer.email };
      const branch = created.repo.default_branch;
      await this.ctx.git.commitTreeOf(repoKey(template.owner, source), source.default_branch, key, { branch, message: 'Initial commit\n', author });
    }
    const derived = await this.deriveFromRefs(key, created.repo.default_branch);
    const repo = await this.ctx.transaction(async (tx) => {
      if (opts.labels) await this.ctx.provider('repos.labels').copyOfRepo(tx, source.id, created.repo.id);
      return tx.store(ReposStore).update(created.repo.id, { ...derived, template_id: source.id });
    });
    const result = { ...created, repo: repo ?? created.repo };
    if (opts.topics) await this.ctx.provider('repos.topics').replace(SYSTEM, result, { topics: parseTopics(source.topics) });
    return { ...result, repo: (await this.store.findById(result.repo.id)) ?? result.repo };
  }

  /** Refuses an account at its repository limit; answers the limit (-1: none), which the creation's counter checks again. */
  private async assertBelowCreationLimit(owner: User): Promise<number> {
    // The account's own limit (set by an administrator) wins; -1 there means the site default.
    const own = await this.ctx.port(UsersPort).repoCreationLimitOf(owner.id);
    const limit = own > -1 ? own : this.ctx.settings.repository.MAX_CREATION_LIMIT;
    if (limit >= 0 && owner.num_repos >= limit) throw new ForbiddenError(`user has reached maximum limit of repositories [limit: ${limit}]`);
    return limit;
  }

  /** The repository `owner/name` with the actor's access, or NotFound when the actor may not see it. */
  async resolve(actor: Actor, ownerName: string, name: string): Promise<RepoAccess> {
    const owner = await this.users.byName(ownerName);
    const repo = owner && (await this.store.findByOwnerAndName(owner.id, name));
    if (!owner || !repo) throw new NotFoundError();
    const access = await this.access.repoAccess(actor, repo, owner);
    if (access.mode === AccessMode.None) throw new NotFoundError();
    return access;
  }

  /** Deletes a repository and its git storage. Its owner and site administrators may. */
  async delete(actor: Actor, access: RepoAccess): Promise<void> {
    const { repo, owner, mode } = access;
    if (mode < AccessMode.Owner && !isSiteAdmin(actor)) throw new ForbiddenError('user should be the owner of the repo');
    // Forgejo's CanUserDelete: an organization's repositories are deleted by its owners only, not by admin teams.
    if (isOrganization(owner) && !isSiteAdmin(actor) && !(await this.ctx.service(OrgsService).isOwner(actor, owner))) {
      throw new ForbiddenError('given user is not owner of organization');
    }
    await this.removeWithStorage([repo], owner, actor, async () => {});
  }

  /**
   * Runs `work` in a transaction that first deletes every repository `owner` owns (their git storage goes once
   * it commits). Refused with a conflict when there are some and `allowAny` is false. For deleting accounts.
   */
  async withOwnedRepositoriesRemoved(owner: User, options: { allowAny: boolean; actor: Actor }, work: (tx: CoreTransaction) => Promise<void>): Promise<void> {
    const repos = await this.store.allOf(owner.id);
    if (repos.length > 0 && !options.allowAny) throw new ConflictError(`user still has ownership of repositories [uid: ${owner.id}]`);
    await this.removeWithStorage(repos, owner, options.actor, work);
  }

  /**
   * Deletes the rows in one transaction that also records a `remove` intent per repository, then removes the
   * storage and each intent. The database decides: if the transaction fails, no file was touched; if the process
   * dies after it commits, start-up finishes the removal.
   */
  private async removeWithStorage(repos: Repository[], owner: User, actor: Actor, work: (tx: CoreTransaction) => Promise<void>): Promise<void> {
    const removals = await this.ctx.transaction(async (tx) => {
      const store = tx.store(ReposStore);
      const intents = tx.store(GitIntentStore);
      const recorded: { key: RepoKey; intent: number }[] = [];
      for (const repo of repos) {
        if (!(await store.delete(repo.id))) throw new NotFoundError();
        // Labels have no foreign key (organization labels carry repo_id 0): they go with their repository here.
        await this.ctx.provider('repos.labels').deleteOfRepo(tx, repo.id);
        const key = repoKey(owner, repo);
        recorded.push({ key, intent: await intents.insert('remove', key, repo.id) });
        tx.emit('repo.deleted', { repo, owner, actor });
      }
      if (repos.length > 0) await tx.port(UsersPort).adjustRepoCount(owner.id, -repos.length);
      await work(tx);
      return recorded;
    });
    await this.finishRemovals(removals);
  }

  /** Removes storage whose rows are gone and drops the intents; what fails stays recorded for the next start. */
  private async finishRemovals(removals: { key: RepoKey; intent: number }[]): Promise<void> {
    const intents = this.ctx.store(GitIntentStore);
    for (const { key, intent } of removals) {
      try {
        await this.ctx.git.remove(key);
        // The wiki (`<name>.wiki`) goes with its repository.
        await this.ctx.git.remove(wikiRepoKey(key));
        await intents.delete(intent);
      } catch (error) {
        console.error(`[repohost] removing the storage of ${key.owner}/${key.name} failed; it is retried at the next start:`, error);
      }
    }
  }

  /** Repositories owned by `owner` that `actor` may see, oldest first. */
  listOwnedBy(actor: Actor, owner: User, paging?: Paging): Promise<Page<RepoAccess>> {
    return this.listOwned(actor, owner, paging, 'id');
  }

  /**
   * `GET /user/repos`, Forgejo's ListMyRepos: the repositories the signed-in actor owns, those it was given
   * (collaborations, teams, so every repository of an organization it owns) and the public ones of the private
   * organizations it belongs to, ordered by `orderBy` (default: name). One SQL filter for the page and its count.
   */
  async listMine(actor: Actor, paging: Paging & { orderBy?: string } = {}): Promise<Page<RepoAccess>> {
    const me = actorUser(actor);
    if (!me) throw new ForbiddenError('sign in to list your repositories');
    const ordering = REPO_ORDERINGS.get(paging.orderBy || 'name');
    if (!ordering) throw new ValidationError('order_by', 'invalid order_by');
    const page = clampPage(this.ctx.settings, paging);
    const { items, total } = await this.ctx.store(RepoSearchStore).search(
      {
        // What the actor may see at all (public-only and repository-limited tokens narrow it), of what is its own.
        visibility: searchVisibility(actor, true),
        ownerId: me.id,
        memberOrgPublic: true,
        topicOnly: false,
        includeDescription: false,
        impossible: false,
        // Names repeat across owners: the id keeps pages apart.
        ordering: [...ordering, ['id', 'asc']],
      },
      page,
    );
    const owners = await this.users.byIds([...new Set(items.map((repo) => repo.owner_id))]);
    const pairs = items.flatMap((repo) => {
      const owner = owners.get(repo.owner_id);
      return owner ? [{ repo, owner }] : [];
    });
    return { items: await this.access.repoAccessMany(actor, pairs), total };
  }

  private async listOwned(actor: Actor, owner: User, paging: Paging | undefined, orderBy: string): Promise<Page<RepoAccess>> {
    const ordering = REPO_ORDERINGS.get(orderBy);
    if (!ordering) throw new ValidationError('order_by', 'invalid order_by');
    // The query filters by the same rule `repoPermission` applies, so the page and its count agree.
    const visible = await this.access.ownedRepoFilter(actor, owner);
    const page = clampPage(this.ctx.settings, paging);
    const { items, total } = await this.store.listOf(owner.id, { visible, ordering, page });
    return { items: await this.access.repoAccessMany(actor, items.map((repo) => ({ repo, owner }))), total };
  }

  /**
   * Records that a push into `access` is starting: until `recordPush` commits, an intent says the repository's
   * bookkeeping may lag its refs, so a crash in between is healed at the next start. Returns the intent's id.
   */
  beginPush(access: RepoAccess): Promise<number> {
    return this.ctx.store(GitIntentStore).insert('sync', repoKey(access.owner, access.repo), access.repo.id);
  }

  /**
   * Brings the database in line with git after a push by `actor` and clears the push's intent (if given):
   * emptiness, size, update time, and the default branch (see `deriveFromRefs`). Everything is read from the
   * refs, not from the push, so any later push or start-up repairs what an interrupted one left.
   */
  async recordPush(actor: Actor, access: RepoAccess, updates: RefUpdate[], intent?: number, renamedBranch?: RenamedBranch): Promise<void> {
    const { repo, owner } = access;
    if (updates.length === 0) {
      if (intent !== undefined) await this.ctx.store(GitIntentStore).delete(intent);
      return;
    }
    const pushed = updates.find((u) => u.ref.startsWith('refs/heads/') && !/^0+$/.test(u.newId))?.ref.slice('refs/heads/'.length);
    const derived = await this.deriveFromRefs(repoKey(owner, repo), repo.default_branch, pushed);
    await this.ctx.transaction(async (tx) => {
      const now = nowUnix();
      const updated = await tx.store(ReposStore).update(repo.id, { ...derived, updated_unix: now });
      if (updated) await tx.store(PushesStore).record(repo.id, actorUser(actor)?.id ?? 0, updates, now);
      if (intent !== undefined) await tx.store(GitIntentStore).delete(intent);
      // Deleted while the push ran: nothing left to record.
      if (updated) tx.emit('repo.pushed', { repo: updated, owner, actor, updates, ...(renamedBranch ? { renamedBranch } : {}) });
    });
  }

  /** The refs recent pushes moved in a repository, newest first (what reactions to pushes read). */
  latestPushes(access: RepoAccess, limit = 50): Promise<RepoPush[]> {
    return this.ctx.store(PushesStore).latestOf(access.repo.id, limit);
  }

  /**
   * After a push that failed midway, or one a crash interrupted: the bookkeeping follows whatever refs it moved,
   * and its `sync` intent goes in the same transaction.
   */
  async resyncFromRefs(repo: Repository, key: RepoKey, intent: number): Promise<void> {
    const derived = await this.deriveFromRefs(key, repo.default_branch);
    await this.ctx.transaction(async (tx) => {
      await tx.store(ReposStore).update(repo.id, { ...derived, updated_unix: nowUnix() });
      await tx.store(GitIntentStore).delete(intent);
      tx.emit('repo.resynced', { repo });
    });
  }

  /**
   * What the database says of a repository's git state, read from git: emptiness, size, and the default branch.
   * When the default branch does not exist but others do, the first pushed one (else the first by name) becomes
   * the default, as Forgejo does on a first push. A few git commands whatever the repository's size.
   */
  async deriveFromRefs(key: RepoKey, currentDefault: string, preferredBranch?: string): Promise<{ is_empty: number; size: number; default_branch: string }> {
    const defaultRef = `refs/heads/${currentDefault}`;
    // The first branch answers emptiness too: no branch, an empty repository.
    const [firstBranch, present, size] = await Promise.all([
      this.ctx.git.firstBranch(key),
      this.ctx.git.readRefs(key, [defaultRef]),
      this.ctx.git.size(key),
    ]);
    let defaultBranch = currentDefault;
    if (firstBranch !== undefined && !present.has(defaultRef)) {
      defaultBranch = preferredBranch ?? firstBranch;
      await this.ctx.git.setDefaultBranch(key, defaultBranch);
    }
    return { is_empty: firstBranch === undefined ? 1 : 0, size, default_branch: defaultBranch };
  }

  /** The repository with id `id` and the actor's access (`GET /repositories/{id}`), or NotFound as `resolve`. */
  async resolveById(actor: Actor, id: number): Promise<RepoAccess> {
    const repo = Number.isSafeInteger(id) && id > 0 ? await this.store.findById(id) : undefined;
    const owner = repo && (await this.users.byId(repo.owner_id));
    if (!repo || !owner) throw new NotFoundError();
    const access = await this.access.repoAccess(actor, repo, owner);
    if (access.mode === AccessMode.None) throw new NotFoundError();
    return access;
  }
}
