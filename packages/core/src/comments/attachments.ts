import type { CoreContext } from '../context.js';
import type { Actor } from '../users/index.js';
import { AttachmentsPort } from '../attachments/index.js';
import { AttachmentsService, dateOf, parseId, type OpenUpload, type UploadOptions } from '../attachments/index.js';
import type { EditAttachmentOptions } from '../attachments/index.js';
import type { Attachment } from '../attachments/index.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { IssuesPort } from '../issues/index.js';
import { IssuesService } from '../issues/index.js';
import type { Issue } from '../issues/index.js';
import type { RepoAccess } from '../repos/index.js';
import { CommentsPort } from '../timeline/index.js';
import type { Comment } from '../timeline/index.js';
import type { User } from '../users/index.js';
import './events.js';

/** A comment an attachment route names, with its issue. */
export interface LoadedComment {
  comment: Comment;
  issue: Issue;
}

/**
 * Files attached to a comment (`/repos/{owner}/{repo}/issues/comments/{id}/assets`): list, upload, rename, delete,
 * with Forgejo's rights. The files, their limits and the quota are `AttachmentsService`'s; this adds who may change
 * a comment's files, and removes them when the comment goes.
 */
export class CommentAttachmentsService {
  constructor(private readonly ctx: CoreContext) {}

  private get attachments(): AttachmentsService {
    return this.ctx.service(AttachmentsService);
  }

  private get issues(): IssuesService {
    return this.ctx.service(IssuesService);
  }

  /** A deleted comment's files go after commit: the rows first, then the blobs (see `AttachmentsService.subscribe`). */
  subscribe(): void {
    this.ctx.events.on('comment.deleted', async ({ payload }) =>
      this.attachments.removeAll(await this.ctx.port(AttachmentsPort).ofComments([payload.comment.id])),
    );
  }

  /**
   * The comment `id` of the repository, with its issue: 404 when it does not exist, belongs elsewhere, or its
   * issue (pull request) may not be read.
   */
  async resolveComment(_actor: Actor, access: RepoAccess, id: string | number): Promise<LoadedComment> {
    const number = parseId(id);
    const comment = number === undefined ? undefined : await this.ctx.port(CommentsPort).byId(number);
    const issue = comment && (await this.ctx.port(IssuesPort).byId(comment.issue_id));
    if (!comment || !issue || issue.repo_id !== access.repo.id || !this.issues.mayRead(access, issue.is_pull)) {
      throw new NotFoundError('comment does not exist');
    }
    return { comment, issue };
  }

  async listOfComment(_actor: Actor, _access: RepoAccess, { comment }: LoadedComment): Promise<Attachment[]> {
    this.attachments.assertEnabled();
    return this.ctx.port(AttachmentsPort).ofComments([comment.id]);
  }

  async getOfComment(_actor: Actor, access: RepoAccess, loaded: LoadedComment, id: string | number): Promise<Attachment> {
    this.attachments.assertEnabled();
    return this.findOfComment(access, loaded, id);
  }

  async uploadToComment(actor: Actor, access: RepoAccess, loaded: LoadedComment, open: OpenUpload, options: UploadOptions = {}): Promise<Attachment> {
    const user = await this.attachments.assertMayUploadToIssues(actor, access);
    this.assertMayWriteComment(user, access, loaded);
    const datedUnix = dateOf(actor, options);
    const { comment, issue } = loaded;
    // Forgejo re-saves the comment with its new attachment, which moves its updated time; a dated upload sets the
    // issue's time instead, as it is.
    return this.attachments.upload(user, access, { issueId: issue.id, commentId: comment.id }, open, datedUnix, async (tx) => {
      if (datedUnix !== undefined) await tx.port(IssuesPort).setUpdateDate(issue.id, datedUnix);
      else await tx.port(CommentsPort).touch(comment.id);
    });
  }

  async editOfComment(actor: Actor, access: RepoAccess, loaded: LoadedComment, id: string | number, input: EditAttachmentOptions): Promise<Attachment> {
    this.attachments.assertEnabled();
    const user = this.attachments.assertMayChange(actor, access);
    this.assertMayWriteComment(user, access, loaded);
    return this.attachments.rename(await this.findOfComment(access, loaded, id), input);
  }

  async deleteOfComment(actor: Actor, access: RepoAccess, loaded: LoadedComment, id: string | number): Promise<void> {
    this.attachments.assertEnabled();
    const user = this.attachments.assertMayChange(actor, access);
    this.assertMayWriteComment(user, access, loaded);
    await this.attachments.removeAll([await this.findOfComment(access, loaded, id)]);
  }

  /** Forgejo's rule for a comment's files: its poster, or a writer of its issue's unit. */
  private assertMayWriteComment(user: User, access: RepoAccess, { comment, issue }: LoadedComment): void {
    if (user.id === comment.poster_id || this.issues.mayWrite(access, issue)) return;
    throw new ForbiddenError('user should have permission to edit comment');
  }

  private async findOfComment(access: RepoAccess, { comment }: LoadedComment, id: string | number): Promise<Attachment> {
    const attachment = await this.attachments.findInRepo(access, id);
    if (attachment.issue_id === 0 || attachment.comment_id === 0 || attachment.comment_id !== comment.id) {
      throw new NotFoundError('no such attachment in comment');
    }
    return attachment;
  }
}
