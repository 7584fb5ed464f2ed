import type { CoreContext } from '../context.js';
import { actorUser, isSiteAdmin, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { CommentsPort } from '../timeline/index.js';
import { COMMENT_TYPES } from '../timeline/index.js';
import { BadRequestError, ForbiddenError, NotFoundError, UnauthorizedError } from '../errors.js';
import type { RepoAccess } from '../repos/index.js';
import './events.js';
import { IssuesService } from './service.js';
import { IssuePinsStore } from './pins-store.js';
import { IssuesStore } from './store.js';
import type { Issue } from './tables.js';

/** Forgejo's words when a repository has pinned as many issues as `[repository.issue] MAX_PINNED` allows. */
export const MAX_PIN_REACHED = 'the max number of pinned issues has been readched';
const NOT_REPO_ADMIN = 'user should be an owner or a collaborator with admin write of a repository';

/**
 * Pinned issues: a repository shows up to `[repository.issue] MAX_PINNED` issues (and as many pull requests) on
 * top, in an order its administrators choose. Pinning and unpinning leave `pin`/`unpin` entries in the timeline.
 */
export class IssuePinsService {
  constructor(private readonly ctx: CoreContext) {}

  /** A deleted pinned issue leaves no gap in the order. */
  subscribe(): void {
    this.ctx.events.withinTransaction('issue.deleted', async ({ payload }, tx) => {
      const { issue } = payload;
      if (issue.pin_order > 0) await tx.store(IssuePinsStore).shiftAfter(issue.repo_id, issue.is_pull, issue.pin_order, -1);
    });
  }

  /** Pinning is for repository administrators (Forgejo's `reqAdmin`). */
  private assertAdmin(actor: Actor, access: RepoAccess): void {
    if (actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
    if (!isSiteAdmin(actor) && access.mode < AccessMode.Admin) throw new ForbiddenError(NOT_REPO_ADMIN);
  }

  /** Pins the issue last; nothing happens when it is pinned already. */
  async pin(actor: Actor, access: RepoAccess, issue: Issue): Promise<void> {
    this.assertAdmin(actor, access);
    const posterId = actorUser(actor)?.id ?? 0;
    await this.ctx.transaction(async (tx) => {
      const pins = tx.store(IssuePinsStore);
      await pins.lockRepo(issue.repo_id);
      const current = await pins.pinOrderOf(issue.id);
      if (current === undefined) throw new NotFoundError('issue does not exist');
      if (current > 0) return;
      const last = await pins.maxPinOrder(issue.repo_id, issue.is_pull);
      if (last >= this.ctx.settings['repository.issue'].MAX_PINNED) throw new BadRequestError(MAX_PIN_REACHED);
      await pins.setPinOrder(issue.id, last + 1);
      await tx.port(CommentsPort).record({ type: COMMENT_TYPES.pin, poster_id: posterId, issue_id: issue.id });
      await tx.store(IssuesStore).touch(issue.id);
    });
  }

  /** Unpins the issue and closes the gap; nothing happens when it is not pinned. */
  async unpin(actor: Actor, access: RepoAccess, issue: Issue): Promise<void> {
    this.assertAdmin(actor, access);
    const posterId = actorUser(actor)?.id ?? 0;
    await this.ctx.transaction(async (tx) => {
      const pins = tx.store(IssuePinsStore);
      await pins.lockRepo(issue.repo_id);
      const current = await pins.pinOrderOf(issue.id);
      if (current === undefined) throw new NotFoundError('issue does not exist');
      if (current === 0) return;
      await pins.shiftAfter(issue.repo_id, issue.is_pull, current, -1);
      await pins.setPinOrder(issue.id, 0);
      await tx.port(CommentsPort).record({ type: COMMENT_TYPES.unpin, poster_id: posterId, issue_id: issue.id });
      await tx.store(IssuesStore).touch(issue.id);
    });
  }

  /**
   * Moves a pinned issue to `position` (from 1), the others making room; a position past the last is the last.
   * Nothing happens when the issue is not pinned.
   */
  async move(actor: Actor, access: RepoAccess, issue: Issue, position: number): Promise<void> {
    this.assertAdmin(actor, access);
    await this.ctx.transaction(async (tx) => {
      const pins = tx.store(IssuePinsStore);
      await pins.lockRepo(issue.repo_id);
      const current = await pins.pinOrderOf(issue.id);
      if (current === undefined) throw new NotFoundError('issue does not exist');
      if (current === 0) return;
      if (!Number.isSafeInteger(position) || position < 1) throw new BadRequestError("The Position can't be lower than 1");
      const last = await pins.maxPinOrder(issue.repo_id, issue.is_pull);
      // Forgejo allows one past the last, which leaves a gap; the last place is as far as a pin can go here.
      const target = Math.min(position, last);
      if (target === current) return;
      await pins.shiftAfter(issue.repo_id, issue.is_pull, current, -1);
      await pins.shiftAfter(issue.repo_id, issue.is_pull, target - 1, 1);
      await pins.setPinOrder(issue.id, target);
    });
  }

  /** The repository's pinned issues (or pull requests) in order; NotFound when the actor may not read that unit. */
  async listPinned(_actor: Actor, access: RepoAccess, isPull = false): Promise<Issue[]> {
    if (!this.ctx.service(IssuesService).mayRead(access, isPull)) throw new NotFoundError();
    return this.ctx.store(IssuePinsStore).pinned(access.repo.id, isPull ? 1 : 0);
  }

  /** May another issue (pull request) be pinned now? */
  async newPinAllowed(_actor: Actor, access: RepoAccess, isPull = false): Promise<boolean> {
    const count = await this.ctx.store(IssuePinsStore).countPinned(access.repo.id, isPull ? 1 : 0);
    return count < this.ctx.settings['repository.issue'].MAX_PINNED;
  }
}
