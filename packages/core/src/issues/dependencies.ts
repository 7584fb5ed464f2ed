/**
 * Issue dependencies (`/issues/{index}/dependencies` and `/blocks`): an issue depends on others that block it until
 * they are closed. Either side may be in another repository the actor can see; changing a dependency needs write
 * on the blocked issue ("target") and read on its blocker, as Forgejo checks.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { CoreContext } from '../context.js';
import { actorUser, type Actor } from '../users/index.js';
import { AccessService } from '../access/index.js';
import { CommentsPort } from '../timeline/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import { BadRequestError, ConflictError, LockedError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import { clampPage, offsetOf, type Paging } from '../paging.js';
import type { RepoAccess } from '../repos/index.js';
import { ReposService } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import { viewUnits } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import type { Settings } from '../config/index.js';
import { acceptInput } from '../validation/index.js';
import { IssueDependenciesStore } from './dependencies-store.js';
import { IssuesService } from './service.js';
import { IssuesStore } from './store.js';
import type { Issue } from './tables.js';

/** The issue a request body names. */
export const IssueMetaSchema = Type.Object(
  {
    index: Type.Integer({ format: 'int64' }),
    owner: Type.String(),
    repo: Type.String(),
  },
  { $id: 'IssueMeta', description: 'IssueMeta basic issue information' },
);
export type IssueRef = Static<typeof IssueMetaSchema>;

/** Does the repository allow dependencies? Its issues unit says; without one, Forgejo's default (on). */
export function dependenciesEnabled(repo: Repository, settings: Settings): boolean {
  const issues = viewUnits(repo.units, settings).issues;
  return issues ? issues.enable_issue_dependencies : true;
}

export class IssueDependenciesService {
  constructor(private readonly ctx: CoreContext) {}

  private get issues(): IssuesService {
    return this.ctx.service(IssuesService);
  }

  /**
   * The issues `issue` depends on (`blockers`) or that depend on it (`blocked`), those the actor may read, a page
   * of them. Listing blockers needs dependencies enabled in the issue's repository (404 otherwise), as in Forgejo.
   */
  async list(actor: Actor, access: RepoAccess, issue: Issue, which: 'blockers' | 'blocked', paging: Paging = {}): Promise<Issue[]> {
    if (which === 'blockers' && !dependenciesEnabled(access.repo, this.ctx.settings)) throw new NotFoundError();
    const store = this.ctx.store(IssueDependenciesStore);
    const linked = which === 'blockers' ? await store.blockersOf(issue.id, issue.repo_id) : await store.blockedBy(issue.id, issue.repo_id);
    const readable = await this.readable(actor, access, linked);
    const page = clampPage(this.ctx.settings, paging);
    return readable.slice(offsetOf(page), offsetOf(page) + page.limit);
  }

  /** `issues` keeping those the actor may read, each checked against its own repository (a fixed number of queries). */
  async readable(actor: Actor, known: RepoAccess, issues: readonly Issue[]): Promise<Issue[]> {
    const accesses = await accessOfRepos(this.ctx, actor, issues.map((i) => i.repo_id), known);
    return issues.filter((i) => {
      const access = accesses.get(i.repo_id);
      return access !== undefined && this.issues.mayRead(access, i.is_pull);
    });
  }

  /**
   * Makes `pathIssue` depend on the issue `other` names (`POST …/dependencies`), or makes that issue depend on
   * `pathIssue` (`POST …/blocks`). Returns `pathIssue` as it is afterwards.
   */
  add(actor: Actor, access: RepoAccess, pathIssue: Issue, other: IssueRef, route: 'dependencies' | 'blocks'): Promise<Issue> {
    return this.change(actor, access, pathIssue, other, route, true);
  }

  /** Undoes `add` (`DELETE …/dependencies`, `DELETE …/blocks`); 404 when there was no such dependency. */
  remove(actor: Actor, access: RepoAccess, pathIssue: Issue, other: IssueRef, route: 'dependencies' | 'blocks'): Promise<Issue> {
    return this.change(actor, access, pathIssue, other, route, false);
  }

