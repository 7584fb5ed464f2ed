import type { CoreContext } from '../context.js';
import type { Actor } from '../access/actor.js';
import { UsersStore } from '../users/store.js';
import { Visibility, isOrganization, type User } from '../users/tables.js';
import { ReposStore } from './store.js';
import type { RepoAccess } from './access.js';

/** Forgejo's watch modes that mean "watching": normal (1) and auto (3); 2 is "don't watch". */
const WATCHING_MODES = [1, 3] as const;

/** Ordered as Forgejo orders user lists by name (byte order of the name). */
function byName(a: User, b: User): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Who takes part in a repository's issues and pull requests: the accounts that can be assigned, and those whose
 * review can be requested. Collaborators and organization teams join these lists when they exist.
 */
export class RepoParticipantsService {
  constructor(private readonly ctx: CoreContext) {}

  /**
   * Accounts with write access (`GET /repos/{owner}/{repo}/assignees`): for now the owner of an individual's
   * repository; collaborators with write access and organization team members come with those features.
   */
  async assignees(_actor: Actor, access: RepoAccess): Promise<User[]> {
    return isOrganization(access.owner) ? [] : [access.owner];
  }

  /**
   * Accounts whose review can be requested (`GET /repos/{owner}/{repo}/reviewers`), as Forgejo chooses them: for a
   * private repository (or a private owner), those who can read it, that is its owner; for a public one, every
   * active account watching it (organization members and collaborators join later). Ordered by name.
   */
  async reviewers(_actor: Actor, access: RepoAccess): Promise<User[]> {
    const { repo, owner } = access;
    if (repo.is_private === 1 || owner.visibility === Visibility.Private) return isOrganization(owner) ? [] : [owner];
    const ids = await this.ctx.store(ReposStore).watcherIds(repo.id, WATCHING_MODES);
    const users = await this.ctx.store(UsersStore).findByIds(ids);
    return [...users.values()].filter((u) => u.is_active === 1).sort(byName);
  }
}
