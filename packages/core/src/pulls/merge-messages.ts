import type { CoreContext } from '../context.js';
import { webUrl } from '../urls.js';
import type { RepoAccess } from '../repos/index.js';
import { repoKey } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import { viewUnits, type MergeStyle } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import { noReplyAddress } from '../users/index.js';
import type { User } from '../users/index.js';
import './review-reader.js';
import type { Pull } from './tables.js';
import { composeMergeMessage, MERGE_TEMPLATE_MAX_BYTES, mergeTemplatePaths, type MergeMessageFacts } from './merge-message.js';

/** Approvers a merge message names at most (Forgejo's `DEFAULT_MERGE_MESSAGE_MAX_APPROVERS`). */
const MAX_REVIEWED_BY = 10;

/** The git identity of an account, as Forgejo's `NewGitSig` gives it. */
export function gitSignatureOf(user: User, settings: CoreContext['settings']): { name: string; email: string } {
  const safe = (value: string) => value.replace(/[<>\n\r\0]/g, '').trim();
  const name = safe(user.full_name) || safe(user.name) || `user-${user.id}`;
  return { name, email: user.keep_email_private ? noReplyAddress(user, settings) : user.email };
}


/**
 * What a merge's commit message is made of, read from the repository: the facts about the pull request (names,
 * links, official approvers) and the repository's merge message template for the style. The wording itself is
 * `merge-message.ts`.
 */
export class PullMergeMessages {
  constructor(private readonly ctx: CoreContext) {}

  /** The title and body Forgejo gives a merge of `style` when the caller names none. */
  async defaultMessage(access: RepoAccess, pull: Pull, style: MergeStyle): Promise<{ title: string; body: string }> {
    return composeMergeMessage(await this.defaultMessageFacts(access, pull, style), await this.mergeTemplate(access, style));
  }

  /** What a merge message of `style` may say of the pull request. */
  async defaultMessageFacts(access: RepoAccess, pull: Pull, style: MergeStyle): Promise<MergeMessageFacts> {
    const { repo, owner } = access;
    const sameRepo = pull.pull.head_repo_id === repo.id;
    let headOwner: string | undefined = owner.name;
    let headRepo: string | undefined = repo.name;
    if (!sameRepo) {
      const head = await this.ctx.port(ReposPort).byId(pull.pull.head_repo_id);
      const headUser = head && (await this.ctx.port(UsersPort).byId(head.owner_id));
      headOwner = headUser?.name;
      headRepo = head && headUser ? head.name : undefined;
    }
    const poster = await this.ctx.port(UsersPort).byId(pull.issue.poster_id);
    const facts: MergeMessageFacts = {
      style,
      title: pull.issue.name,
      description: pull.issue.content,
      index: pull.issue.index,
      reference: viewUnits(repo.units, this.ctx.settings).external_tracker ? '!' : '#',
      baseOwner: owner.name,
      baseRepo: repo.name,
      baseBranch: pull.pull.base_branch,
      headOwner,
      headRepo,
      headBranch: pull.pull.head_branch,
      sameRepo,
      posterName: poster?.name ?? '',
      htmlUrl: webUrl(this.ctx.settings, `${owner.name}/${repo.name}/pulls/${pull.issue.index}`),
      reviewedBy: await this.reviewedByLines(pull),
    };
    return facts;
  }

  /**
   * `Reviewed-by: Name <email>` lines of the official approvers (Forgejo's defaults: official approvals only, at
   * most ten), for templates' `$ReviewedBy` and the default body.
   */
  private async reviewedByLines(pull: Pull): Promise<string> {
    const approvals = await this.ctx.provider('pulls.reviews').officialApprovals(pull.issue.id);
    const reviewerIds = [...new Set(approvals.map((r) => r.reviewer_id))].slice(0, MAX_REVIEWED_BY);
    if (reviewerIds.length === 0) return '';
    const reviewers = await this.ctx.port(UsersPort).byIds(reviewerIds);
    return reviewerIds
      .flatMap((id) => {
        const reviewer = reviewers.get(id);
        if (!reviewer) return [];
        const sig = gitSignatureOf(reviewer, this.ctx.settings);
        return [`Reviewed-by: ${sig.name} <${sig.email}>\n`];
      })
      .join('');
  }

  /** The repository's template for `style`, read from its default branch; undefined when it has none. */
  async mergeTemplate(access: RepoAccess, style: MergeStyle): Promise<string | undefined> {
    if (access.repo.is_empty === 1) return undefined;
    const key = repoKey(access.owner, access.repo);
    for (const path of mergeTemplatePaths(style)) {
      const blob = await this.ctx.git.readObject(key, `refs/heads/${access.repo.default_branch}:${path}`, { maxBytes: MERGE_TEMPLATE_MAX_BYTES });
      if (blob && blob.type === 'blob') return blob.content.toString('utf8');
    }
    return undefined;
  }
}
