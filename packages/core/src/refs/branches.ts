import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import { clampPage, offsetOf, type Page, type Paging } from '../paging.js';
import { acceptInput } from '../validation/index.js';
import { FULL_HEX_ID, type RefCommitInfo, type RefDetail } from '../git/index.js';
import type { RepoAccess } from '../repos/index.js';
import { repoKey } from '../repos/index.js';
import { RepoStorageService, assertValidBranchName } from '../repos/index.js';
import type { ApiView } from '../wire.js';
import { commitUrlBaseOf, toApiBranch, type BranchProtectionView } from './convert.js';
import {
  CreateBranchRepoOptionSchema,
  UpdateBranchRefOptionSchema,
  UpdateBranchRepoOptionSchema,
  type ApiBranch,
  type CreateBranchRepoOption,
  type UpdateBranchRefOption,
  type UpdateBranchRepoOption,
} from './schemas.js';
import { CommitsService } from '../commits/index.js';
import { toApiVerification } from '../commits/index.js';
import { UsersPort } from '../users/index.js';
import { assertCanWriteRefs, moveRefs, zeroId } from './writes.js';
import { actorUser, isSiteAdmin } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { ProtectionService, firstMatchingRule } from '../protection/index.js';
import type { RefUpdate } from '../git/index.js';
import type { BranchRule } from '../protection/index.js';

const HEADS = 'refs/heads/';

/** Forgejo refuses branch changes through the API on a mirror: its branches follow the mirrored repository. */
function assertNotMirror(access: RepoAccess): void {
  if (access.repo.is_mirror === 1) throw new ForbiddenError('Git Repository is a mirror.');
}

/** A branch name as it reaches git: a name `git check-ref-format --branch` accepts, or a 422. */
function assertBranchName(name: string, field: string): void {
  assertValidBranchName(name, field);
  if (name === 'HEAD') throw new ValidationError(field, 'is not a valid branch name');
}

/** `/repos/{owner}/{repo}/branches…`: read, create, delete, rename and move branches. */
export class BranchesService {
  constructor(private readonly ctx: CoreContext) {}

  /** Branches, newest commit first (then by name), as Forgejo lists them; one git pass per page. */
  async list(actor: Actor, access: RepoAccess, view: ApiView, paging: Paging = {}): Promise<Page<ApiBranch>> {
    const page = clampPage(this.ctx.settings, paging);
    const { refs, total } = await this.ctx.git.refDetails(repoKey(access.owner, access.repo), 'branches', { offset: offsetOf(page), limit: page.limit });
    return { items: await this.toApi(refs, access, view), total };
  }

  /** One branch (names with slashes too), or NotFound. */
  async get(actor: Actor, access: RepoAccess, view: ApiView, name: string): Promise<ApiBranch> {
    const detail = await this.find(access, name);
    if (!detail) throw new NotFoundError(`branch does not exist [name: ${name}]`);
    const [branch] = await this.toApi([detail], access, view);
    if (!branch) throw new NotFoundError(`branch does not exist [name: ${name}]`);
    return branch;
  }

  /**
   * Creates `new_branch_name` at `old_ref_name` (a branch, tag or commit), else the deprecated `old_branch_name`
   * (a branch), else the default branch. 409 when it exists, 404 when the source does not.
   */
  async create(actor: Actor, access: RepoAccess, view: ApiView, input: CreateBranchRepoOption): Promise<ApiBranch> {
    const opts = acceptInput(CreateBranchRepoOptionSchema, input);
    assertCanWriteRefs(access);
    assertNotMirror(access);
    assertBranchName(opts.new_branch_name, 'new_branch_name');
    if (access.repo.is_empty === 1) throw new NotFoundError('Git Repository is empty.');
    const key = repoKey(access.owner, access.repo);
    let source: string | undefined;
    if (opts.old_ref_name) {
      source = await this.ctx.git.resolveCommit(key, opts.old_ref_name);
      if (!source) throw new NotFoundError('could not find the ref');
    } else {
      const from = opts.old_branch_name || access.repo.default_branch;
      source = (await this.find(access, from))?.commit?.id;
      if (!source) throw new NotFoundError('The old branch does not exist');
    }
    const ref = HEADS + opts.new_branch_name;
    if (await this.find(access, opts.new_branch_name)) throw new ConflictError('The branch already exists.');
    const update = { ref, oldId: zeroId(access.repo.object_format_name), newId: source };
    await this.assertRuleAllows(actor, access, update);
    await moveRefs(this.ctx, actor, access, [update], 'The branch with the same name already exists.');
    return this.get(actor, access, view, opts.new_branch_name);
  }

