import type { CoreContext } from '../context.js';
import { isSiteAdmin, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { AttachmentsPort } from '../attachments/index.js';
import { AttachmentsService, dateOf, type OpenUpload, type UploadOptions } from '../attachments/index.js';
import type { EditAttachmentOptions } from '../attachments/index.js';
import type { AttachedIssues } from '../attachments/index.js';
import type { Attachment } from '../attachments/index.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import type { RepoAccess } from '../repos/index.js';
import type { User } from '../users/index.js';
import './events.js';
import { IssuesPort } from './port.js';
import { IssuesService } from './service.js';
import type { Issue } from './tables.js';

/**
 * Files attached to an issue itself (`/repos/{owner}/{repo}/issues/{index}/assets`): list, upload, rename, delete,
 * with Forgejo's rights. The files, their limits and the quota are `AttachmentsService`'s; this adds who may change
 * an issue's files, and removes them when the issue goes.
 */
export class IssueAttachmentsService implements AttachedIssues {
  constructor(private readonly ctx: CoreContext) {}

  private get attachments(): AttachmentsService {
    return this.ctx.service(AttachmentsService);
  }

  private get issues(): IssuesService {
    return this.ctx.service(IssuesService);
  }

  /** A deleted issue's files go after commit: the rows first, then the blobs (see `AttachmentsService.subscribe`). */
  subscribe(): void {
    this.ctx.events.on('issue.deleted', async ({ payload }) => this.attachments.removeAll(await this.ctx.port(AttachmentsPort).allOfIssue(payload.issue.id)));
  }

  /** A download's check (`attachments.issues`): the issue exists in the attachment's repository and may be read. */
  async mayReadIssueOf(access: RepoAccess, attachment: Attachment): Promise<boolean> {
    const issue = await this.ctx.port(IssuesPort).byId(attachment.issue_id);
    return !(!issue || issue.repo_id !== attachment.repo_id || !this.issues.mayRead(access, issue.is_pull));
  }

  async listOfIssue(_actor: Actor, _access: RepoAccess, issue: Issue): Promise<Attachment[]> {
    this.attachments.assertEnabled();
    return this.ctx.port(AttachmentsPort).ofIssues([issue.id]);
  }

  async getOfIssue(_actor: Actor, access: RepoAccess, issue: Issue, id: string | number): Promise<Attachment> {
    this.attachments.assertEnabled();
    return this.findOfIssue(access, issue, id);
  }

  async uploadToIssue(actor: Actor, access: RepoAccess, issue: Issue, open: OpenUpload, options: UploadOptions = {}): Promise<Attachment> {
    const user = await this.attachments.assertMayUploadToIssues(actor, access);
    this.assertMayWriteIssue(user, actor, access, issue);
    const datedUnix = dateOf(actor, options);
    // Forgejo re-saves the issue with its new attachment, which moves its updated time; a dated upload sets the
    // issue's time instead, as it is.
    return this.attachments.upload(user, access, { issueId: issue.id, commentId: 0 }, open, datedUnix, async (tx) => {
      if (datedUnix !== undefined) await tx.port(IssuesPort).setUpdateDate(issue.id, datedUnix);
      else await tx.port(IssuesPort).touch(issue.id);
    });
  }

  async editOfIssue(actor: Actor, access: RepoAccess, issue: Issue, id: string | number, input: EditAttachmentOptions): Promise<Attachment> {
    this.attachments.assertEnabled();
    const user = this.attachments.assertMayChange(actor, access);
    this.assertMayWriteIssue(user, actor, access, issue);
    return this.attachments.rename(await this.findOfIssue(access, issue, id), input);
  }

  async deleteOfIssue(actor: Actor, access: RepoAccess, issue: Issue, id: string | number): Promise<void> {
    this.attachments.assertEnabled();
    const user = this.attachments.assertMayChange(actor, access);
    this.assertMayWriteIssue(user, actor, access, issue);
    await this.attachments.removeAll([await this.findOfIssue(access, issue, id)]);
  }

  /** Forgejo's rule for an issue's files: its poster, a writer of its unit, an administrator of the repository or the site. */
  private assertMayWriteIssue(user: User, actor: Actor, access: RepoAccess, issue: Issue): void {
    if (user.id === issue.poster_id || access.mode >= AccessMode.Admin || isSiteAdmin(actor) || this.issues.mayWrite(access, issue)) return;
    throw new ForbiddenError('user should have permission to write issue');
  }

  private async findOfIssue(access: RepoAccess, issue: Issue, id: string | number): Promise<Attachment> {
    const attachment = await this.attachments.findInRepo(access, id);
    if (attachment.issue_id === 0 || attachment.issue_id !== issue.id) throw new NotFoundError('no such attachment in issue');
    return attachment;
  }
}