  private async change(actor: Actor, access: RepoAccess, pathIssue: Issue, input: IssueRef, route: 'dependencies' | 'blocks', adding: boolean): Promise<Issue> {
    const ref = acceptInput(IssueMetaSchema, input);
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError('token is required');
    // The dependencies routes refuse an archived repository outright (Forgejo's mustNotBeArchived); the blocks
    // routes only look at the blocked issue's repository, below.
    if (route === 'dependencies' && access.repo.is_archived) throw new LockedError();
    const otherAccess = await this.otherRepo(actor, access, ref);
    const otherIssue = await this.issues.resolve(actor, otherAccess, ref.index);
    const [target, targetAccess, dependency] =
      route === 'dependencies' ? [pathIssue, access, otherIssue] : [otherIssue, otherAccess, pathIssue];
    // Forgejo answers 404 for each of these: a repository without dependencies, one that is archived, a target
    // the actor may not change (the dependency side was readable, or resolve would have failed).
    if (targetAccess.repo.is_archived || !dependenciesEnabled(targetAccess.repo, this.ctx.settings)) throw new NotFoundError();
    if (!this.issues.mayWrite(targetAccess, target)) throw new NotFoundError();
    if (adding && target.id === dependency.id) throw new ValidationError('index', 'an issue cannot depend on itself');

    await this.ctx.transaction(async (tx) => {
      const deps = tx.store(IssueDependenciesStore);
      await deps.lockGraph();
      if (adding) {
        if (await deps.exists(target.id, dependency.id)) {
          throw new ConflictError(`issue dependency does already exist [issue id: ${target.id}, dependency id: ${dependency.id}]`);
        }
        if (await deps.wouldCycle(target.id, dependency.id)) {
          throw new ConflictError(`circular dependencies exists (two issues blocking each other) [issue id: ${target.id}, dependency id: ${dependency.id}]`);
        }
        if (!(await deps.insert(user.id, target.id, dependency.id))) {
          throw new ConflictError(`issue dependency does already exist [issue id: ${target.id}, dependency id: ${dependency.id}]`);
        }
      } else if (!(await deps.delete(target.id, dependency.id))) {
        throw new NotFoundError(`issue dependency does not exist [issue id: ${target.id}, dependency id: ${dependency.id}]`);
      }
      // One event on each side, each naming the other issue, as Forgejo records them.
      const type = adding ? COMMENT_TYPES.add_dependency : COMMENT_TYPES.remove_dependency;
      const comments = tx.port(CommentsPort);
      await comments.record({ type, poster_id: user.id, issue_id: target.id, dependent_issue_id: dependency.id });
      await comments.record({ type, poster_id: user.id, issue_id: dependency.id, dependent_issue_id: target.id });
      await tx.store(IssuesStore).touch(target.id);
      await tx.store(IssuesStore).touch(dependency.id);
    });
    return (await this.ctx.store(IssuesStore).byId(pathIssue.id)) ?? pathIssue;
  }

  /** The repository the body names: the path's own, or another the actor may see (404 otherwise). */
  private async otherRepo(actor: Actor, access: RepoAccess, ref: IssueRef): Promise<RepoAccess> {
    if (ref.owner.toLowerCase() === access.owner.lower_name && ref.repo.toLowerCase() === access.repo.lower_name) return access;
    if (!this.ctx.settings.service.ALLOW_CROSS_REPOSITORY_DEPENDENCIES) throw new BadRequestError('CrossRepositoryDependencies not enabled');
    if (ref.owner === '' || ref.repo === '') throw new NotFoundError();
    return this.ctx.service(ReposService).resolve(actor, ref.owner, ref.repo);
  }
}

/**
 * The actor's access to each of the repositories (`known` is reused for its own), in a fixed number of queries:
 * the repositories, their owners, the grants. Repositories that are gone are absent from the map.
 */
export async function accessOfRepos(ctx: CoreContext, actor: Actor, repoIds: readonly number[], known?: RepoAccess): Promise<Map<number, RepoAccess>> {
  const result = new Map<number, RepoAccess>();
  if (known) result.set(known.repo.id, known);
  const missing = [...new Set(repoIds)].filter((id) => !result.has(id));
  if (missing.length === 0) return result;
  const repos = await ctx.port(ReposPort).byIds(missing);
  const owners = await ctx.port(UsersPort).byIds([...new Set(repos.map((r) => r.owner_id))]);
  const pairs = repos.flatMap((repo) => {
    const owner = owners.get(repo.owner_id);
    return owner ? [{ repo, owner }] : [];
  });
  for (const access of await ctx.service(AccessService).repoAccessMany(actor, pairs)) result.set(access.repo.id, access);
  return result;
}
