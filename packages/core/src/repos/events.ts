import type { Actor } from '../users/index.js';
import type { RefUpdate } from '../git/index.js';
import type { User } from '../users/index.js';
import type { Repository } from './tables.js';

/** A branch renamed through the API (one push that deletes `from` and creates `to` at its commit). */
export interface RenamedBranch {
  from: string;
  to: string;
}

declare module '../events/bus.js' {
  interface DomainEventMap {
    /** A repository was created (its git storage exists and is initialized as asked). */
    'repo.created': { repo: Repository; owner: User; actor: Actor };
    /** A repository and its git storage were deleted. */
    'repo.deleted': { repo: Repository; owner: User; actor: Actor };
    /**
     * A push changed refs. `repo` is the row after the push was recorded; `updates` are the ref changes that took
     * effect (all-zero old id: created; all-zero new id: deleted). `renamedBranch` when the push renamed a branch:
     * what names the old one (pull requests) follows it, in the push's transaction.
     */
    'repo.pushed': { repo: Repository; owner: User; actor: Actor; updates: RefUpdate[]; renamedBranch?: RenamedBranch };
    /**
     * The bookkeeping was brought in line with the refs after a push that failed or was interrupted: refs may have
     * moved with no `repo.pushed` (what is derived from the refs must be read again).
     */
    'repo.resynced': { repo: Repository };
    /** A repository's settings changed (`PATCH /repos/{owner}/{repo}`): `previous` is the row before, `repo` after. */
    'repo.edited': { repo: Repository; previous: Repository; owner: User; actor: Actor };
    /** A repository was renamed; its git storage moved with it. `repo` has the new name. */
    'repo.renamed': { repo: Repository; owner: User; actor: Actor; oldName: string };
    /** A repository changed owner; its git storage moved with it. `owner` is the new owner. */
    'repo.transferred': { repo: Repository; owner: User; previousOwner: User; actor: Actor };
    /** A transfer was offered to a recipient who must accept it (the repository waits in status "pending transfer"). */
    'repo.transfer_offered': { repo: Repository; owner: User; recipient: User; actor: Actor };
    /**
     * A repository was forked: `repo` is the new fork (owned by `owner`, also announced as `repo.created`), `parent`
     * the repository it was forked from.
     */
    'repo.forked': { repo: Repository; owner: User; parent: Repository; parentOwner: User; actor: Actor };
    /** A pending transfer was rejected by its recipient; the repository stays with `owner`. */
    'repo.transfer_rejected': { repo: Repository; owner: User; recipient: User; actor: Actor };
  }
}
