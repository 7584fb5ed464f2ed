/**
 * Writes what the downloader read into a RepoHost repository (Forgejo's GiteaLocalUploader): labels, milestones,
 * releases with their assets, issues and pull requests under their own numbers with their comments, then the
 * counters those feed. Authors are matched to local accounts by name; someone without one is kept by their remote
 * name and id (`original_author`, `original_author_id`) with the ghost as poster, as Forgejo shows a migrated item
 * whose author it cannot map.
 *
 * Each page is written in one transaction after everything it needs was read, so a run that stops leaves whole
 * pages; a re-run (the job is retried) skips what is there already: labels and milestones by name, releases by
 * tag, issues and pull requests by number.
 */
import { randomUUID } from 'node:crypto';
import { posix } from 'node:path';
import { AttachmentsPort } from '../../attachments/index.js';
import { attachmentBlobKey, type NewAttachment } from '../../attachments/index.js';
import { BlobsService } from '../../blobs/index.js';
import { CommentsPort } from '../../timeline/index.js';
import type { NewComment } from '../../timeline/index.js';
import { COMMENT_TYPES } from '../../timeline/index.js';
import type { CoreContext, CoreTransaction } from '../../context.js';
import { FULL_HEX_ID, type RepoKey } from '../../git/index.js';
import { IssuesPort } from '../../issues/index.js';
import type { Issue, NewIssue } from '../../issues/index.js';
import { LabelsPort } from '../../labels/index.js';
import { MilestonesPort } from '../../milestones/index.js';
import { PullsPort } from '../../pulls/index.js';
import { PullsService } from '../../pulls/index.js';
import { PULL_STATUS, pullHeadRef, type NewPullRequest } from '../../pulls/index.js';
import { ReactionsPort } from '../../reactions/index.js';
import type { NewReaction } from '../../reactions/index.js';
import { ReleasesPort } from '../../releases/index.js';
import { ReviewsPort } from '../../reviews/index.js';
import { REVIEW_TYPES, type NewReview } from '../../reviews/index.js';
import { ReposPort } from '../../repos/index.js';
import { isValidRefName } from '../../repos/index.js';
import { repoKey } from '../../repos/index.js';
import { truncateBytes } from '../../text.js';
import type { Repository } from '../../repos/index.js';
import { nowUnix } from '../../storage/index.js';
import { UsersPort } from '../../users/index.js';
import { GHOST_USER_ID } from '../../users/index.js';
import type { User } from '../../users/index.js';
import { MigrationError, type GiteaApiClient } from './client.js';
import type { RemoteComment, RemoteIssue, RemoteLabel, RemoteMilestone, RemotePull, RemoteReaction, RemoteRelease, RemoteReview, RemoteUser } from './downloader.js';

/** Who an imported row names: a local account, or the remote author kept by name and id. */
interface Authorship {
  userId: number;
  originalAuthor: string;
  originalAuthorId: number;
}

/** An issue or pull request of a page with its comments and reactions, read and ready to write. */
export interface IssueWithComments<T extends RemoteIssue> {
  item: T;
  comments: RemoteComment[];
  reactions: RemoteReaction[];
  /** Pull requests only. */
  reviews: RemoteReview[];
}

/** Forgejo's review states as stored types; a pending review is its author's draft and is not brought over. */
const REVIEW_STATES = new Map<string, number>([
  ['APPROVED', REVIEW_TYPES.approve],
  ['REQUEST_CHANGES', REVIEW_TYPES.reject],
  ['COMMENT', REVIEW_TYPES.comment],
  ['REQUEST_REVIEW', REVIEW_TYPES.request],
]);

export class GiteaUploader {
  private readonly key: RepoKey;
  /** Local accounts by lower-case name; null: none of that name (or an organization). */
  private readonly users = new Map<string, User | null>();
  private labelIds = new Map<string, number>();
  private milestoneIds = new Map<string, number>();

  constructor(
    private readonly ctx: CoreContext,
    private readonly repo: Repository,
    owner: User,
    private readonly doer: User,
    /** The remote is this instance: a remote author is the local account with the same id and name. */
    private readonly sameInstance: boolean,
  ) {
    this.key = repoKey(owner, repo);
  }

