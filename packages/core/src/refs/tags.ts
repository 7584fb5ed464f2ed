import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { actorUser, type Actor } from '../users/index.js';
import { clampPage, offsetOf, type Page, type Paging } from '../paging.js';
import { acceptInput } from '../validation/index.js';
import type { RefDetail } from '../git/index.js';
import type { RepoAccess } from '../repos/index.js';
import { repoKey } from '../repos/index.js';
import './tag-releases.js';
import { assertValidBranchName } from '../repos/index.js';
import { noReplyAddress } from '../users/index.js';
import type { ApiView } from '../wire.js';
import { toApiTag } from './convert.js';
import { CreateTagOptionSchema, type ApiTag, type CreateTagOption } from './schemas.js';
import { assertCanWriteRefs, moveRefs, zeroId } from './writes.js';
import { ProtectionService } from '../protection/index.js';

const TAGS = 'refs/tags/';

/** `/repos/{owner}/{repo}/tags…`: read, create (lightweight or annotated) and delete tags. */
export class TagsService {
  constructor(private readonly ctx: CoreContext) {}

  /** Tags, newest first, as Forgejo lists them; one git pass per page. */
  async list(actor: Actor, access: RepoAccess, view: ApiView, paging: Paging = {}): Promise<Page<ApiTag>> {
    const page = clampPage(this.ctx.settings, paging);
    const { refs, total } = await this.ctx.git.refDetails(repoKey(access.owner, access.repo), 'tags', { offset: offsetOf(page), limit: page.limit });
    return { items: refs.map((r) => toApiTag(r.ref.slice(TAGS.length), r, access, view)), total };
  }

  async get(actor: Actor, access: RepoAccess, view: ApiView, name: string): Promise<ApiTag> {
    const detail = await this.find(access, name);
    if (!detail) throw new NotFoundError(`tag does not exist [name: ${name}]`);
    return toApiTag(name, detail, access, view);
  }

  /**
   * Creates `tag_name` at `target` (a branch, tag or commit; default the default branch): annotated, with the
   * caller as tagger, when a message is given, else lightweight. 409 when it exists, 404 when the target does not.
   */
  async create(actor: Actor, access: RepoAccess, view: ApiView, input: CreateTagOption): Promise<ApiTag> {
    const opts = acceptInput(CreateTagOptionSchema, input);
    assertCanWriteRefs(access);
    const name = opts.tag_name;
    if (!name) throw new ValidationError('tag_name', 'Required');
    // Tags follow the same check-ref-format rules as branches.
    assertValidBranchName(name, 'tag_name');
    if (name === 'HEAD') throw new ValidationError('tag_name', 'is not a valid tag name');
    const key = repoKey(access.owner, access.repo);
    if (access.repo.is_empty === 1) throw new NotFoundError('target not found');
    const target = await this.ctx.git.resolveCommit(key, opts.target || access.repo.default_branch);
    if (!target) throw new NotFoundError('target not found');
    const exists = `tag already exists [name: ${name}]`;
    if (await this.find(access, name)) throw new ConflictError(exists);
    // A draft release may hold a tag name before the tag exists (Forgejo's IsReleaseExist).
    if (await this.ctx.provider('refs.tagReleases').hasReleaseOnTag(access.repo.id, name)) throw new ConflictError(exists);
    let id = target;
    if (opts.message) {
      const tagger = actorUser(actor) ?? access.owner;
      id = await this.ctx.git.writeAnnotatedTag(key, {
        name,
        target,
        message: opts.message,
        tagger: {
          name: tagger.full_name || tagger.name,
          email: tagger.keep_email_private ? noReplyAddress(tagger, this.ctx.settings) : tagger.email,
          when: new Date(),
        },
      });
    }
    if (!(await this.ctx.service(ProtectionService).mayControlTag(actor, access.repo.id, name))) throw new ValidationError('', 'user not allowed to create protected tag');
    await moveRefs(this.ctx, actor, access, [{ ref: TAGS + name, oldId: zeroId(access.repo.object_format_name), newId: id }], exists);
    return this.get(actor, access, view, name);
  }

  /** Deletes a tag; one a release uses is refused (delete the release first), as in Forgejo. */
  async delete(actor: Actor, access: RepoAccess, name: string): Promise<void> {
    assertCanWriteRefs(access);
    const current = await this.find(access, name);
    if (!current) throw new NotFoundError(`tag does not exist [name: ${name}]`);
    if (await this.ctx.provider('refs.tagReleases').hasReleaseOnTag(access.repo.id, name)) {
      throw new ConflictError('a tag attached to a release cannot be deleted directly');
    }
    if (!(await this.ctx.service(ProtectionService).mayControlTag(actor, access.repo.id, name))) throw new ValidationError('', 'user not allowed to delete protected tag');
    await moveRefs(this.ctx, actor, access, [{ ref: current.ref, oldId: current.id, newId: zeroId(access.repo.object_format_name) }], 'The tag moved while it was being deleted.');
  }

  private async find(access: RepoAccess, name: string): Promise<RefDetail | undefined> {
    if (!name) return undefined;
    const { refs } = await this.ctx.git.refDetails(repoKey(access.owner, access.repo), 'tags', { names: [name] });
    return refs[0];
  }
}
