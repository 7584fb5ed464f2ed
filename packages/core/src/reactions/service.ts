import type { CoreContext } from '../context.js';
import { actorUser, type Actor } from '../users/index.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import type { RepoAccess } from '../repos/index.js';
import type { Issue } from '../issues/index.js';
import { IssuesService } from '../issues/index.js';
import type { Comment } from '../timeline/index.js';
import { SocialService } from '../social/index.js';
import { UsersPort } from '../users/index.js';
import { GHOST_USER } from '../users/index.js';
import type { User } from '../users/index.js';
import { nowUnix } from '../storage/index.js';
import { ReactionsStore, type ReactionTarget } from './store.js';
import type { Reaction } from './tables.js';

/** A reaction with the account that reacted (the ghost when that account is gone). */
export interface ReactionWithUser {
  reaction: Reaction;
  user: User;
}

/** The outcome of adding a reaction: `created` is false when the actor had reacted so already. */
export interface ReactionAdded extends ReactionWithUser {
  created: boolean;
}

const BLOCKED_MESSAGE = 'user is blocked by the poster or repository owner';

/**
 * Reactions on issues and comments, as Forgejo's: only the kinds `[ui] REACTIONS` allows may be added (and only
 * those are listed); a locked issue takes reactions from writers only; someone blocked by the issue's poster, the
 * comment's poster or the repository's owner may not react. The route groups already checked the actor may read
 * the issue (and that the comment belongs to it).
 */
export class ReactionsService {
  constructor(private readonly ctx: CoreContext) {}

  private get issues(): IssuesService {
    return this.ctx.service(IssuesService);
  }

  /** The allowed kinds, in their configured order. */
  get allowed(): readonly string[] {
    return this.ctx.settings.ui.REACTIONS;
  }

  /** A page of the reactions on the issue itself. */
  async listOfIssue(_actor: Actor, _access: RepoAccess, issue: Issue, paging: Paging = {}): Promise<Page<ReactionWithUser>> {
    const page = await this.ctx.store(ReactionsStore).pageOfTarget({ issueId: issue.id, commentId: 0 }, this.allowed, clampPage(this.ctx.settings, paging));
    return { items: await this.withUsers(page.items), total: page.total };
  }

  /** Every reaction on a comment (Forgejo does not page them). */
  async listOfComment(_actor: Actor, _access: RepoAccess, comment: Comment): Promise<ReactionWithUser[]> {
    const rows = await this.ctx.store(ReactionsStore).ofTarget({ issueId: comment.issue_id, commentId: comment.id }, new Set(this.allowed));
    return this.withUsers(rows);
  }

  /** Adds the actor's reaction to the issue, or to `comment` of it. */
  async add(actor: Actor, access: RepoAccess, issue: Issue, comment: Comment | null, content: string): Promise<ReactionAdded> {
    const user = this.mayReact(actor, access, issue);
    const blockers = comment ? [comment.poster_id, issue.poster_id, access.repo.owner_id] : [issue.poster_id, access.repo.owner_id];
    if (await this.ctx.service(SocialService).isBlockedByAny(blockers, user.id)) throw new ForbiddenError(BLOCKED_MESSAGE);
    if (!this.allowed.includes(content)) throw new ForbiddenError(`'${content}' is not an allowed reaction`);
    const target: ReactionTarget = { issueId: issue.id, commentId: comment?.id ?? 0 };
    const store = this.ctx.store(ReactionsStore);
    const existing = await store.find(target, user.id, content);
    if (existing) return { reaction: existing, user, created: false };
    const inserted = await store.insert({ type: content, issue_id: target.issueId, comment_id: target.commentId, user_id: user.id, created_unix: nowUnix() });
    if (inserted) return { reaction: inserted, user, created: true };
    // A concurrent request added the same reaction between the look and the insert: it stands.
    const raced = await store.find(target, user.id, content);
    if (!raced) throw new Error('reaction vanished after a conflicting insert');
    return { reaction: raced, user, created: false };
  }

  /** Removes the actor's reaction of this kind from the issue, or from `comment`; nothing to remove is no error. */
  async remove(actor: Actor, access: RepoAccess, issue: Issue, comment: Comment | null, content: string): Promise<void> {
    const user = this.mayReact(actor, access, issue);
    await this.ctx.store(ReactionsStore).delete({ issueId: issue.id, commentId: comment?.id ?? 0 }, user.id, content);
  }

  /** The reacting account; a locked issue takes reactions from those who may write to it only. */
  private mayReact(actor: Actor, access: RepoAccess, issue: Issue): User {
    const user = actorUser(actor);
    if (!user) throw new UnauthorizedError('token is required');
    if (issue.is_locked === 1 && !this.issues.mayWrite(access, issue)) throw new ForbiddenError('no permission to change reaction');
    return user;
  }

  private async withUsers(rows: readonly Reaction[]): Promise<ReactionWithUser[]> {
    const users = await this.ctx.port(UsersPort).byIds(rows.map((row) => row.user_id));
    return rows.map((reaction) => ({ reaction, user: users.get(reaction.user_id) ?? GHOST_USER }));
  }
}