  /** Loads what an earlier attempt wrote, so a re-run maps onto it instead of writing it twice. */
  async prepare(): Promise<void> {
    const labels = await this.ctx.port(LabelsPort).listOfRepo(this.repo.id);
    this.labelIds = new Map(labels.map((l) => [l.name, l.id]));
    const milestones = await this.ctx.port(MilestonesPort).namesOfRepo(this.repo.id);
    this.milestoneIds = new Map(milestones.map((m) => [m.name, m.id]));
  }

  async labels(items: readonly RemoteLabel[]): Promise<void> {
    const now = nowUnix();
    const fresh = dedupeBy(items, (l) => l.name).filter((l) => !this.labelIds.has(l.name));
    const rows = await this.ctx.port(LabelsPort).insertImported(
      fresh.map((l) => ({
        repo_id: this.repo.id,
        org_id: 0,
        name: truncateBytes(l.name, 255),
        exclusive: l.exclusive ? 1 : 0,
        description: l.description,
        color: normalizeColor(l.color),
        num_issues: 0,
        num_closed_issues: 0,
        created_unix: now,
        updated_unix: now,
        archived_unix: 0,
      })),
    );
    for (const row of rows) this.labelIds.set(row.name, row.id);
  }

  async milestones(items: readonly RemoteMilestone[]): Promise<void> {
    const now = nowUnix();
    const fresh = dedupeBy(items, (m) => m.title).filter((m) => !this.milestoneIds.has(m.title));
    const rows = await this.ctx.port(MilestonesPort).insertImported(
      fresh.map((m) => {
        const created = m.created || m.updated || m.deadline || now;
        return {
          repo_id: this.repo.id,
          name: truncateBytes(m.title, 255),
          content: m.description,
          is_closed: m.closed ? 1 : 0,
          created_unix: created,
          updated_unix: m.updated || created,
          deadline_unix: m.deadline,
          closed_date_unix: m.closed ? m.closedAt || m.updated || created : 0,
        };
      }),
    );
    for (const row of rows) this.milestoneIds.set(row.name, row.id);
  }