  /** Deletes a branch; the default branch is refused (403), as Forgejo does. */
  async delete(actor: Actor, access: RepoAccess, name: string): Promise<void> {
    assertCanWriteRefs(access);
    assertNotMirror(access);
    if (access.repo.is_empty === 1) throw new NotFoundError('Git Repository is empty.');
    const current = await this.find(access, name);
    if (!current) throw new NotFoundError(`branch does not exist [name: ${name}]`);
    if (name === access.repo.default_branch) throw new ForbiddenError('can not delete default branch');
    if (await this.protection.ruleFor(access.repo, name)) throw new ForbiddenError('branch protected');
    // Under the storage lock, against the default branch as it is then: a concurrent change of the default branch
    // to this one (which checks the branch exists under the same lock) comes wholly before or after the delete.
    await this.ctx.service(RepoStorageService).withStorageLock(access.repo.id, async (repo) => {
      if (!repo) throw new NotFoundError(`branch does not exist [name: ${name}]`);
      if (name === repo.default_branch) throw new ForbiddenError('can not delete default branch');
      // Recorded against the row as it is now (its default branch), not as the request found it.
      await moveRefs(this.ctx, actor, { ...access, repo }, [{ ref: current.ref, oldId: current.id, newId: zeroId(repo.object_format_name) }], 'The branch moved while it was being deleted.');
    });
  }

  /** Renames a branch in one ref transaction; renaming the default branch makes the new name the default. */
  async rename(actor: Actor, access: RepoAccess, from: string, input: UpdateBranchRepoOption): Promise<void> {
    const opts = acceptInput(UpdateBranchRepoOptionSchema, input);
    assertCanWriteRefs(access);
    assertNotMirror(access);
    assertBranchName(opts.name, 'name');
    if (access.repo.is_empty === 1) throw new NotFoundError('Git Repository is empty.');
    const current = await this.find(access, from);
    if (!current) throw new NotFoundError("Branch doesn't exist.");
    if (opts.name === from || (await this.find(access, opts.name))) {
      throw new ValidationError('', 'Cannot rename a branch using the same name or rename to a branch that already exists.');
    }
    // A rule named after the branch follows it, renamed by administrators only; a glob rule keeps it in place.
    const rule = await this.protection.ruleFor(access.repo, from);
    if (rule && rule.ruleName === from) {
      if (access.mode < AccessMode.Admin && !isSiteAdmin(actor)) throw new ForbiddenError('User must be a repo or site admin to rename default or protected branches.');
    } else if (rule) throw new ForbiddenError('Branch is protected by glob-based protection rules.');
    const zero = zeroId(access.repo.object_format_name);
    // The new name first: `recordPush` then makes it the default when the old one was.
    await moveRefs(
      this.ctx,
      actor,
      access,
      [
        { ref: HEADS + opts.name, oldId: zero, newId: current.id },
        { ref: current.ref, oldId: current.id, newId: zero },
      ],
      'The branch moved while it was being renamed.',
      { from, to: opts.name },
    );
    if (rule) await this.protection.renameBranchRule(access.repo.id, from, opts.name);
  }

