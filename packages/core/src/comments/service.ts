import type { CoreContext, CoreTransaction } from '../context.js';
import { actorUser, type Actor } from '../users/index.js';
import { AccessService } from '../access/index.js';
import { toApiAttachment } from '../attachments/index.js';
import { AttachmentsPort } from '../attachments/index.js';
import { ConflictError, ForbiddenError, LockedError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import { toApiIssue } from '../issues/index.js';
import type { ApiIssue } from '../issues/index.js';
import { IssuesService } from '../issues/index.js';
import { IssuesPort } from '../issues/index.js';
import type { Issue } from '../issues/index.js';
import { LabelsPort } from '../labels/index.js';
import type { Label } from '../labels/index.js';
import { MilestonesPort } from '../milestones/index.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { ReactionsPort } from '../reactions/index.js';
import type { RepoAccess } from '../repos/index.js';
import { repoWebPath } from '../repos/index.js';
import type { Repository } from '../repos/index.js';
import { SocialService } from '../social/index.js';
import { nowUnix } from '../storage/index.js';
import { secondsToText, toApiTrackedTime } from '../times/index.js';
import { TimesPort } from '../times/index.js';
import { UsersPort } from '../users/index.js';
import { GHOST_USER } from '../users/index.js';
import type { User } from '../users/index.js';
import { acceptInput } from '../validation/index.js';
import type { ApiView } from '../wire.js';
import { toApiComment, type CommentRelations } from './convert.js';
import { CrossReferencesService } from '../issues/index.js';
import './events.js';
import {
  CreateIssueCommentOptionSchema,
  EditIssueCommentOptionSchema,
  type ApiComment,
  type CreateIssueCommentOption,
  type EditIssueCommentOption,
} from './schemas.js';
import { CommentsPort, type CommentFilter } from '../timeline/index.js';
import type { Comment } from '../timeline/index.js';
import type { TimelineEntry } from './timeline.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import { chosenUpdateTime, rfc3339Unix } from '../issues/index.js';

/** What `/issues/comments/{id}` names: the comment and the issue it is on. */
export interface CommentOnIssue {
  comment: Comment;
  issue: Issue;
}

/** A comment with what its wire form needs (`toApiComment(comment, relations, view)`). */
export interface CommentWithRelations {
  comment: Comment;
  relations: CommentRelations;
}

/** `since`/`before` of a comment list, as given (RFC 3339). */
export interface CommentWindow {
  since?: string;
  before?: string;
}

const BLOCKED_MESSAGE = 'user is blocked by the poster or repository owner';
const LOCKED_MESSAGE = 'You cannot comment on a locked issue.';
/** Comment types whose body may be edited (Forgejo's HasContentSupport). */
const CONTENT_TYPES: ReadonlySet<number> = new Set([COMMENT_TYPES.comment, COMMENT_TYPES.code, COMMENT_TYPES.review, COMMENT_TYPES.dismiss_review]);
/** Comment types that count in `issue.num_comments` (Forgejo's conversation types). */
const CONVERSATION_TYPES: ReadonlySet<number> = new Set([COMMENT_TYPES.comment, COMMENT_TYPES.review]);
/** The largest comment id a path may name. */
const ID_PATTERN = /^\d{1,16}$/;
/** Time-tracking events that store seconds as `|<seconds>` (since Forgejo 1.21); the API shows them as words. */
const TIME_TYPES: ReadonlySet<number> = new Set([COMMENT_TYPES.add_time_manual, COMMENT_TYPES.stop_tracking, COMMENT_TYPES.delete_time_manual]);

function timeTextOf(comment: Comment): Comment {
  if (!TIME_TYPES.has(comment.type) || !comment.content.startsWith('|')) return comment;
  const seconds = Number(comment.content.slice(1));
  return Number.isFinite(seconds) ? { ...comment, content: secondsToText(seconds) } : comment;
}

function windowFilter(window: CommentWindow): Pick<CommentFilter, 'since' | 'before'> {
  return { since: rfc3339Unix('since', window.since), before: rfc3339Unix('before', window.before) };
}

/**
 * Comments on issues and pull requests, as Forgejo's: anyone who may read the issue reads them; signed-in readers
 * comment (a locked issue: writers only); the poster or a writer edits and deletes. Every comment moves the
 * issue's `updated_at` and comment count, and the issues its body references get a reference event.
 */
export class CommentsService {
  constructor(private readonly ctx: CoreContext) {}

  private get issues(): IssuesService {
    return this.ctx.service(IssuesService);
  }

  /** The comment `id` of the repository's issues, or NotFound when it is absent, elsewhere, or its issue is unreadable. */
  async resolve(_actor: Actor, access: RepoAccess, id: string | number): Promise<CommentOnIssue> {
    const number = typeof id === 'number' ? id : ID_PATTERN.test(id) ? Number(id) : NaN;
    if (!Number.isSafeInteger(number) || number < 1) throw new NotFoundError('comment does not exist');
    const comment = await this.ctx.port(CommentsPort).byId(number);
    const issue = comment ? await this.ctx.port(IssuesPort).byId(comment.issue_id) : undefined;
    if (!comment || !issue || issue.repo_id !== access.repo.id || !this.issues.mayRead(access, issue.is_pull)) {
      throw new NotFoundError('comment does not exist');
    }
    return { comment, issue };
  }

  /** The plain comments of an issue updated within the window, oldest first (Forgejo lists them all, unpaged). */
  async listOfIssue(_actor: Actor, _access: RepoAccess, issue: Issue, window: CommentWindow = {}): Promise<Page<Comment>> {
    return this.ctx.port(CommentsPort).ofIssue(issue.id, { type: COMMENT_TYPES.comment, ...windowFilter(window) });
  }

  /**
   * A page of the plain comments of a repository's issues and pull requests, as far as the actor may read either
   * (NotFound when neither).
   */
  async listOfRepo(_actor: Actor, access: RepoAccess, window: CommentWindow = {}, paging: Paging = {}): Promise<Page<Comment>> {
    const issues = this.issues.mayRead(access, false);
    const pulls = this.issues.mayRead(access, true);
    if (!issues && !pulls) throw new NotFoundError();
    const filter = { type: COMMENT_TYPES.comment, ...windowFilter(window), isPull: issues && pulls ? undefined : pulls };
    return this.ctx.port(CommentsPort).ofRepo(access.repo.id, filter, clampPage(this.ctx.settings, paging));
  }

  /** What the wire form of these comments needs, in a fixed number of queries: posters, issues, attachments. */
  async withRelations(access: RepoAccess, comments: readonly Comment[], view: Pick<ApiView, 'settings'>, knownIssues: readonly Issue[] = []): Promise<CommentWithRelations[]> {
    if (comments.length === 0) return [];
    const issuesById = new Map(knownIssues.map((i) => [i.id, i]));
    const missing = [...new Set(comments.map((c) => c.issue_id))].filter((id) => !issuesById.has(id));
    const [posters, loaded, attachments] = await Promise.all([
      this.ctx.port(UsersPort).byIds(comments.map((c) => c.poster_id)),
      this.ctx.port(IssuesPort).byIds(missing),
      this.ctx.port(AttachmentsPort).ofComments(comments.map((c) => c.id)),
    ]);
    for (const issue of loaded) issuesById.set(issue.id, issue);
    const assets = new Map<number, CommentRelations['assets'] & object>();
    for (const row of attachments) {
      let list = assets.get(row.comment_id);
      if (!list) assets.set(row.comment_id, (list = []));
      list.push(toApiAttachment(row, view));
    }
    const repoPath = repoWebPath(access.owner, access.repo);
    return comments.map((comment) => ({
      comment,
      relations: {
        poster: posters.get(comment.poster_id) ?? GHOST_USER,
        issue: issuesById.get(comment.issue_id) ?? { index: 0, is_pull: 0 },
        repoPath,
        assets: assets.get(comment.id) ?? [],
      },
    }));
  }

  /**
   * A page of an issue's timeline (`GET …/issues/{index}/timeline`): every comment and event but code comments,
   * oldest first, with the objects each names loaded for the whole page in a fixed number of queries. References
   * from repositories the actor may not read are left out, as Forgejo does; issues the actor may not read show as
   * null.
   */
  async timeline(actor: Actor, access: RepoAccess, issue: Issue, view: ApiView, window: CommentWindow = {}, paging: Paging = {}): Promise<Page<TimelineEntry>> {
    const page = await this.ctx.port(CommentsPort).ofIssue(issue.id, windowFilter(window), clampPage(this.ctx.settings, paging));
    const rows = page.items;
    if (rows.length === 0) return { items: [], total: page.total };
    const ids = (pick: (c: Comment) => number) => [...new Set(rows.map(pick).filter((id) => id > 0))];
    const [labels, milestones, times, refComments, linkedIssues] = await Promise.all([
      this.ctx.port(LabelsPort).byIds(ids((c) => (c.type === COMMENT_TYPES.label ? c.label_id : 0))),
      this.ctx.port(MilestonesPort).byIds([...ids((c) => c.milestone_id), ...ids((c) => c.old_milestone_id)]),
      this.ctx.port(TimesPort).byIds(ids((c) => c.time_id)),
      this.ctx.port(CommentsPort).byIds(ids((c) => c.ref_comment_id)),
      this.ctx.port(IssuesPort).byIds([...ids((c) => c.dependent_issue_id), ...ids((c) => c.ref_issue_id)]),
    ]);
    const issueDetails = await this.issues.details(actor, [issue, ...linkedIssues.filter((i) => i.id !== issue.id)]);
    // Who may read what: this repository is known; others' linked issues are read as the actor may.
    const otherRepos = new Map<number, RepoAccess>();
    const pairs = new Map<number, { repo: Repository; owner: User }>();
    for (const d of issueDetails) if (d.repo.id !== access.repo.id) pairs.set(d.repo.id, { repo: d.repo, owner: d.owner });
    for (const a of await this.ctx.service(AccessService).repoAccessMany(actor, [...pairs.values()])) otherRepos.set(a.repo.id, a);
    const readable = (repoId: number, isPull: number) => {
      const a = repoId === access.repo.id ? access : otherRepos.get(repoId);
      return a !== undefined && this.issues.mayRead(a, isPull);
    };
    const apiIssues = new Map<number, ApiIssue>();
    for (const d of issueDetails) if (readable(d.repo.id, d.issue.is_pull)) apiIssues.set(d.issue.id, toApiIssue(d, view));
    const detailsById = new Map(issueDetails.map((d) => [d.issue.id, d]));

    const userIds = [...rows.map((c) => c.poster_id), ...rows.map((c) => c.assignee_id).filter((id) => id > 0), ...times.map((t) => t.user_id), ...refComments.map((c) => c.poster_id)];
    const [users, refAttachments] = await Promise.all([
      this.ctx.port(UsersPort).byIds(userIds),
      this.ctx.port(AttachmentsPort).ofComments(refComments.map((c) => c.id)),
    ]);
    const labelsById = new Map(labels.map((l) => [l.id, l]));
    const milestonesById = new Map(milestones.map((m) => [m.id, m]));
    const timesById = new Map(times.map((t) => [t.id, t]));
    const refCommentsById = new Map(refComments.map((c) => [c.id, c]));
    const repoPath = repoWebPath(access.owner, access.repo);
    const labelBase = (label: Label): string => {
      if (label.org_id > 0) return `/orgs/${encodeURIComponent(label.org_id === access.owner.id ? access.owner.name : String(label.org_id))}`;
      const d = issueDetails.find((x) => x.repo.id === label.repo_id);
      return `/repos/${d ? repoWebPath(d.owner, d.repo) : repoPath}`;
    };
    const refComment = (id: number): ApiComment | null => {
      const c = refCommentsById.get(id);
      const d = c ? detailsById.get(c.issue_id) : undefined;
      if (!c || !d || !apiIssues.has(d.issue.id)) return null;
      const assets = refAttachments.filter((a) => a.comment_id === c.id).map((a) => toApiAttachment(a, view));
      return toApiComment(c, { poster: users.get(c.poster_id) ?? GHOST_USER, issue: d.issue, repoPath: repoWebPath(d.owner, d.repo), assets }, view);
    };

    const items: TimelineEntry[] = [];
    for (const comment of rows) {
      const isRef = comment.type === COMMENT_TYPES.issue_ref || comment.type === COMMENT_TYPES.comment_ref || comment.type === COMMENT_TYPES.pull_ref;
      if (isRef && comment.ref_repo_id !== 0 && comment.ref_repo_id !== issue.repo_id && !readable(comment.ref_repo_id, comment.ref_is_pull)) continue;
      const time = timesById.get(comment.time_id);
      const label = comment.type === COMMENT_TYPES.label ? labelsById.get(comment.label_id) : undefined;
      items.push({
        comment: timeTextOf(comment),
        poster: users.get(comment.poster_id) ?? GHOST_USER,
        issue,
        repoPath,
        label: label ? { label, basePath: labelBase(label) } : null,
        milestone: milestonesById.get(comment.milestone_id) ?? null,
        oldMilestone: milestonesById.get(comment.old_milestone_id) ?? null,
        assignee: comment.assignee_id > 0 ? (users.get(comment.assignee_id) ?? GHOST_USER) : null,
        dependentIssue: apiIssues.get(comment.dependent_issue_id) ?? null,
        refIssue: apiIssues.get(comment.ref_issue_id) ?? null,
        refComment: comment.ref_comment_id > 0 ? refComment(comment.ref_comment_id) : null,
        trackedTime: time ? toApiTrackedTime(time, users.get(time.user_id)?.name ?? '', apiIssues.get(time.issue_id) ?? null) : null,
      });
    }
    return { items, total: page.total };
  }

  /** Posts a plain comment (`POST /repos/{owner}/{repo}/issues/{index}/comments`). */
  async create(actor: Actor, access: RepoAccess, issue: Issue, input: CreateIssueCommentOption): Promise<Comment> {
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError('token is required');
    const opts = acceptInput(CreateIssueCommentOptionSchema, input);
    if (!this.issues.mayRead(access, issue.is_pull)) throw new NotFoundError();
    if (access.repo.is_archived) throw new LockedError();
    // Forgejo binds the body as required: empty is refused, blank is not.
    if (opts.body === '') throw new ValidationError('body', 'Required');
    if (!this.issues.mayPost(actor, access, issue)) throw new ForbiddenError(LOCKED_MESSAGE);
    const at = chosenUpdateTime(actor, access, issue, opts.updated_at);
    if (await this.ctx.service(SocialService).isBlockedByAny([issue.poster_id, access.repo.owner_id], user.id)) {
      throw new ForbiddenError(BLOCKED_MESSAGE);
    }
    return this.ctx.transaction(async (tx) => {
      const when = at ?? nowUnix();
      const comment = await tx.port(CommentsPort).record({
        type: COMMENT_TYPES.comment,
        poster_id: user.id,
        issue_id: issue.id,
        content: opts.body,
        created_unix: when,
        updated_unix: when,
      });
      const issues = tx.port(IssuesPort);
      await issues.addComments(issue.id, 1);
      if (at !== undefined) await issues.markUpdated(issue.id, at);
      const updated = (await issues.byId(issue.id)) ?? issue;
      await this.ctx.service(CrossReferencesService).record(tx, user, access.repo, updated, { body: opts.body }, { comment, updatedUnix: at });
      tx.emit('comment.created', { actor, repo: access.repo, owner: access.owner, issue: updated, comment });
      return comment;
    });
  }

  /**
   * Edits a comment's body (`PATCH …/issues/comments/{id}`): its poster or a writer may. Null when the comment is
   * of a kind without a body (Forgejo answers 204 and changes nothing).
   */
  async edit(actor: Actor, access: RepoAccess, target: CommentOnIssue, input: EditIssueCommentOption): Promise<Comment | null> {
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError('token is required');
    const opts = acceptInput(EditIssueCommentOptionSchema, input);
    const { comment, issue } = target;
    if (access.repo.is_archived) throw new LockedError();
    if (opts.body === '') throw new ValidationError('body', 'Required');
    if (user.id !== comment.poster_id && !this.issues.mayWrite(access, issue)) throw new ForbiddenError('user may not edit this comment');
    if (!CONTENT_TYPES.has(comment.type)) return null;
    const at = chosenUpdateTime(actor, access, issue, opts.updated_at);
    return this.ctx.transaction(async (tx) => {
      const updated = await tx.port(CommentsPort).updateContent(comment.id, comment.content_version, opts.body, at ?? nowUnix());
      if (!updated) throw new ConflictError('the comment is already changed');
      if (at !== undefined) await tx.port(IssuesPort).markUpdated(issue.id, at);
      await this.ctx.service(CrossReferencesService).record(tx, user, access.repo, issue, { body: updated.content }, { comment: updated, removeOld: true, updatedUnix: at });
      tx.emit('comment.edited', { actor, repo: access.repo, owner: access.owner, issue, comment: updated, previousBody: comment.content });
      return updated;
    });
  }

  /**
   * Deletes a plain comment (`DELETE …/issues/comments/{id}`): its poster or a writer may. False when the comment
   * is not a plain comment (Forgejo answers 204 and keeps it).
   */
  async delete(actor: Actor, access: RepoAccess, target: CommentOnIssue): Promise<boolean> {
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError('token is required');
    const { comment, issue } = target;
    if (user.id !== comment.poster_id && !this.issues.mayWrite(access, issue)) throw new ForbiddenError('user may not delete this comment');
    if (comment.type !== COMMENT_TYPES.comment) return false;
    await this.ctx.transaction(async (tx) => {
      const comments = tx.port(CommentsPort);
      await comments.delete(comment.id);
      await tx.port(ReactionsPort).deleteOfComment(comment.id);
      if (CONVERSATION_TYPES.has(comment.type)) {
        await tx.port(IssuesPort).recountConversation(issue.id, () => comments.countConversation(issue.id));
      }
      await comments.neuter((await comments.activeReferencesFrom(issue.id, comment.id)).map((c) => c.id));
      tx.emit('comment.deleted', { actor, repo: access.repo, owner: access.owner, issue, comment });
    });
    return true;
  }
}