  /** One release with its assets: files are stored first, then the release and its asset rows in one transaction. */
  async release(client: GiteaApiClient, item: RemoteRelease): Promise<void> {
    if (!isValidRefName(item.tag)) return;
    if ((await this.ctx.port(ReleasesPort).byTag(this.repo.id, item.tag)) !== undefined) return;
    const git = this.ctx.git;
    const sha = (await git.resolveCommit(this.key, `refs/tags/${item.tag}`)) ?? '';
    const numCommits = sha ? await git.countCommits(this.key, { head: sha }) : 0;
    const author = await this.authorOf(item.publisher);
    const created = item.created || nowUnix();
    const blobs = this.ctx.service(BlobsService).storage('attachments');
    const maxMiB = this.ctx.settings.attachment.MAX_SIZE;
    // As for uploaded assets: `[attachment] MAX_SIZE` (negative: no limit).
    const maxBytes = maxMiB < 0 ? Number.POSITIVE_INFINITY : maxMiB * 1024 * 1024;
    const assets: Omit<NewAttachment, 'release_id'>[] = [];
    const stored: string[] = [];
    try {
      for (const asset of item.assets) {
        client.checkAborted();
        const base = { uuid: randomUUID(), repo_id: this.repo.id, uploader_id: author.userId, name: truncateBytes(asset.name, 255), download_count: asset.downloadCount, created_unix: asset.created || created };
        // A link, or a file somewhere else than the remote instance: kept as a link (nothing is fetched from a third place).
        if (asset.external || !client.isUnderBase(asset.url)) {
          if (!/^https?:\/\//i.test(asset.url)) continue;
          assets.push({ ...base, external_url: asset.url });
          continue;
        }
        const key = attachmentBlobKey(base.uuid);
        stored.push(key);
        // Straight from the remote into storage, never whole in memory.
        const size = await client.download(asset.url, maxBytes, async (body) => (await blobs.put(key, body, { maxBytes })).size);
        assets.push({ ...base, size });
      }
      await this.ctx.transaction(async (tx) => {
        await tx.port(ReposPort).lockForReleases(this.repo.id);
        const release = await tx.port(ReleasesPort).insert({
          repo_id: this.repo.id,
          publisher_id: author.userId,
          original_author: author.originalAuthor,
          original_author_id: author.originalAuthorId,
          tag_name: item.tag,
          lower_tag_name: item.tag.toLowerCase(),
          target: isValidRefName(item.target) ? item.target : '',
          title: truncateBytes(item.name, 255),
          note: item.body,
          sha1: sha,
          num_commits: numCommits,
          is_draft: item.draft ? 1 : 0,
          is_prerelease: item.prerelease ? 1 : 0,
          created_unix: created,
        });
        for (const asset of assets) await tx.port(AttachmentsPort).insert({ ...asset, release_id: release.id });
      });
    } catch (error) {
      await Promise.all(stored.map((key) => blobs.delete(key).catch(() => {})));
      throw error;
    }
  }

  /** A page of issues with their comments, in one transaction; numbers already present are skipped. */
  async issues(page: readonly IssueWithComments<RemoteIssue>[]): Promise<void> {
    const todo = await this.notYetImported(page);
    if (todo.length === 0) return;
    const rows = await this.issueRows(todo.map((t) => t.item), false);
    const comments = await this.commentAuthors(todo);
    await this.ctx.transaction(async (tx) => {
      const inserted = await tx.port(IssuesPort).insertImported(rows);
      await this.writeIssueExtras(tx, todo, inserted, comments);
    });
  }

  /**
   * A page of pull requests with their comments. The head commit is kept at `refs/pull/N/head` when the
   * repository has it (the clone brought the remote's refs/pull/* or the branch); one whose head is gone is still
   * imported, without a head, as Forgejo does. Unmerged ones are then checked against their base.
   */
  async pulls(page: readonly IssueWithComments<RemotePull>[]): Promise<void> {
    const todo = await this.notYetImported(page);
    if (todo.length === 0) return;
    const git = this.ctx.git;
    const heads = new Map<number, { head: string; mergeBase: string; measurable: boolean }>();
    for (const { item } of todo) {
      let head = '';
      if (FULL_HEX_ID.test(item.head.sha) && (await git.resolveCommit(this.key, item.head.sha)) === item.head.sha) {
        await git.storeCommitRef(this.key, pullHeadRef(item.number), item.head.sha);
        head = item.head.sha;
      } else {
        head = (await git.resolveCommit(this.key, pullHeadRef(item.number))) ?? '';
      }
      const baseTip = head && isValidRefName(item.base.ref) ? await git.resolveCommit(this.key, `refs/heads/${item.base.ref}`) : undefined;
      const mergeBase = head && baseTip ? ((await git.mergeBase(this.key, baseTip, head)) ?? '') : '';
      heads.set(item.number, { head, mergeBase, measurable: baseTip !== undefined });
    }
    const prefixes = this.ctx.settings['repository.pull-request'].WORK_IN_PROGRESS_PREFIXES.filter((p) => p !== '');
    const items = todo.map(({ item }) => {
      // A draft is a title with a work-in-progress prefix here, as in Forgejo.
      const marked = prefixes.some((p) => item.title.toUpperCase().startsWith(p.toUpperCase()));
      return item.draft && !marked && prefixes[0] ? { ...item, title: `${prefixes[0]} ${item.title}` } : item;
    });
    const rows = await this.issueRows(items, true);
    const comments = await this.commentAuthors(todo);
    const written = await this.ctx.transaction(async (tx) => {
      const inserted = await tx.port(IssuesPort).insertImported(rows);
      const byIndex = new Map(inserted.map((i) => [Number(i.index), i]));
      const pullRows: NewPullRequest[] = todo.map(({ item }) => {
        const issue = byIndex.get(item.number)!;
        const { head, mergeBase, measurable } = heads.get(item.number)!;
        const merged = item.merged;
        return {
          issue_id: issue.id,
          index: item.number,
          head_repo_id: this.repo.id,
          base_repo_id: this.repo.id,
          head_branch: headBranchName(item),
          base_branch: item.base.ref,
          merge_base: mergeBase,
          head_commit_id: head,
          // Unmerged ones with a head and a base are measured right after; without either they cannot merge.
          status: merged ? PULL_STATUS.mergeable : measurable ? PULL_STATUS.checking : PULL_STATUS.error,
          has_merged: merged ? 1 : 0,
          merged_unix: merged ? item.mergedAt || item.closedAt || issue.updated_unix : 0,
          merged_commit_id: merged && FULL_HEX_ID.test(item.mergeCommit) ? item.mergeCommit : '',
          merger_id: merged ? this.doer.id : 0,
        };
      });
      const pulls = await tx.port(PullsPort).importMany(pullRows);
      await this.writeIssueExtras(tx, todo, inserted, comments);
      await this.writeReviews(tx, todo, byIndex, heads, comments);
      const issuesById = new Map(inserted.map((i) => [i.id, i]));
      return pulls.map((pull) => ({ issue: issuesById.get(pull.issue_id)!, pull }));
    });
    const service = this.ctx.service(PullsService);
    for (const pull of written) {
      if (!pull.pull.has_merged && pull.pull.head_commit_id) await service.refresh(pull);
    }
  }

  /** The counters imported rows feed: comment counts, the index sequence, repository, milestone and label counts. */
  async finish(): Promise<void> {
    await this.ctx.transaction(async (tx) => {
      await tx.port(IssuesPort).recountComments(this.repo.id);
      await tx.port(IssuesPort).continueIndexAfterHighest(this.repo.id);
      await tx.port(IssuesPort).recountAfterStateChange(this.repo.id, [...this.milestoneIds.values()], { repos: tx.port(ReposPort), milestones: tx.port(MilestonesPort) });
      const labelIds = [...this.labelIds.values()];
      await tx.port(LabelsPort).lockCounts(labelIds);
      await tx.port(LabelsPort).setIssueCounts(labelIds, await tx.port(IssuesPort).labelCounts(labelIds));
      await tx.port(ReposPort).lockForReleases(this.repo.id);
      await tx.port(ReposPort).setReleaseCount(this.repo.id, await tx.port(ReleasesPort).countPublished(this.repo.id));
    });
  }

  // ---- internals ----

  private async notYetImported<T extends RemoteIssue>(page: readonly IssueWithComments<T>[]): Promise<IssueWithComments<T>[]> {
    const unique = dedupeBy(page, (p) => String(p.item.number));
    const present = await this.ctx.port(IssuesPort).existingIndexes(this.repo.id, unique.map((p) => p.item.number));
    return unique.filter((p) => !present.has(p.item.number));
  }

  private async issueRows(items: readonly RemoteIssue[], isPull: boolean): Promise<NewIssue[]> {
    await this.loadUsers(items.map((i) => i.poster.login));
    const now = nowUnix();
    return items.map((item) => {
      const author = this.authorFor(item.poster);
      const created = item.created || item.closedAt || now;
      return {
        repo_id: this.repo.id,
        index: item.number,
        poster_id: author.userId,
        original_author: author.originalAuthor,
        original_author_id: author.originalAuthorId,
        name: truncateBytes(item.title, 255),
        content: item.body,
        milestone_id: (item.milestone !== undefined ? this.milestoneIds.get(item.milestone) : undefined) ?? 0,
        is_closed: item.closed ? 1 : 0,
        is_pull: isPull ? 1 : 0,
        ref: isValidRefName(item.ref.replace(/^refs\/(heads|tags)\//, '')) ? item.ref : '',
        deadline_unix: item.deadline,
        created_unix: created,
        updated_unix: item.updated || created,
        closed_unix: item.closed ? item.closedAt || item.updated || created : 0,
        is_locked: item.locked ? 1 : 0,
      };
    });
  }

  /** Labels, assignees (when the remote is this instance) and comments of freshly inserted issues. */
  private async writeIssueExtras<T extends RemoteIssue>(
    tx: CoreTransaction,
    page: readonly IssueWithComments<T>[],
    inserted: readonly Issue[],
    authors: Map<RemoteUser, Authorship>,
  ): Promise<void> {
    const byIndex = new Map(inserted.map((i) => [Number(i.index), i]));
    const labels: { issue_id: number; label_id: number }[] = [];
    const assignees: { issue_id: number; assignee_id: number }[] = [];
    const comments: NewComment[] = [];
    const commentReactions: RemoteReaction[][] = [];
    const reactions: NewReaction[] = [];
    const reactionRow = (issueId: number, commentId: number, reaction: RemoteReaction): NewReaction => {
      const author = authors.get(reaction.user)!;
      return {
        type: reaction.content,
        issue_id: issueId,
        comment_id: commentId,
        user_id: author.userId,
        original_author: author.originalAuthor,
        original_author_id: author.originalAuthorId,
        created_unix: reaction.created || nowUnix(),
      };
    };
    for (const { item, comments: remoteComments, reactions: issueReactions } of page) {
      const issue = byIndex.get(item.number);
      if (!issue) throw new MigrationError(`issue #${item.number} was not written`);
      for (const name of new Set(item.labels)) {
        const id = this.labelIds.get(name);
        if (id !== undefined) labels.push({ issue_id: issue.id, label_id: id });
      }
      const assigned = new Set<number>();
      for (const login of item.assignees) {
        // As for authors: only on this very instance is a remote name a local account.
        const user = this.sameInstance ? this.users.get(login.toLowerCase()) : undefined;
        if (user && !assigned.has(user.id)) {
          assigned.add(user.id);
          assignees.push({ issue_id: issue.id, assignee_id: user.id });
        }
      }
      for (const reaction of issueReactions) reactions.push(reactionRow(issue.id, 0, reaction));
      for (const comment of remoteComments) {
        const author = authors.get(comment.poster)!;
        const created = comment.created || issue.created_unix;
        comments.push({
          type: COMMENT_TYPES.comment,
          issue_id: issue.id,
          poster_id: author.userId,
          original_author: author.originalAuthor,
          original_author_id: author.originalAuthorId,
          content: comment.body,
          created_unix: created,
          updated_unix: comment.updated || created,
        });
        commentReactions.push(comment.reactions);
      }
    }
    await tx.port(IssuesPort).addImportedLabels(labels);
    await tx.port(IssuesPort).addImportedAssignees(assignees);
    const commentIds = await tx.port(CommentsPort).insertImported(comments);
    commentIds.forEach((id, i) => {
      for (const reaction of commentReactions[i]!) reactions.push(reactionRow(comments[i]!.issue_id, id, reaction));
    });
    await tx.port(ReactionsPort).insertImported(reactions.filter((r) => r.type.length <= 64));
  }

  /**
   * Reviews of a page of pull requests (Forgejo's InsertReviews): each review, a timeline comment for it, and its
   * code comments, which keep the remote's diff hunk as their patch (Forgejo cuts one from the local diff; the
   * remote's is that text already, and needs no git here).
   */
  private async writeReviews(
    tx: CoreTransaction,
    page: readonly IssueWithComments<RemoteIssue>[],
    issues: ReadonlyMap<number, Issue>,
    heads: ReadonlyMap<number, { head: string }>,
    authors: Map<RemoteUser, Authorship>,
  ): Promise<void> {
    const kept: { issue: Issue; review: RemoteReview; type: number; head: string }[] = [];
    for (const { item, reviews } of page) {
      const issue = issues.get(item.number)!;
      for (const review of reviews) {
        const type = REVIEW_STATES.get(review.state.toUpperCase());
        if (type !== undefined) kept.push({ issue, review, type, head: heads.get(item.number)?.head ?? '' });
      }
    }
    if (kept.length === 0) return;
    const rows: NewReview[] = kept.map(({ issue, review, type }) => {
      const author = authors.get(review.reviewer)!;
      const created = review.created || issue.created_unix;
      return {
        type,
        reviewer_id: author.userId,
        original_author: author.originalAuthor,
        original_author_id: author.originalAuthorId,
        issue_id: issue.id,
        content: review.body,
        official: review.official ? 1 : 0,
        commit_id: FULL_HEX_ID.test(review.commitId) ? review.commitId : '',
        stale: review.stale ? 1 : 0,
        dismissed: review.dismissed ? 1 : 0,
        created_unix: created,
        updated_unix: review.updated || created,
      };
    });
    const ids = await tx.port(ReviewsPort).insertImported(rows);
    const comments: NewComment[] = [];
    kept.forEach(({ issue, review, head }, i) => {
      const reviewId = ids[i]!;
      const row = rows[i]!;
      const author = authors.get(review.reviewer)!;
      const who = { poster_id: author.userId, original_author: author.originalAuthor, original_author_id: author.originalAuthorId };
      // Every row of one statement names the same columns (SQLite has no DEFAULT in a VALUES list).
      const none = { line: 0, tree_path: '', commit_sha: '', patch: '' };
      comments.push({ type: COMMENT_TYPES.review, ...who, ...none, issue_id: issue.id, content: review.body, review_id: reviewId, created_unix: row.created_unix, updated_unix: row.updated_unix });
      for (const code of review.comments) {
        const treePath = relativeTreePath(code.path);
        // A code comment without the diff it is about cannot be shown (Forgejo skips those too).
        if (code.diffHunk === '' || treePath === '') continue;
        const poster = authors.get(code.poster)!;
        const created = code.created || row.created_unix;
        comments.push({
          type: COMMENT_TYPES.code,
          poster_id: poster.userId,
          original_author: poster.originalAuthor,
          original_author_id: poster.originalAuthorId,
          issue_id: issue.id,
          content: code.body,
          line: code.line,
          tree_path: treePath,
          commit_sha: FULL_HEX_ID.test(code.commitId) ? code.commitId : head,
          // Stored as a patch excerpt with its file header, as review comments keep theirs.
          patch: `diff --git a/${treePath} b/${treePath}\n--- a/${treePath}\n+++ b/${treePath}\n${code.diffHunk.replace(/^\n+/, '')}`,
          review_id: reviewId,
          created_unix: created,
          updated_unix: code.updated || created,
        });
      }
    });
    await tx.port(CommentsPort).insertImported(comments);
  }

  /** Who wrote, reviewed or reacted to what on a page, looked up in one query. */
  private async commentAuthors<T extends RemoteIssue>(page: readonly IssueWithComments<T>[]): Promise<Map<RemoteUser, Authorship>> {
    const people = page.flatMap((p) => [
      ...p.reactions.map((r) => r.user),
      ...p.comments.flatMap((c) => [c.poster, ...c.reactions.map((r) => r.user)]),
      ...p.reviews.flatMap((r) => [r.reviewer, ...r.comments.map((c) => c.poster)]),
    ]);
    await this.loadUsers([...people.map((u) => u.login), ...page.flatMap((p) => p.item.assignees)]);
    return new Map(people.map((u) => [u, this.authorFor(u)]));
  }

  private async authorOf(user: RemoteUser): Promise<Authorship> {
    await this.loadUsers([user.login]);
    return this.authorFor(user);
  }

  /**
   * Forgejo's remapUser: on another instance a remote account is nobody here (a same name is no proof of the same
   * person), so the ghost posts with the remote name and id kept; from this very instance, the account with the
   * same id and name.
   */
  private authorFor(user: RemoteUser): Authorship {
    const local = this.sameInstance && user.login ? this.users.get(user.login.toLowerCase()) : null;
    if (local && local.id === user.id) return { userId: local.id, originalAuthor: '', originalAuthorId: 0 };
    return { userId: GHOST_USER_ID, originalAuthor: user.login, originalAuthorId: user.id };
  }

  /** Looks up the names not seen yet, in one query. */
  private async loadUsers(logins: readonly string[]): Promise<void> {
    const wanted = [...new Set(logins.filter((l) => l !== '').map((l) => l.toLowerCase()))].filter((l) => !this.users.has(l));
    if (wanted.length === 0) return;
    const found = await this.ctx.port(UsersPort).byLowerNames(wanted);
    for (const name of wanted) this.users.set(name, null);
    // Organizations are accounts too, but never authors.
    for (const user of found) if (user.type === 0) this.users.set(user.lower_name, user);
  }
}

/** Each key once, the first one kept. */
function dedupeBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A review comment's file as a clean relative path ('' when nothing is left), as Forgejo's PathJoinRel makes it. */
function relativeTreePath(raw: string): string {
  const cleaned = posix.normalize(`/${raw.replace(/\\/g, '/')}`).replace(/^\/+/, '');
  return cleaned === '.' ? '' : cleaned;
}

/** `#rrggbb` from `rrggbb`, `#rgb` and the like; anything else becomes white, as Forgejo's uploader does. */
function normalizeColor(color: string): string {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!match) return '#ffffff';
  const hex = match[1]!.toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}

/**
 * The head branch a pull request records. A fork's branch is not fetched: it is named `owner/branch` (Forgejo's
 * name for a fork's head in a migrated repository), which keeps it apart from the repository's own branches, so
 * pushes to those never move it; its commit stays at `refs/pull/N/head`. A gone fork's branch has no name.
 */
function headBranchName(pull: RemotePull): string {
  const name = pull.fork ? (pull.fork.owner ? `${pull.fork.owner}/${pull.head.ref}` : '') : pull.head.ref;
  return isValidRefName(name) ? name : '';
}

