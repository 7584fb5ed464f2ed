/**
 * A repository's wiki storage, as Forgejo keeps it: a repository of its own (`<name>.wiki.git`, `wikiRepoKey`)
 * beside the repository's, made on the first write (Forgejo's InitWiki), moved and removed with it
 * (`storage.ts`, `service.ts`), and `has_wiki_contents` on the repository's row kept by every write (the wiki API,
 * a push over git, a migration) under a `wiki` intent that start-up repairs by reading the wiki's branch again.
 */
import type { CoreContext, CoreTransaction } from '../context.js';
import { AccessMode, unitMode, type AccessModeValue } from '../access/index.js';
import { DEFAULT_OBJECT_FORMAT, RepositoryExistsError, isObjectFormat, wikiRepoKey, type ObjectFormat, type RepoKey } from '../git/index.js';
import type { Actor } from '../users/index.js';
import type { RepoAccess } from './access.js';
import { GitIntentStore } from './intents.js';
import { ReposStore } from './store.js';
import type { Repository } from './tables.js';
import { viewUnits } from './units.js';
import { repoKey } from './service.js';

/** The branch a repository's wiki keeps its pages on: the row's, else (before the wiki exists) its default branch. */
export function wikiBranchOf(repo: Pick<Repository, 'wiki_branch' | 'default_branch'>): string {
  return repo.wiki_branch || repo.default_branch;
}

export class RepoWikiStorage {
  constructor(private readonly ctx: CoreContext) {}

  /**
   * The actor's mode on the wiki: None when the wiki unit is off (Forgejo's mustEnableWiki answers 404 then), the
   * wiki unit's mode otherwise, and write for every signed-in reader of a globally editable wiki (Forgejo's
   * `globally_editable_wiki`: the unit's default permission for everyone is write).
   */
  mode(actor: Actor, access: RepoAccess): AccessModeValue {
    const wiki = viewUnits(access.repo.units, this.ctx.settings).wiki;
    if (!wiki) return AccessMode.None;
    const mode = unitMode(access, 'repo.wiki');
    if (mode >= AccessMode.Read && mode < AccessMode.Write && wiki.globally_editable && actor.kind === 'user' && !actor.user.is_restricted) return AccessMode.Write;
    return mode;
  }

  /** The storage key of the repository's wiki. */
  key(access: Pick<RepoAccess, 'owner' | 'repo'>): RepoKey {
    return wikiRepoKey(repoKey(access.owner, access.repo));
  }

  /** Whether the wiki's storage exists (it is made by the first write). */
  exists(access: Pick<RepoAccess, 'owner' | 'repo'>): Promise<boolean> {
    return this.ctx.git.exists(this.key(access));
  }

  /**
   * Records a write of the wiki that is starting (an API edit, a push, a migration): until `complete` commits,
   * a `wiki` intent lets start-up read `has_wiki_contents` from the wiki's branch again. Returns the intent.
   */
  begin(access: Pick<RepoAccess, 'owner' | 'repo'>): Promise<number> {
    return this.ctx.store(GitIntentStore).insert('wiki', this.key(access), access.repo.id);
  }

  /**
   * Makes the wiki's storage when it has none (Forgejo's InitWiki): an empty repository of the repository's object
   * format whose HEAD names the wiki's branch, which the row then records. Call it after `begin`. A migration
   * gives the branch and format its remote wiki has.
   */
  async init(access: Pick<RepoAccess, 'owner' | 'repo'>, options: { branch?: string; objectFormat?: ObjectFormat } = {}): Promise<void> {
    const { repo } = access;
    const key = this.key(access);
    const branch = options.branch ?? wikiBranchOf(repo);
    if (!(await this.ctx.git.exists(key))) {
      try {
        const objectFormat = options.objectFormat ?? (isObjectFormat(repo.object_format_name) ? repo.object_format_name : DEFAULT_OBJECT_FORMAT);
        await this.ctx.git.create(key, { objectFormat, defaultBranch: branch });
      } catch (error) {
        // Made by a write running at the same time.
        if (!(error instanceof RepositoryExistsError)) throw error;
      }
    }
    if (repo.wiki_branch !== branch) await this.ctx.store(ReposStore).update(repo.id, { wiki_branch: branch });
  }

  /** Removes the wiki's storage (a migration's failed import of it); `has_wiki_contents` follows at `complete`. */
  async remove(access: Pick<RepoAccess, 'owner' | 'repo'>): Promise<void> {
    await this.ctx.git.remove(this.key(access));
  }

  /**
   * Ends a write of the wiki: `has_wiki_contents` follows the wiki's branch as git has it now, and the intent goes
   * in the same transaction, with whatever `within` adds to it (the wiki domain's events). Resolves whether the wiki
   * has contents.
   */
  async complete(access: Pick<RepoAccess, 'owner' | 'repo'>, intent: number, within?: (tx: CoreTransaction, repo: Repository) => Promise<void> | void): Promise<boolean> {
    // The row as it is now: `init` may have recorded the wiki's branch since `access` was loaded.
    const repo = (await this.ctx.store(ReposStore).findById(access.repo.id)) ?? access.repo;
    const has = await this.hasContents(repo, this.key(access));
    await this.ctx.transaction(async (tx) => {
      const updated = await tx.store(ReposStore).update(access.repo.id, { has_wiki_contents: has ? 1 : 0 });
      await tx.store(GitIntentStore).delete(intent);
      // `within` sees the row as this write leaves it (deleted meanwhile: as it was).
      await within?.(tx, updated ?? repo);
    });
    return has;
  }

  /** Drops the intent of a write that changed nothing (it failed before git was touched). */
  async abandon(intent: number): Promise<void> {
    await this.ctx.store(GitIntentStore).delete(intent);
  }

  /** The repair of an interrupted write: `has_wiki_contents` read from the wiki's branch again (no storage: false). */
  async resync(repo: Repository, key: RepoKey, intent: number): Promise<void> {
    const has = await this.hasContents(repo, wikiRepoKey(key));
    await this.ctx.transaction(async (tx) => {
      await tx.store(ReposStore).update(repo.id, { has_wiki_contents: has ? 1 : 0 });
      await tx.store(GitIntentStore).delete(intent);
    });
  }

  private async hasContents(repo: Repository, key: RepoKey): Promise<boolean> {
    if (!(await this.ctx.git.exists(key))) return false;
    const ref = `refs/heads/${wikiBranchOf(repo)}`;
    return (await this.ctx.git.readRefs(key, [ref])).has(ref);
  }
}