  /**
   * Moves a branch to `new_commit_id` (Gitea's `PUT /branches/{branch}`): from `old_commit_id` when given, and
   * only forward unless `force`; 422 when either does not hold.
   */
  async updateRef(actor: Actor, access: RepoAccess, name: string, input: UpdateBranchRefOption): Promise<void> {
    const opts = acceptInput(UpdateBranchRefOptionSchema, input);
    assertCanWriteRefs(access);
    assertNotMirror(access);
    const key = repoKey(access.owner, access.repo);
    const current = await this.find(access, name);
    if (!current?.commit) throw new NotFoundError(`branch does not exist [name: ${name}]`);
    const target = opts.new_commit_id ? await this.ctx.git.resolveCommit(key, opts.new_commit_id) : undefined;
    if (!target) throw new NotFoundError(`commit does not exist [id: ${opts.new_commit_id}]`);
    if (opts.old_commit_id) {
      const expected = opts.old_commit_id.toLowerCase();
      if (!FULL_HEX_ID.test(expected)) throw new ValidationError('old_commit_id', 'is not a full commit id');
      if (expected !== current.id) throw new ValidationError('', `branch ${name} is at ${current.id}, not at old_commit_id ${expected}`);
    }
    if (target === current.id) return;
    if (!opts.force && !(await this.ctx.git.isAncestor(key, current.id, target))) {
      throw new ValidationError('', `moving branch ${name} to ${target} is not a fast-forward; set force to move it anyway`);
    }
    const update = { ref: current.ref, oldId: current.id, newId: target };
    await this.assertRuleAllows(actor, access, update);
    await moveRefs(this.ctx, actor, access, [update], 'The branch moved while it was being updated.');
  }

  private get protection(): ProtectionService {
    return this.ctx.service(ProtectionService);
  }

  /** A ref move the server makes for a user passes the branch rules a push would (403 with the hook's words). */
  private async assertRuleAllows(actor: Actor, access: RepoAccess, update: RefUpdate): Promise<void> {
    const refusal = await this.protection.checkRefUpdates(actor, access, [update], this.ctx.git.incoming(repoKey(access.owner, access.repo), {}));
    if (refusal) throw new ForbiddenError(refusal);
  }

  /** What each branch's rule says for the viewer; one rule query for the page, one check per rule. */
  private async protectionViews(names: string[], access: RepoAccess, view: ApiView): Promise<(BranchProtectionView | undefined)[]> {
    const rules = await this.protection.branchRules(access.repo.id);
    if (rules.length === 0) return names.map(() => undefined);
    const viewer = actorUser(view.viewer);
    const byRule = new Map<number, Promise<BranchProtectionView>>();
    const viewOf = (rule: BranchRule) => {
      let found = byRule.get(rule.id);
      if (!found) {
        found = Promise.all([this.protection.canUserPush(rule, viewer, access), this.protection.isUserMergeWhitelisted(rule, viewer, access)]).then(
          ([userCanPush, userCanMerge]) => ({
            ruleName: rule.ruleName,
            requiredApprovals: rule.requiredApprovals,
            enableStatusCheck: rule.enableStatusCheck,
            statusCheckContexts: rule.statusCheckContexts,
            userCanPush,
            userCanMerge,
          }),
        );
        byRule.set(rule.id, found);
      }
      return found;
    };
    return Promise.all(names.map((name) => {
      const rule = firstMatchingRule(rules, name);
      return rule ? viewOf(rule) : undefined;
    }));
  }

  private async find(access: RepoAccess, name: string): Promise<RefDetail | undefined> {
    if (!name) return undefined;
    const { refs } = await this.ctx.git.refDetails(repoKey(access.owner, access.repo), 'branches', { names: [name] });
    return refs[0];
  }

  /**
   * The page's branches with their commits' accounts, found in one lookup, their rules in one query, and their
   * commits' verifications (the commits not known to be unsigned read in one pass over the object reader).
   */
  private async toApi(refs: RefDetail[], access: RepoAccess, view: ApiView): Promise<ApiBranch[]> {
    const withCommits = refs.filter((r): r is RefDetail & { commit: RefCommitInfo } => r.commit !== undefined);
    if (withCommits.length === 0) return [];
    const emails: string[] = [];
    for (const r of withCommits) emails.push(r.commit.authorEmail, r.commit.committerEmail);
    const names = withCommits.map((r) => r.ref.slice(HEADS.length));
    const [usernames, verifications, protections] = await Promise.all([
      this.ctx.port(UsersPort).usernamesByCommitEmail(emails, this.ctx.settings.server.DOMAIN),
      this.ctx.service(CommitsService).verifications(repoKey(access.owner, access.repo), withCommits.map((r) => r.commit.id)),
      this.protectionViews(names, access, view),
    ]);
    const commitUrlBase = commitUrlBaseOf(access, view);
    return withCommits.map((r, i) => toApiBranch(names[i]!, r.commit, access, view, usernames, toApiVerification(verifications[i]!), protections[i], commitUrlBase));
  }
}
