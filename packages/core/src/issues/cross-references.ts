import type { CoreContext, CoreTransaction } from '../context.js';
import { userActor } from '../users/index.js';
import { AccessMode, NO_GRANTS, repoPermission, unitMode } from '../access/index.js';
import { AccessPort } from '../access/index.js';
import { IssuesPort } from './port.js';
import type { Issue } from './tables.js';
import type { RepoAccess } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { viewUnits } from '../repos/index.js';
import { nowUnix } from '../storage/index.js';
import { UsersPort } from '../users/index.js';
import { isOrganization, type User } from '../users/index.js';
import { findIssueReferences, type IssueReference } from '../timeline/index.js';
import { CommentsPort } from '../timeline/index.js';
import type { Comment } from '../timeline/index.js';
import { COMMENT_TYPES, RefAction } from '../timeline/index.js';

/** An issue a text references, with the action the reference keeps. */
interface ReferenceTarget {
  issue: Issue;
  action: number;
}

/**
 * Cross references, as Forgejo's: when an issue's title or body, or a comment, names other issues (`#N`, `!N`,
 * `owner/repo#N`), each named issue gets an event pointing back (`issue_ref`, `pull_ref`, `comment_ref`). It
 * depends on no other service, so the issue core and the comments both call it inside their own transactions.
 */
export class CrossReferencesService {
  constructor(private readonly ctx: CoreContext) {}

  /**
   * Records, on each issue that `text` references, that `issue` (or its `comment`) mentioned it: `#N` and `!N` in
   * the issue's repository, `owner/repo#N` in repositories the doer may read issues of; not the issue itself, once
   * per referenced issue; each referenced issue's `updated_at` moves. With `removeOld` (an edit), references the
   * new text no longer makes are neutered and those it still makes are kept. `updatedUnix` backdates the events
   * (an `updated_at` the doer chose). Runs inside the caller's transaction and reads only through it.
   */
  async record(
    tx: CoreTransaction,
    doer: User,
    repo: Repository,
    issue: Issue,
    text: { title?: string; body: string },
    options: { comment?: Comment; removeOld?: boolean; updatedUnix?: number } = {},
  ): Promise<void> {
    const found = [...(text.title ? findIssueReferences(text.title, { plain: true }) : []), ...findIssueReferences(text.body)];
    const comments = tx.port(CommentsPort);
    const commentId = options.comment?.id ?? 0;
    let targets = await this.referencedIssues(tx, doer, repo, issue, found, commentId !== 0);
    if (options.removeOld) {
      const stale: number[] = [];
      for (const old of await comments.activeReferencesFrom(issue.id, commentId)) {
        const still = targets.findIndex((t) => t.issue.id === old.issue_id && t.action === old.ref_action);
        if (still >= 0) targets = targets.filter((_, i) => i !== still);
        else stale.push(old.id);
      }
      await comments.neuter(stale, options.updatedUnix);
    }
    const type = options.comment ? COMMENT_TYPES.comment_ref : issue.is_pull ? COMMENT_TYPES.pull_ref : COMMENT_TYPES.issue_ref;
    const when = options.updatedUnix ?? nowUnix();
    for (const target of targets) {
      await comments.record({
        type,
        poster_id: doer.id,
        issue_id: target.issue.id,
        ref_repo_id: issue.repo_id,
        ref_issue_id: issue.id,
        ref_comment_id: commentId,
        ref_action: target.action,
        ref_is_pull: issue.is_pull,
        created_unix: when,
        updated_unix: when,
      });
      await tx.port(IssuesPort).markUpdated(target.issue.id, when);
    }
  }

  /** The issues references name that exist and the doer may read, each once, with the action it keeps. */
  private async referencedIssues(
    tx: CoreTransaction,
    doer: User,
    repo: Repository,
    origin: Issue,
    found: readonly IssueReference[],
    fromComment: boolean,
  ): Promise<ReferenceTarget[]> {
    if (found.length === 0) return [];
    const issues = tx.port(IssuesPort);
    const others = new Map<string, RepoAccess | null>();
    for (const ref of found) {
      if (ref.owner === '') continue;
      const key = `${ref.owner}/${ref.name}`.toLowerCase();
      if (!others.has(key)) others.set(key, await this.readableRepo(tx, doer, ref.owner, ref.name));
    }
    const result: ReferenceTarget[] = [];
    let here: Promise<RepoAccess | null> | undefined;
    for (const ref of found) {
      const access = ref.owner === '' ? null : (others.get(`${ref.owner}/${ref.name}`.toLowerCase()) ?? null);
      const repoId = ref.owner === '' ? repo.id : access?.repo.id;
      if (repoId === undefined) continue;
      const target = await issues.byIndex(repoId, ref.index);
      if (!target || target.id === origin.id) continue;
      if (access && !this.mayRead(access, target.is_pull)) continue;
      // Closing and reopening come from pull requests onto issues, by someone who could close the issue by hand
      // (or by the pull request's own body in the same repository: whoever merges it answers for it then).
      let action = target.is_pull || !origin.is_pull ? RefAction.None : ref.action;
      if (action !== RefAction.None && doer.id !== target.poster_id && (access !== null || fromComment)) {
        const where = access ?? (await (here ??= this.accessTo(tx, doer, repo)));
        if (!where || unitMode(where, 'repo.issues') < AccessMode.Write) action = RefAction.None;
      }
      const seen = result.find((r) => r.issue.id === target.id);
      if (!seen) result.push({ issue: target, action });
      else if (action !== RefAction.None) seen.action = action;
    }
    return result;
  }

  /** Read on the issue's unit, and the unit on (what the issue core's `mayRead` asks). */
  private mayRead(access: RepoAccess, isPull: number): boolean {
    if (unitMode(access, isPull ? 'repo.pulls' : 'repo.issues') < AccessMode.Read) return false;
    const units = viewUnits(access.repo.units, this.ctx.settings);
    return isPull ? units.pulls !== undefined : units.issues !== undefined;
  }

  /**
   * The repository as the doer may see it, or null when it does not exist or is hidden from them; read inside the
   * change's transaction (a read beside it would wait for the connection the transaction holds).
   */
  private async readableRepo(tx: CoreTransaction, doer: User, ownerName: string, name: string): Promise<RepoAccess | null> {
    const owner = await tx.port(UsersPort).byName(ownerName);
    const repo = owner ? await tx.port(ReposPort).byOwnerAndName(owner.id, name) : undefined;
    return owner && repo ? this.accessTo(tx, doer, repo, owner) : null;
  }

  /** What the doer may do to `repo` (null: nothing, not even see it), read through the transaction. */
  private async accessTo(tx: CoreTransaction, doer: User, repo: Repository, knownOwner?: User): Promise<RepoAccess | null> {
    const owner = knownOwner ?? (await tx.port(UsersPort).byId(repo.owner_id));
    if (!owner) return null;
    const grants = doer.id === owner.id || doer.is_admin === 1 ? NO_GRANTS : await tx.port(AccessPort).grantsOn(doer.id, repo.id, owner.id, isOrganization(owner));
    const access: RepoAccess = { repo, owner, ...repoPermission(userActor(doer), repo, owner, grants) };
    return access.mode === AccessMode.None ? null : access;
  }
}
