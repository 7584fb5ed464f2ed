import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import { UsersPort } from '../users/index.js';
import { Visibility, isOrganization, type User } from '../users/index.js';
import { ReposStore } from './store.js';
import { AccessPort } from '../access/index.js';
import { AccessMode } from '../access/index.js';
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
   * Accounts with write access (`GET /repos/{owner}/{repo}/assignees`): collaborators with write access, then the
   * owner of an individual's repository (organization team members come with teams).
   */
  async assignees(_actor: Actor, access: RepoAccess): Promise<User[]> {
    const ids = await this.ctx.port(AccessPort).collaboratorIds(access.repo.id, AccessMode.Write);
    const users = [...(await this.ctx.port(UsersPort).byIds(ids)).values()].filter((u) => u.is_active === 1).sort(byName);
    // Forgejo appends an individual owner after the others.
    return isOrganization(access.owner) || ids.includes(access.owner.id) ? users : [...users, access.owner];
  }

  /**
   * Accounts whose review can be requested (`GET /repos/{owner}/{repo}/reviewers`), as Forgejo chooses them: for a
   * private repository (or a private owner), those who can read it: its collaborators and owner; for a public one,
   * its collaborators and every active account watching it (organization members join later). Ordered by name.
   */
  async reviewers(_actor: Actor, access: RepoAccess): Promise<User[]> {
    const { repo, owner } = access;
    const ids = new Set(await this.ctx.port(AccessPort).collaboratorIds(repo.id, AccessMode.Read));
    if (repo.is_private === 1 || owner.visibility === Visibility.Private) {
      if (!isOrganization(owner)) ids.add(owner.id);
    } else {
      for (const id of await this.ctx.store(ReposStore).watcherIds(repo.id, WATCHING_MODES)) ids.add(id);
    }
    const users = await this.ctx.port(UsersPort).byIds([...ids]);
    return [...users.values()].filter((u) => u.is_active === 1).sort(byName);
  }
}
