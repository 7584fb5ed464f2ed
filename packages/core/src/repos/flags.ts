import { Type, type Static } from '@sinclair/typebox';
import type { Generated, Selectable } from 'kysely';
import type { CoreContext } from '../context.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { Store } from '../storage/index.js';
import { isSiteAdmin, type Actor } from '../users/index.js';
import { acceptInput } from '../validation/index.js';
import type { RepoAccess } from './access.js';

/** A name a site administrator set on a repository (Forgejo's `repo_flag`). */
export interface RepoFlagTable {
  id: Generated<number>;
  repo_id: number;
  name: string;
}

export interface RepoFlagsTables {
  repo_flag: RepoFlagTable;
}

export type RepoFlag = Selectable<RepoFlagTable>;

export const ReplaceFlagsOptionSchema = Type.Object(
  { flags: Type.Optional(Type.Array(Type.String())) },
  { $id: 'ReplaceFlagsOption', description: 'ReplaceFlagsOption options when replacing the flags of a repository' },
);
export type ReplaceFlagsOption = Static<typeof ReplaceFlagsOptionSchema>;

/** The `repo_flag` table. */
export class RepoFlagsStore extends Store<RepoFlagsTables> {
  /** The repository's flags, in the order they were set. */
  async names(repoId: number): Promise<string[]> {
    const rows = await this.db.selectFrom('repo_flag').select('name').where('repo_id', '=', repoId).orderBy('id').execute();
    return rows.map((r) => r.name);
  }

  async has(repoId: number, name: string): Promise<boolean> {
    return (await this.db.selectFrom('repo_flag').select('id').where('repo_id', '=', repoId).where('name', '=', name).executeTakeFirst()) !== undefined;
  }

  /** Sets a flag; one already set stays as it is. */
  async add(repoId: number, name: string): Promise<void> {
    await this.db.insertInto('repo_flag').values({ repo_id: repoId, name }).onConflict((oc) => oc.columns(['repo_id', 'name']).doNothing()).execute();
  }

  async remove(repoId: number, name: string): Promise<void> {
    await this.db.deleteFrom('repo_flag').where('repo_id', '=', repoId).where('name', '=', name).execute();
  }

  /** Replaces every flag of the repository with `names` (duplicates once). Run inside a transaction. */
  async replace(repoId: number, names: readonly string[]): Promise<void> {
    await this.db.deleteFrom('repo_flag').where('repo_id', '=', repoId).execute();
    const unique = [...new Set(names)];
    if (unique.length > 0) await this.db.insertInto('repo_flag').values(unique.map((name) => ({ repo_id: repoId, name }))).execute();
  }
}

/**
 * Forgejo's repository flags: names site administrators set on a repository, served only with `[repository]
 * ENABLE_FLAGS` (otherwise there is nothing by that name: NotFound, as an unmounted route).
 */
export class RepoFlagsService {
  constructor(private readonly ctx: CoreContext) {}

  get enabled(): boolean {
    return this.ctx.settings.repository.ENABLE_FLAGS;
  }

  /** The repository's flags. */
  async list(actor: Actor, access: RepoAccess): Promise<string[]> {
    this.assertMayManage(actor);
    return this.ctx.store(RepoFlagsStore).names(access.repo.id);
  }

  /** Whether the repository has the flag: NotFound when it has not. */
  async check(actor: Actor, access: RepoAccess, name: string): Promise<void> {
    this.assertMayManage(actor);
    if (!(await this.ctx.store(RepoFlagsStore).has(access.repo.id, name))) throw new NotFoundError();
  }

  async add(actor: Actor, access: RepoAccess, name: string): Promise<void> {
    this.assertMayManage(actor);
    await this.ctx.store(RepoFlagsStore).add(access.repo.id, name);
  }

  /** Removes the flag; removing one the repository does not have changes nothing. */
  async remove(actor: Actor, access: RepoAccess, name: string): Promise<void> {
    this.assertMayManage(actor);
    await this.ctx.store(RepoFlagsStore).remove(access.repo.id, name);
  }

  /** Replaces every flag with those given (none: removes them all). */
  async replace(actor: Actor, access: RepoAccess, input: ReplaceFlagsOption): Promise<void> {
    this.assertMayManage(actor);
    const { flags = [] } = acceptInput(ReplaceFlagsOptionSchema, input);
    await this.ctx.transaction((tx) => tx.store(RepoFlagsStore).replace(access.repo.id, flags));
  }

  private assertMayManage(actor: Actor): void {
    if (!this.enabled) throw new NotFoundError();
    if (!isSiteAdmin(actor)) throw new ForbiddenError('reqSiteAdmin');
  }
}
