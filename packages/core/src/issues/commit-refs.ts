/**
 * Commits that mention issues (`#12`, `owner/repo#12`) leave a `commit_ref` event on each issue's timeline when
 * pushed; on the default branch a keyword before the reference (`fixes #12`, `reopens #3`) closes or reopens the
 * issue for a pusher who may write to its issues, with the commit on the close event (Forgejo's
 * UpdateIssuesCommit). Runs after the push committed: reading commits needs git.
 */
import type { CoreContext } from '../context.js';
import { actorUser, userActor } from '../users/index.js';
import { AccessService } from '../access/index.js';
import { findIssueReferences } from '../timeline/index.js';
import { CommentsPort } from '../timeline/index.js';
import { COMMENT_TYPES, RefAction } from '../timeline/index.js';
import type { DomainEvent } from '../events/index.js';
import type { RefUpdate } from '../git/index.js';
import type { RepoAccess } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import type { User } from '../users/index.js';
import '../repos/index.js';
import { IssuesService } from './service.js';
import { IssuesStore } from './store.js';
import type { Issue } from './tables.js';

/** Commits read per pushed branch: a push of thousands of commits references through its newest ones. */
const MAX_COMMITS_PER_REF = 100;

interface Mention {
  sha: string;
  message: string;
  repoId: number;
  index: number;
  action: number;
  /** The branch the commit was pushed to. */
  branch: string;
}

/**
 * Whether a keyword in a commit pushed to `branch` of `pushedTo` may close or reopen `issue`: an issue tied to a
 * branch (its `ref`) follows that branch; any other follows the default branch of the repository pushed to.
 */
function closesFrom(issue: Pick<Issue, 'ref'>, pushedTo: Repository, branch: string): boolean {
  if (issue.ref !== '') return issue.ref === branch || issue.ref === `refs/heads/${branch}`;
  return branch === pushedTo.default_branch;
}

export class IssueCommitRefsService {
  constructor(private readonly ctx: CoreContext) {}

  subscribe(): void {
    this.ctx.events.on('repo.pushed', (event) => this.onPush(event));
  }

  private async onPush(event: DomainEvent<'repo.pushed'>): Promise<void> {
    const { repo, owner, actor, updates } = event.payload;
    const doer = actorUser(actor);
    if (!doer) return;
    const mentions: Mention[] = [];
    for (const update of updates) {
      try {
        mentions.push(...(await this.mentionsOf(repo, owner, update)));
      } catch (error) {
        console.error(`[repohost] no issue references read for ${update.ref} of ${owner.name}/${repo.name}:`, error);
      }
    }
    if (mentions.length === 0) return;
    await this.record(doer, repo, mentions);
  }

  /** The issue references in the commits a branch update brought, oldest commit first. */
  private async mentionsOf(repo: Repository, owner: User, update: RefUpdate): Promise<Mention[]> {
    const zero = '0'.repeat(update.newId.length);
    if (!update.ref.startsWith('refs/heads/') || update.newId === zero) return [];
    const key = { owner: owner.lower_name, name: repo.lower_name };
    const commits = await this.ctx.git.listCommits(key, {
      head: update.newId,
      exclude: update.oldId === zero ? undefined : update.oldId,
      skip: 0,
      limit: MAX_COMMITS_PER_REF,
      changes: false,
    });
    const branch = update.ref.slice('refs/heads/'.length);
    const names = new Map<string, number | null>();
    const mentions: Mention[] = [];
    for (const commit of commits.reverse()) {
      for (const ref of findIssueReferences(commit.message, { plain: true })) {
        let repoId = repo.id;
        if (ref.owner !== '') {
          const full = `${ref.owner}/${ref.name}`.toLowerCase();
          if (!names.has(full)) names.set(full, await this.repoIdNamed(ref.owner, ref.name));
          const found = names.get(full);
          if (found === null || found === undefined) continue;
          repoId = found;
        }
        mentions.push({ sha: commit.id, message: commit.message.trim(), repoId, index: ref.index, action: ref.action, branch });
      }
    }
    return mentions;
  }

  private async repoIdNamed(ownerName: string, name: string): Promise<number | null> {
    const owner = await this.ctx.port(UsersPort).byName(ownerName);
    const repo = owner && (await this.ctx.port(ReposPort).byOwnerAndName(owner.id, name.toLowerCase()));
    return repo ? repo.id : null;
  }

  /**
   * One `commit_ref` per (issue, commit) on issues the pusher may read; keywords close or reopen as `closesFrom`
   * allows, for a pusher who may write to that issue (a commit seen again on another branch may still close).
   */
  private async record(doer: User, pushedTo: Repository, mentions: readonly Mention[]): Promise<void> {
    const issues = this.ctx.store(IssuesStore);
    const accessService = this.ctx.service(AccessService);
    const issuesService = this.ctx.service(IssuesService);
    const accessByRepo = new Map<number, RepoAccess | null>();
    const doerActor = userActor(doer);
    for (const mention of mentions) {
      if (!accessByRepo.has(mention.repoId)) {
        const repo = mention.repoId === pushedTo.id ? pushedTo : await this.ctx.port(ReposPort).byId(mention.repoId);
        const owner = repo && (await this.ctx.port(UsersPort).byId(repo.owner_id));
        accessByRepo.set(mention.repoId, repo && owner ? await accessService.repoAccess(doerActor, repo, owner) : null);
      }
      const access = accessByRepo.get(mention.repoId);
      if (!access) continue;
      const issue = await issues.byIndex(mention.repoId, mention.index);
      if (!issue || !issuesService.mayRead(access, issue.is_pull)) continue;
      const changesState = mention.action === RefAction.Closes || mention.action === RefAction.Reopens;
      await this.ctx.transaction(async (tx) => {
        // A close is recounted: the repository's row before the issue's (`ReposPort.lockIssueCounts`).
        if (changesState) await tx.port(ReposPort).lockIssueCounts(mention.repoId);
        if ((await tx.port(CommentsPort).issuesReferencingCommit([issue.id], mention.sha)).size === 0) {
          await tx.port(CommentsPort).record({ type: COMMENT_TYPES.commit_ref, poster_id: doer.id, issue_id: issue.id, content: mention.message, commit_sha: mention.sha });
        }
        const current = await tx.store(IssuesStore).byId(issue.id);
        if (!current || current.is_pull || !closesFrom(current, pushedTo, mention.branch) || !issuesService.mayWrite(access, current)) return;
        const close = mention.action === RefAction.Closes;
        if ((!close && mention.action !== RefAction.Reopens) || close === (current.is_closed === 1)) return;
        try {
          const changed = await issuesService.setClosed(tx, doer, access, current, close, mention.sha);
          await issuesService.recount(tx, mention.repoId, changed.milestone_id > 0 ? [changed.milestone_id] : []);
          tx.emit(close ? 'issue.closed' : 'issue.reopened', { actor: doerActor, repo: access.repo, owner: access.owner, issue: changed, commitId: mention.sha });
        } catch {
          // Open dependencies keep it open; the reference stays recorded.
        }
      });
    }
  }
}
