import type { CoreContext, CoreTransaction } from '../context.js';
import { signedInUser, type Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { AccessService } from '../access/index.js';
import { CommitsService, type CommitListPage } from '../commits/index.js';
import { ConflictError, ForbiddenError, LockedError, NotFoundError, PreconditionFailedError, ValidationError } from '../errors.js';
import type { ChangedFileEntry, RefUpdate, RepoKey } from '../git/index.js';
import { IssuesService, type IssueDetails } from '../issues/index.js';
import { IssuesPort } from '../issues/index.js';
import { IssueLabelsService } from '../issues/index.js';
import type { Issue } from '../issues/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import { CommentsPort } from '../timeline/index.js';
import { clampPage, offsetOf, type Page, type PageRequest, type Paging } from '../paging.js';
import type { RepoAccess } from '../repos/index.js';
import { RepoForksService } from '../repos/index.js';
import { repoKey } from '../repos/index.js';
import { viewUnits } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { nowUnix } from '../storage/index.js';
import { UsersPort } from '../users/index.js';
import type { User } from '../users/index.js';
import type { Team } from '../orgs/index.js';
import './review-reader.js';
import { ProtectionService, protectedFilesAmong } from '../protection/index.js';
import { acceptInput } from '../validation/index.js';
import { SocialService } from '../social/index.js';
import './events.js';
import {
  CreatePullRequestOptionSchema,
  EditPullRequestOptionSchema,
  type CreatePullRequestOption,
  type EditPullRequestOption,
  type PullCommitsQuery,
  type PullFilesQuery,
  type PullListQuery,
} from './schemas.js';
import { PullsStore } from './store.js';
import { PULL_STATUS, pullHeadRef, type Pull, type PullRequest, type PullRequestTable } from './tables.js';
import type { Updateable } from 'kysely';

/** What the API view of a pull request shows besides its issue side. */
export interface PullDetails extends IssueDetails {
  pull: PullRequest;
  /** The base repository with the viewer's access. */
  base: RepoAccess;
  /** The head repository with the viewer's access; null when it was deleted or the viewer may not see it. */
  head: RepoAccess | null;
  merger: User | null;
  /** Whether its title marks it as a work in progress. */
  draft: boolean;
  /** The base branch's tip now (absent when the branch is gone). */
  baseCommit: string | undefined;
  /** Whether the head branch still exists in the head repository. */
  headBranchExists: boolean;
  /** The head branch's tip now (absent when the branch is gone). */
  headBranchCommit: string | undefined;
  /** Review requests still open, and the number of review comments (the reviews domain fills them). */
  reviewers: User[];
  reviewerTeams: Team[];
  reviewComments: number;
}

/** The `whitespace` query of the file list, as git's diff options. */
const WHITESPACE_FLAGS: Record<string, string | undefined> = {
  'ignore-all': '--ignore-all-space',
  'ignore-change': '--ignore-space-change',
  'ignore-eol': '--ignore-space-at-eol',
  'show-all': undefined,
};

/**
 * Pull requests: their conversation is an issue (`IssuesService`), their git side a `pull_request` row and the
 * ref `refs/pull/{index}/head` of the base repository, which keeps the head commit even when the head branch or
 * its repository goes. Status, merge base and diff size are computed when the head or the base moves and stored,
 * so reads and lists never run git per item.
 */
export class PullsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): PullsStore {
    return this.ctx.store(PullsStore);
  }

  private get issues(): IssuesService {
    return this.ctx.service(IssuesService);
  }

  /** Keeps pull requests in step with pushes to their head and base branches. */
  subscribe(): void {
    // The branch tips views show are written by the push's own transaction: they hold exactly when it does.
    this.ctx.events.withinTransaction('repo.pushed', async ({ payload }, tx) => {
      // A renamed branch keeps its open pull requests (as base and as head), before the tips below are written.
      if (payload.renamedBranch) await tx.store(PullsStore).renameBranch(payload.repo.id, payload.renamedBranch.from, payload.renamedBranch.to);
      const tips = movedBranches(payload.updates);
      if (tips.size > 0) await tx.store(PullsStore).setBranchTips(payload.repo.id, tips);
    });
    // Refs moved with no push recorded (one that failed midway, or a crash): the next views read the tips again.
    this.ctx.events.withinTransaction('repo.resynced', async ({ payload }, tx) => {
      await tx.store(PullsStore).forgetBranchTips(payload.repo.id);
    });
    this.ctx.events.on('repo.pushed', async ({ payload }) => {
      await this.confirmBranchTips(payload.repo, payload.owner, payload.updates);
      for (const update of payload.updates) {
        if (!update.ref.startsWith('refs/heads/')) continue;
        const branch = update.ref.slice('refs/heads/'.length);
        await this.branchMoved(payload.actor, payload.repo, payload.owner, branch, update.newId);
      }
    });
  }

  /** May the actor read pull requests here (the pulls unit)? */
  mayRead(access: RepoAccess): boolean {
    return this.issues.mayRead(access, true);
  }

  /** Write on the pulls unit: edit others' pull requests, merge. */
  mayWrite(access: RepoAccess): boolean {
    return unitMode(access, 'repo.pulls') >= AccessMode.Write;
  }

  /** The pull request `index` of the repository, or NotFound when it does not exist, is an issue, or may not be read. */
  async resolve(actor: Actor, access: RepoAccess, index: string | number): Promise<Pull> {
    const issue = await this.issues.resolve(actor, access, index).catch(() => undefined);
    const pull = issue?.is_pull ? await this.store.byIssueId(issue.id) : undefined;
    if (!issue || !pull) throw new NotFoundError('pull request does not exist');
    return { issue, pull };
  }

  /**
   * The pull request whose merge made commit `sha` (the full id, as Forgejo matches it), for callers who may read
   * the code; NotFound with Forgejo's message otherwise.
   */
  async byMergedCommit(actor: Actor, access: RepoAccess, sha: string): Promise<Pull> {
    const missing = () => new NotFoundError(`pull request does not exist [id: 0, issue_id: 0, head_repo_id: 0, base_repo_id: ${access.repo.id}, head_branch: , base_branch: ]`);
    if (unitMode(access, 'repo.code') < AccessMode.Read) throw missing();
    const pull = await this.store.byMergedCommit(access.repo.id, sha);
    if (!pull) throw missing();
    return this.resolve(actor, access, pull.index);
  }

  /** The pull requests of these issues (issues that are not pull requests are left out). */
  async ofIssues(issues: readonly Issue[], scope: Pick<CoreTransaction, 'store'> = this.ctx): Promise<Pull[]> {
    const pulls = await scope.store(PullsStore).byIssueIds(issues.filter((i) => i.is_pull).map((i) => i.id));
    const byIssue = new Map(pulls.map((p) => [p.issue_id, p]));
    return issues.flatMap((issue) => {
      const pull = byIssue.get(issue.id);
      return pull ? [{ issue, pull }] : [];
    });
  }

  /** Everything the API views of these pull requests show, in a fixed number of queries. */
  async details(actor: Actor, pulls: readonly Pull[], scope: Pick<CoreTransaction, 'store' | 'port'> = this.ctx): Promise<PullDetails[]> {
    if (pulls.length === 0) return [];
    const issueDetails = await this.issues.details(actor, pulls.map((p) => p.issue), scope);
    // Heads in the base repository (the usual case) and their owners come with the issue details: only other
    // repositories, their owners and the mergers are queried, and nothing when there are none.
    const knownRepos = new Map(issueDetails.map((d) => [d.repo.id, d]));
    const headIds = [...new Set(pulls.map((p) => p.pull.head_repo_id))];
    const otherHeadIds = headIds.filter((id) => !knownRepos.has(id));
    const otherHeads = otherHeadIds.length > 0 ? await scope.port(ReposPort).byIds(otherHeadIds) : [];
    const headRepos = [...headIds.flatMap((id) => knownRepos.get(id)?.repo ?? []), ...otherHeads];
    const users = new Map<number, User>(issueDetails.map((d) => [d.owner.id, d.owner]));
    const userIds = [...new Set([...otherHeads.map((r) => r.owner_id), ...pulls.map((p) => p.pull.merger_id).filter((id) => id > 0)])].filter((id) => !users.has(id));
    if (userIds.length > 0) for (const [id, user] of await scope.port(UsersPort).byIds(userIds)) users.set(id, user);
    const reposById = new Map<number, Repository>(headRepos.map((r) => [r.id, r]));
    // Base repositories come with the issue details; their access (and that of heads elsewhere) in one batch.
    const pairs = new Map<number, { repo: Repository; owner: User }>();
    for (const d of issueDetails) pairs.set(d.repo.id, { repo: d.repo, owner: d.owner });
    for (const repo of headRepos) {
      const owner = users.get(repo.owner_id);
      if (owner && !pairs.has(repo.id)) pairs.set(repo.id, { repo, owner });
    }
    const accesses = await this.ctx.service(AccessService).repoAccessMany(actor, [...pairs.values()]);
    const accessById = new Map(accesses.map((a) => [a.repo.id, a]));
    const tips = await this.branchTips(pulls, pairs, scope);
    const reviews = await this.ctx.provider('pulls.reviews').summaries(pulls.map((p) => p.issue.id), scope);
    const prefixes = this.ctx.settings['repository.pull-request'].WORK_IN_PROGRESS_PREFIXES;
    return pulls.map(({ pull }, i) => {
      const details = issueDetails[i]!;
      const head = reposById.has(pull.head_repo_id) ? accessById.get(pull.head_repo_id) : undefined;
      const title = details.issue.name.toUpperCase();
      // Field by field, not `{ ...details, pull, … }`: V8 (Node 20) gives an object built by a spread and then more
      // properties a map of its own, at about a microsecond a property, which was most of a page's conversion.
      return {
        issue: details.issue,
        repo: details.repo,
        owner: details.owner,
        poster: details.poster,
        assignees: details.assignees,
        labels: details.labels,
        milestone: details.milestone,
        attachments: details.attachments,
        pull,
        base: accessById.get(details.repo.id)!,
        head: head && head.mode >= AccessMode.Read ? head : null,
        merger: pull.merger_id > 0 ? (users.get(pull.merger_id) ?? null) : null,
        draft: prefixes.some((prefix) => prefix !== '' && title.startsWith(prefix.toUpperCase())),
        baseCommit: tips[i]!.base || undefined,
        headBranchExists: tips[i]!.head !== '',
        headBranchCommit: tips[i]!.head || undefined,
        reviewers: reviews.get(pull.issue_id)?.requestedReviewers ?? [],
        reviewerTeams: reviews.get(pull.issue_id)?.requestedTeams ?? [],
        reviewComments: reviews.get(pull.issue_id)?.reviewComments ?? 0,
      };
    });
  }

  /**
   * The tips of each pull request's base and head branches (`''`: gone), as its row keeps them: no git at all.
   * Tips a row does not know yet (see `PullRequestTable.base_branch_commit_id`) are read once from the repository's
   * long-lived object reader and stored, unless a push stored its own meanwhile.
   */
  private async branchTips(pulls: readonly Pull[], repos: ReadonlyMap<number, { repo: Repository; owner: User }>, scope: Pick<CoreTransaction, 'store'>): Promise<{ base: string; head: string }[]> {
    const reads = new Map<string, Promise<string>>();
    const read = (repoId: number, branch: string): Promise<string> => {
      const pair = repos.get(repoId);
      // A head repository that is gone has no branches.
      if (!pair) return Promise.resolve('');
      const id = `${repoId}:${branch}`;
      let found = reads.get(id);
      if (!found) {
        found = this.ctx.git.resolveRevision(repoKey(pair.owner, pair.repo), `refs/heads/${branch}`).then((info) => info?.id ?? '');
        reads.set(id, found);
      }
      return found;
    };
    return Promise.all(
      pulls.map(async ({ pull }) => {
        const known = { base: pull.base_branch_commit_id, head: pull.head_branch_commit_id };
        if (known.base !== null && known.head !== null) return { base: known.base, head: known.head };
        const [base, head] = await Promise.all([known.base ?? read(pull.base_repo_id, pull.base_branch), known.head ?? read(pull.head_repo_id, pull.head_branch)]);
        // A head repository that is gone keeps its tip unknown: it may come back (a transfer) with its branches.
        await scope.store(PullsStore).fillBranchTips(pull.id, {
          ...(known.base === null ? { base } : {}),
          ...(known.head === null && repos.has(pull.head_repo_id) ? { head } : {}),
        });
        return { base, head };
      }),
    );
  }

  /**
   * After a push was recorded: the tips its transaction stored are checked against the refs (one object-reader call
   * per moved branch that pull requests use), since two pushes to one branch may record in the other order than
   * git moved it. What differs is corrected.
   */
  private async confirmBranchTips(repo: Repository, owner: User, updates: readonly RefUpdate[]): Promise<void> {
    const moved = movedBranches(updates);
    if (moved.size === 0) return;
    const used = await this.store.branchesInUse(repo.id, [...moved.keys()]);
    if (used.size === 0) return;
    const key = repoKey(owner, repo);
    const stale = new Map<string, string>();
    await Promise.all(
      [...used].map(async (branch) => {
        const now = (await this.ctx.git.resolveRevision(key, `refs/heads/${branch}`))?.id ?? '';
        if (now !== moved.get(branch)) stale.set(branch, now);
      }),
    );
    if (stale.size > 0) await this.store.setBranchTips(repo.id, stale);
  }

  /** A page of a repository's pull requests (`GET /repos/{owner}/{repo}/pulls`). */
  async list(_actor: Actor, access: RepoAccess, query: PullListQuery, paging: Paging = {}): Promise<Page<Pull>> {
    if (!this.mayRead(access)) throw new NotFoundError();
    const page = clampPage(this.ctx.settings, paging);
    const state = query.state ?? 'open';
    let posterId: number | undefined;
    if (query.poster) {
      const poster = await this.ctx.port(UsersPort).byName(query.poster);
      if (!poster) throw new NotFoundError(`user does not exist [uid: 0, name: ${query.poster}]`);
      posterId = poster.id;
    }
    const narrowed = query.base !== undefined || query.head !== undefined;
    const found = await this.ctx.port(IssuesPort).list(
      {
        repoId: access.repo.id,
        isPull: true,
        ...(state === 'all' ? {} : { isClosed: state === 'closed' }),
        ...(query.milestone ? { milestoneIds: [query.milestone] } : {}),
        ...(query.labels && query.labels.length > 0 ? { labelIdGroups: query.labels.map((id) => [id]) } : {}),
        ...(posterId !== undefined ? { posterId } : {}),
        ...(narrowed ? { ids: this.store.issueIdsOf(access.repo.id, { base: query.base, head: query.head }) } : {}),
      },
      query.sort ?? 'latest',
      page,
    );
    return { items: await this.ofIssues(found.items), total: found.total };
  }

  /**
   * The newest pull request from `head` into `base` (`GET /pulls/{base}/{head}`); `head` may name another
   * owner's fork as `owner:branch`.
   */
  async byBaseHead(actor: Actor, access: RepoAccess, base: string, head: string): Promise<Pull> {
    if (!this.mayRead(access)) throw new NotFoundError();
    const { repo: headRepo, branch } = await this.headOf(actor, access, head, { quiet: true });
    const pull = await this.store.latestWithTargets(access.repo.id, base, headRepo.id, branch);
    const issue = pull && (await this.ctx.port(IssuesPort).byId(pull.issue_id));
    if (!pull || !issue) throw new NotFoundError('pull request does not exist');
    return { issue, pull };
  }

  /**
   * Where `head` (`branch`, `owner:branch` or `owner/repo:branch`) lives: the base repository itself, or a
   * repository of its fork network the actor may read (Forgejo: the owner's fork of the base, or the base's
   * parent when that owner holds it).
   */
  private async headOf(actor: Actor, access: RepoAccess, head: string, options: { quiet?: boolean } = {}): Promise<{ repo: Repository; access: RepoAccess; branch: string }> {
    const colon = head.indexOf(':');
    if (colon < 0) return { repo: access.repo, access, branch: head };
    const who = head.slice(0, colon);
    const branch = head.slice(colon + 1);
    if (branch.includes(':')) throw new NotFoundError();
    const [ownerName, repoName] = who.includes('/') ? who.split('/', 2) : [who, undefined];
    const owner = await this.ctx.port(UsersPort).byName(ownerName ?? '');
    if (!owner) throw new NotFoundError(options.quiet ? 'pull request does not exist' : 'GetUserByName');
    if (owner.id === access.owner.id && (repoName === undefined || repoName.toLowerCase() === access.repo.lower_name)) {
      return { repo: access.repo, access, branch };
    }
    const forks = this.ctx.service(RepoForksService);
    let repo: Repository | undefined;
    if (repoName !== undefined) {
      const named = await this.ctx.port(ReposPort).byOwnerAndName(owner.id, repoName);
      if (named && forks.inSameForkNetwork(named, access.repo)) repo = named;
    } else repo = await forks.headRepository(access.repo, owner);
    if (!repo) throw new NotFoundError(options.quiet ? 'pull request does not exist' : 'GetBaseRepo');
    const headAccess = await this.ctx.service(AccessService).repoAccess(actor, repo, owner);
    if (unitMode(headAccess, 'repo.code') < AccessMode.Read) throw new NotFoundError("Can't read headRepo UnitTypeCode");
    return { repo, access: headAccess, branch };
  }

  /** Opens a pull request (`POST /repos/{owner}/{repo}/pulls`), as Forgejo's CreatePullRequest. */
  async create(actor: Actor, access: RepoAccess, input: CreatePullRequestOption): Promise<Pull> {
    const user = signedInUser(actor);
    const opts = acceptInput(CreatePullRequestOptionSchema, input);
    const headName = opts.head ?? '';
    const baseName = opts.base ?? '';
    if (headName === baseName) throw new ValidationError('', 'Invalid PullRequest: There are no changes between the head and the base');
    if (!this.mayRead(access) || unitMode(access, 'repo.code') < AccessMode.Read) throw new NotFoundError("Can't read pulls or can't read UnitTypeCode");
    if (access.repo.is_archived) throw new LockedError();
    const head = await this.headOf(actor, access, headName);
    const baseKey = repoKey(access.owner, access.repo);
    const headKey = repoKey(head.access.owner, head.repo);
    const [baseCommit, headCommit] = await Promise.all([
      baseName === '' ? undefined : this.ctx.git.resolveCommit(baseKey, `refs/heads/${baseName}`),
      head.branch === '' ? undefined : this.ctx.git.resolveCommit(headKey, `refs/heads/${head.branch}`),
    ]);
    // Forgejo also takes tags and commit ids here, then refuses them: only branches make pull requests.
    if (!baseCommit || !headCommit) {
      const isOther = async (key: RepoKey, name: string) => name !== '' && (await this.ctx.git.resolveCommit(key, name)) !== undefined;
      if ((!baseCommit && (await isOther(baseKey, baseName))) || (!headCommit && (await isOther(headKey, head.branch)))) {
        throw new ValidationError('', 'Invalid PullRequest: base and head must be branches');
      }
      throw new NotFoundError();
    }
    const existing = await this.openWithTargets(head.repo.id, head.branch, access.repo.id, baseName);
    if (existing) {
      throw new ConflictError(
        `pull request already exists for these targets [id: ${existing.id}, issue_id: ${existing.index}, head_repo_id: ${existing.head_repo_id}, base_repo_id: ${existing.base_repo_id}, head_branch: ${existing.head_branch}, base_branch: ${existing.base_branch}]`,
      );
    }

    // Forgejo's NewPullRequest refuses a poster the repository's owner blocked; asked before the head's objects come over.
    await this.ctx.service(SocialService).assertNotBlockedByAny([access.repo.owner_id], user.id);
    // The head commit's objects come over before the measure, which runs in the base repository.
    if (head.repo.id !== access.repo.id) await this.ctx.git.copyCommit(headKey, baseKey, headCommit);
    const measured = await this.measure(baseKey, { repoId: access.repo.id, branch: baseName }, baseCommit, headCommit);
    let pull: PullRequest | undefined;
    const issue = await this.issues.open(
      actor,
      access,
      { title: opts.title ?? '', body: opts.body, assignee: opts.assignee, assignees: opts.assignees, milestone: opts.milestone, labels: opts.labels, due_date: opts.due_date },
      {
        attach: async (tx, issue) => {
          // Written over whatever an earlier, rolled-back attempt at this index left; the objects are here already.
          await this.ctx.git.storeCommitRef(baseKey, pullHeadRef(issue.index), headCommit);
          pull = await tx.store(PullsStore).insert({
            ...measured,
            issue_id: issue.id,
            index: issue.index,
            head_repo_id: head.repo.id,
            base_repo_id: access.repo.id,
            head_branch: head.branch,
            base_branch: baseName,
            allow_maintainer_edit: viewUnits(access.repo.units, this.ctx.settings).pulls?.default_allow_maintainer_edit ? 1 : 0,
          });
          tx.emit('pull.opened', { actor, repo: access.repo, owner: access.owner, issue, pull });
        },
      },
    );
    void user;
    return { issue, pull: pull! };
  }

  /** An open, unmerged pull request with these targets, if any. */
  private async openWithTargets(headRepoId: number, headBranch: string, baseRepoId: number, baseBranch: string): Promise<PullRequest | undefined> {
    const candidates = await this.store.withTargets(headRepoId, headBranch, baseRepoId, baseBranch);
    if (candidates.length === 0) return undefined;
    const issues = await this.ctx.port(IssuesPort).byIds(candidates.map((c) => c.issue_id));
    const open = new Set(issues.filter((i) => !i.is_closed).map((i) => i.id));
    return candidates.find((c) => open.has(c.issue_id));
  }

  /**
   * Points `refs/pull/{index}/head` of the base repository at the head commit, bringing the commit's objects over
   * first when the head lives in another repository of the fork network.
   */
  private async keepHead(base: { repo: Repository; owner: User }, index: number, headRepo: Repository, headKey: RepoKey, commit: string): Promise<void> {
    const key = repoKey(base.owner, base.repo);
    if (headRepo.id !== base.repo.id) await this.ctx.git.copyCommit(headKey, key, commit);
    await this.ctx.git.storeCommitRef(key, pullHeadRef(index), commit);
  }

  /**
   * Where a pull request from `headCommit` into `baseCommit` stands (merge base, status, conflicting files,
   * commits ahead and behind, diff size): git only, no database, so it runs before any transaction.
   */
  private async measure(key: RepoKey, target: { repoId: number; branch: string }, baseCommit: string, headCommit: string): Promise<Updateable<PullRequestTable>> {
    const git = this.ctx.git;
    const mergeBase = (await git.mergeBase(key, baseCommit, headCommit)) ?? '';
    let status: number = PULL_STATUS.mergeable;
    let conflicts: string[] = [];
    let files: ChangedFileEntry[] = [];
    if (mergeBase === '') status = PULL_STATUS.error;
    else if (mergeBase === headCommit) status = PULL_STATUS.ancestor;
    else {
      const [merged, baseTree, changed] = await Promise.all([
        git.mergeTree(key, baseCommit, headCommit),
        git.resolveRevision(key, `${baseCommit}^{tree}`),
        git.changedFiles(key, mergeBase, headCommit),
      ]);
      files = changed;
      if (!merged.tree) status = PULL_STATUS.error;
      else if (merged.conflicts.length > 0) {
        status = PULL_STATUS.conflict;
        conflicts = merged.conflicts;
      } else if (merged.tree === baseTree?.id) status = PULL_STATUS.empty;
    }
    const [ahead, behind, rule] = await Promise.all([
      mergeBase === '' ? 0 : git.countCommits(key, { head: headCommit, exclude: baseCommit }),
      mergeBase === '' ? 0 : git.countCommits(key, { head: baseCommit, exclude: headCommit }),
      files.length === 0 ? undefined : this.ctx.service(ProtectionService).ruleFor({ id: target.repoId }, target.branch),
    ]);
    // The paths a protection rule of the base branch guards; a merge touching them is refused.
    const changedProtected = protectedFilesAmong(rule, files.flatMap((f) => (f.previousPath ? [f.previousPath, f.path] : [f.path])));
    return {
      merge_base: mergeBase,
      head_commit_id: headCommit,
      status,
      conflicted_files: JSON.stringify(conflicts),
      changed_protected_files: JSON.stringify(changedProtected),
      commits_ahead: ahead,
      commits_behind: behind,
      additions: files.reduce((n, f) => n + f.additions, 0),
      deletions: files.reduce((n, f) => n + f.deletions, 0),
      changed_files: files.length,
    };
  }

  /**
   * Checks a pull request again against the current tips of its base branch and its head ref (after a push to
   * either, or a merge). A pull request already merged keeps what it had.
   */
  async refresh(pull: Pull): Promise<Pull> {
    if (pull.pull.has_merged) return pull;
    const base = await this.ctx.port(ReposPort).byId(pull.pull.base_repo_id);
    const owner = base && (await this.ctx.port(UsersPort).byId(base.owner_id));
    if (!base || !owner) return pull;
    const key = repoKey(owner, base);
    const [baseCommit, headCommit] = await Promise.all([
      this.ctx.git.resolveCommit(key, `refs/heads/${pull.pull.base_branch}`),
      this.ctx.git.resolveCommit(key, pullHeadRef(pull.pull.index)),
    ]);
    if (!baseCommit || !headCommit) return pull;
    const measured = await this.measure(key, { repoId: base.id, branch: pull.pull.base_branch }, baseCommit, headCommit);
    return { issue: pull.issue, pull: await this.store.update(pull.pull.id, measured) };
  }

  /**
   * Checks again the open pull requests left "checking" or "error" (an interrupted check, a retarget whose check
   * did not run, a merge base git could not find then), a batch at a time until done or `signal` aborts.
   * Returns how many were checked. Forgejo re-checks such pull requests at start; here a recurring task does.
   */
  async recheckUnsettled(signal: AbortSignal): Promise<number> {
    const unsettled = [PULL_STATUS.checking, PULL_STATUS.error];
    let after = 0;
    let checked = 0;
    for (;;) {
      if (signal.aborted) return checked;
      const batch = await this.store.unmergedWithStatus(unsettled, after, 100);
      if (batch.length === 0) return checked;
      after = batch[batch.length - 1]!.id;
      const open = new Map((await this.ctx.port(IssuesPort).byIds(batch.map((p) => p.issue_id))).filter((i) => !i.is_closed).map((i) => [i.id, i]));
      for (const pull of batch) {
        const issue = open.get(pull.issue_id);
        if (!issue || signal.aborted) continue;
        await this.refresh({ issue, pull });
        checked++;
      }
    }
  }

  /**
   * A branch of `repo` moved to `newId` (all zeros: deleted). Pull requests with that head follow it (their head
   * ref moves, `pull.synchronized`); pull requests into it are checked again.
   */
  private async branchMoved(actor: Actor, repo: Repository, owner: User, branch: string, newId: string): Promise<void> {
    const deleted = /^0+$/.test(newId);
    const [heads, bases] = await Promise.all([this.store.withHead(repo.id, branch), this.store.withBase(repo.id, branch)]);
    const issues = await this.ctx.port(IssuesPort).byIds([...heads, ...bases].map((p) => p.issue_id));
    const openIssues = new Map(issues.filter((i) => !i.is_closed).map((i) => [i.id, i]));
    if (!deleted) {
      for (const pull of heads) {
        const issue = openIssues.get(pull.issue_id);
        if (!issue || pull.head_commit_id === newId) continue;
        await this.synchronize(actor, { issue, pull }, repo, newId);
        await this.followHeadTip(actor, issue, repo, owner, branch, newId);
      }
    }
    for (const pull of bases) {
      const issue = openIssues.get(pull.issue_id);
      if (issue) await this.refresh({ issue, pull });
    }
  }

  /**
   * After synchronizing to `synced`: a later push to the branch, whose handler ran while this one was still
   * checking, found the row not yet moved and left it. The branch's tip now decides; a few rounds at most.
   */
  private async followHeadTip(actor: Actor, issue: Issue, headRepo: Repository, headOwner: User, branch: string, synced: string): Promise<void> {
    const key = repoKey(headOwner, headRepo);
    for (let round = 0; round < 3; round++) {
      const tip = (await this.ctx.git.resolveRevision(key, `refs/heads/${branch}`))?.id;
      if (!tip || tip === synced) return;
      // Only while it is open and unmerged, as `branchMoved` follows.
      const [pull, now] = await Promise.all([this.store.byIssueId(issue.id), this.ctx.port(IssuesPort).byId(issue.id)]);
      if (!pull || !now || now.is_closed || pull.has_merged || pull.head_commit_id === tip) return;
      await this.synchronize(actor, { issue: now, pull }, headRepo, tip);
      synced = tip;
    }
  }

  /** Moves a pull request's head to `commit` of its head repository and checks it again. */
  private async synchronize(actor: Actor, current: Pull, headRepo: Repository, commit: string): Promise<void> {
    const base = await this.ctx.port(ReposPort).byId(current.pull.base_repo_id);
    const [baseOwner, headOwner] = base ? await Promise.all([this.ctx.port(UsersPort).byId(base.owner_id), this.ctx.port(UsersPort).byId(headRepo.owner_id)]) : [];
    if (!base || !baseOwner || !headOwner) return;
    const before = current.pull.head_commit_id;
    await this.keepHead({ repo: base, owner: baseOwner }, current.pull.index, headRepo, repoKey(headOwner, headRepo), commit);
    const baseKey = repoKey(baseOwner, base);
    const baseCommit = await this.ctx.git.resolveCommit(baseKey, `refs/heads/${current.pull.base_branch}`);
    const measured = baseCommit ? await this.measure(baseKey, { repoId: base.id, branch: current.pull.base_branch }, baseCommit, commit) : { head_commit_id: commit };
    await this.ctx.transaction(async (tx) => {
      const pull = await tx.store(PullsStore).update(current.pull.id, measured);
      const issue = await tx.port(IssuesPort).markUpdated(current.issue.id, nowUnix());
      await tx.port(CommentsPort).record({ type: COMMENT_TYPES.pull_push, poster_id: signedInUser(actor).id, issue_id: issue.id, commit_sha: commit, content: JSON.stringify({ is_force_push: false, commit_ids: [commit] }) });
      tx.emit('pull.synchronized', { actor, repo: base, owner: baseOwner, issue, pull, before, after: commit });
    });
  }

  /**
   * Edits a pull request (`PATCH /repos/{owner}/{repo}/pulls/{index}`): the issue side as an issue's edit does
   * (poster or writers; labels for writers), then the base branch and `allow_maintainer_edit`.
   */
  async edit(actor: Actor, access: RepoAccess, current: Pull, input: EditPullRequestOption): Promise<Pull> {
    const user = signedInUser(actor);
    const opts = acceptInput(EditPullRequestOptionSchema, input);
    if (current.issue.poster_id !== user.id && !this.mayWrite(access)) throw new ForbiddenError('user is neither the poster nor a writer');
    if (opts.state !== undefined && current.pull.has_merged) throw new PreconditionFailedError('cannot change state of this pull request, it was already merged');
    if (opts.allow_maintainer_edit !== undefined && current.issue.poster_id !== user.id) {
      throw new ForbiddenError('SetAllowEdits: user has no permission for this action');
    }
    const newBase = !current.pull.has_merged && opts.base !== undefined && opts.base !== '' && opts.base !== current.pull.base_branch ? opts.base : undefined;
    const key = repoKey(access.owner, access.repo);
    const newBaseCommit = newBase === undefined ? undefined : await this.ctx.git.resolveCommit(key, `refs/heads/${newBase}`);
    if (newBase !== undefined && !newBaseCommit) throw new NotFoundError(`new base '${newBase}' not exist`);
    if (newBase !== undefined) {
      if (current.issue.is_closed) throw new ValidationError('', `issue is closed [id: ${current.issue.id}, repo_id: ${current.issue.repo_id}, index: ${current.issue.index}]`);
      const clash = await this.openWithTargets(current.pull.head_repo_id, current.pull.head_branch, access.repo.id, newBase);
      if (clash) {
        throw new ConflictError(
          `pull request already exists for these targets [id: ${clash.id}, issue_id: ${clash.index}, head_repo_id: ${clash.head_repo_id}, base_repo_id: ${clash.base_repo_id}, head_branch: ${clash.head_branch}, base_branch: ${clash.base_branch}]`,
        );
      }
    }

    const issue = await this.issues.edit(actor, access, current.issue, {
      title: opts.title,
      body: opts.body,
      assignee: opts.assignee,
      assignees: opts.assignees,
      // Forgejo's pull request edit treats 0 as "leave the milestone".
      milestone: opts.milestone ? opts.milestone : undefined,
      state: opts.state,
      due_date: opts.due_date,
      unset_due_date: opts.unset_due_date,
    });
    if (opts.labels !== undefined && this.mayWrite(access)) await this.ctx.service(IssueLabelsService).replace(actor, access, issue, opts.labels);

    let pull = current.pull;
    const measured = newBaseCommit ? await this.measure(key, { repoId: access.repo.id, branch: newBase ?? pull.base_branch }, newBaseCommit, pull.head_commit_id) : undefined;
    if (newBase !== undefined || opts.allow_maintainer_edit !== undefined) {
      pull = await this.ctx.transaction(async (tx) => {
        let row = pull;
        if (opts.allow_maintainer_edit !== undefined) row = await tx.store(PullsStore).update(row.id, { allow_maintainer_edit: opts.allow_maintainer_edit ? 1 : 0 });
        if (newBase !== undefined) {
          const previousBase = row.base_branch;
          row = await tx.store(PullsStore).update(row.id, { ...measured, base_branch: newBase });
          await tx.port(CommentsPort).record({ type: COMMENT_TYPES.change_target_branch, poster_id: user.id, issue_id: issue.id, old_ref: previousBase, new_ref: newBase });
          tx.emit('pull.retargeted', { actor, repo: access.repo, owner: access.owner, issue, pull: row, previousBase });
        }
        return row;
      });
    }
    const fresh = await this.ctx.port(IssuesPort).byId(issue.id);
    return { issue: fresh ?? issue, pull };
  }

  /** The pull request's changes as one diff or as patches (`GET /pulls/{index}.diff|.patch`). */
  async diff(_actor: Actor, access: RepoAccess, pull: Pull, format: 'diff' | 'patch', binary: boolean): Promise<Buffer> {
    const { base, head } = await this.range(access, pull);
    return this.ctx.git.diffRange(repoKey(access.owner, access.repo), base, head, format, binary);
  }

  /**
   * The commits of a pull request, newest first (`GET /pulls/{index}/commits`): those of its head that its base
   * lacks (its merge base once merged).
   */
  async commits(actor: Actor, access: RepoAccess, pull: Pull, query: PullCommitsQuery, paging: Paging = {}): Promise<CommitListPage> {
    const { base, head } = await this.range(access, pull, { excludeBranch: true });
    return this.ctx.service(CommitsService).between(actor, access, { head, exclude: base }, { verification: query.verification, files: query.files }, paging);
  }

  /** The files a pull request changes (`GET /pulls/{index}/files`), a page at a time; `skip-to` starts at a file. */
  async files(_actor: Actor, access: RepoAccess, pull: Pull, query: PullFilesQuery, paging: Paging = {}): Promise<{ items: ChangedFileEntry[]; total: number; head: string; page: PageRequest }> {
    const page = clampPage(this.ctx.settings, paging);
    const { base, head } = await this.range(access, pull);
    let files = await this.ctx.git.changedFiles(repoKey(access.owner, access.repo), base, head, { ignoreWhitespace: WHITESPACE_FLAGS[query.whitespace ?? 'show-all'] });
    const skipTo = query['skip-to'];
    if (skipTo) {
      const at = files.findIndex((f) => f.path === skipTo);
      if (at > 0) files = files.slice(at);
    }
    const start = offsetOf(page);
    return { items: files.slice(start, start + page.limit), total: files.length, head, page };
  }

  /**
   * The commits a pull request's changes run between: from its merge base (the base branch's tip for commit
   * lists, as Forgejo does while open) to its head.
   */
  private async range(access: RepoAccess, pull: Pull, options: { excludeBranch?: boolean } = {}): Promise<{ base: string; head: string }> {
    const key = repoKey(access.owner, access.repo);
    const head = (await this.ctx.git.resolveCommit(key, pullHeadRef(pull.pull.index))) ?? pull.pull.head_commit_id;
    let base = pull.pull.merge_base;
    if (options.excludeBranch && !pull.pull.has_merged) base = (await this.ctx.git.resolveCommit(key, `refs/heads/${pull.pull.base_branch}`)) ?? base;
    if (!head || !base) throw new NotFoundError('pull request has no commits to compare');
    return { base, head };
  }
}

/** The branches `updates` move, each with its new tip (`''`: deleted). */
function movedBranches(updates: readonly RefUpdate[]): Map<string, string> {
  const tips = new Map<string, string>();
  for (const update of updates) {
    if (!update.ref.startsWith('refs/heads/')) continue;
    tips.set(update.ref.slice('refs/heads/'.length), /^0+$/.test(update.newId) ? '' : update.newId);
  }
  return tips;
}
