import '../repos/index.js';
import '../users/index.js';
import '../users/index.js';
import '../orgs/index.js';
import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import { AccessService } from '../access/index.js';
import { NotFoundError } from '../errors.js';
import type { RepoAccess } from '../repos/index.js';
import { ReposService } from '../repos/index.js';
import { UsersService } from '../users/index.js';
import type { User } from '../users/index.js';
import { RedirectsStore } from './store.js';

/**
 * Where a repository path that names nothing went: its owner was renamed (`owner`, Forgejo answers with the account
 * redirect), or the repository was renamed or transferred (`repo`, with the caller's access to it).
 */
export type RepoRedirect = { kind: 'owner'; owner: User } | { kind: 'repo'; access: RepoAccess };

/**
 * The names renames and transfers leave behind (Forgejo's `repo_redirect` and `user_redirect`). Lookups are for
 * callers that already found nothing under a name, so reading an existing repository or account never costs a
 * query here; they answer only with what the actor may see, so a redirect tells nobody what a 404 would not.
 */
export class RedirectsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): RedirectsStore {
    return this.ctx.store(RedirectsStore);
  }

  /**
   * The rows follow names inside the transaction that changes them: a rename or transfer leaves the old name
   * pointing at the row (a chain A→B→C keeps A pointing at the same id, so at C), and a repository or account
   * taking a name ends its redirect. Once per host.
   */
  subscribe(): void {
    const events = this.ctx.events;
    events.withinTransaction('repo.renamed', async ({ payload }, tx) => {
      const { repo, owner, oldName } = payload;
      const old = oldName.toLowerCase();
      if (old === repo.lower_name) return;
      const store = tx.store(RedirectsStore);
      await store.forgetRepoName(owner.id, repo.lower_name);
      await store.pointRepoName(owner.id, old, repo.id);
    });
    events.withinTransaction('repo.transferred', async ({ payload }, tx) => {
      const { repo, owner, previousOwner } = payload;
      const store = tx.store(RedirectsStore);
      await store.forgetRepoName(owner.id, repo.lower_name);
      await store.pointRepoName(previousOwner.id, repo.lower_name, repo.id);
    });
    // Created, forked, generated, migrated or adopted: the name is a repository's again.
    events.withinTransaction('repo.created', ({ payload }, tx) => tx.store(RedirectsStore).forgetRepoName(payload.owner.id, payload.repo.lower_name));
    events.withinTransaction('user.renamed', async ({ payload, occurredUnix }, tx) => {
      const { user, oldName } = payload;
      const old = oldName.toLowerCase();
      if (old === user.lower_name) return;
      const store = tx.store(RedirectsStore);
      await store.forgetUserName(user.lower_name);
      await store.pointUserName(old, user.id, occurredUnix);
    });
    events.withinTransaction('user.created', ({ payload }, tx) => tx.store(RedirectsStore).forgetUserName(payload.user.lower_name));
    events.withinTransaction('org.created', ({ payload }, tx) => tx.store(RedirectsStore).forgetUserName(payload.org.lower_name));
  }

  /** The account once called `name` (nothing is called so now), when `actor` may see it. */
  async findUser(actor: Actor, name: string): Promise<User | undefined> {
    const id = await this.store.userTarget(name.toLowerCase());
    const user = id === undefined ? undefined : await this.users.findById(id);
    if (!user || !(await this.ctx.service(AccessService).canSee(actor, user))) return undefined;
    return user;
  }

  /**
   * Where `ownerName/repoName`, which names no repository `actor` may see, went: one step, as Forgejo's API and
   * git over HTTP redirect (the account first, then the repository under it).
   */
  async findRepo(actor: Actor, ownerName: string, repoName: string): Promise<RepoRedirect | undefined> {
    const owner = await this.users.findByName(ownerName);
    if (!owner) {
      const moved = await this.findUser(actor, ownerName);
      return moved && { kind: 'owner', owner: moved };
    }
    const id = await this.store.repoTarget(owner.id, repoName.toLowerCase());
    const access = id === undefined ? undefined : await this.accessTo(actor, id);
    return access && { kind: 'repo', access };
  }

  /**
   * The repository `ownerName/repoName` names after every rename and transfer (account and repository both), with
   * `actor`'s access: for git over SSH, which serves the renamed repository in place as Forgejo's serv does.
   */
  async followRepo(actor: Actor, ownerName: string, repoName: string): Promise<RepoAccess | undefined> {
    let owner = await this.users.findByName(ownerName);
    if (!owner) {
      const id = await this.store.userTarget(ownerName.toLowerCase());
      owner = id === undefined ? undefined : await this.users.findById(id);
    }
    if (!owner) return undefined;
    // The name under the owner's current name first; a name that is a repository's is never a redirect's too.
    const current = await this.orNotFound(this.ctx.service(ReposService).resolve(actor, owner.name, repoName));
    if (current) return current;
    const id = await this.store.repoTarget(owner.id, repoName.toLowerCase());
    return id === undefined ? undefined : this.accessTo(actor, id);
  }

  private get users(): UsersService {
    return this.ctx.service(UsersService);
  }

  private accessTo(actor: Actor, repoId: number): Promise<RepoAccess | undefined> {
    return this.orNotFound(this.ctx.service(ReposService).resolveById(actor, repoId));
  }

  /** What `lookup` found, or undefined where it found nothing the actor may see. */
  private async orNotFound<T>(lookup: Promise<T>): Promise<T | undefined> {
    try {
      return await lookup;
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }
}
