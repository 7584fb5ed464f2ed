import { createHash } from 'node:crypto';
import type { CoreContext } from '../context.js';
import { ForbiddenError } from '../errors.js';
import { AccessMode } from '../access/index.js';
import { BlobsService, type BlobStorage } from '../blobs/index.js';
import { decodeAvatarImage, isSiteAdmin, readAvatar, writeAvatar, type Actor, type AvatarImage } from '../users/index.js';
import { acceptInput } from '../validation/index.js';
import { Type, type Static } from '@sinclair/typebox';
import type { RepoAccess } from './access.js';
import { ReposStore } from './store.js';
import type { Repository } from './tables.js';
import './events.js';

export const UpdateRepoAvatarOptionSchema = Type.Object(
  { image: Type.Optional(Type.String({ description: 'image must be base64 encoded' })) },
  { $id: 'UpdateRepoAvatarOption', description: 'UpdateRepoAvatarUserOption options when updating the repo avatar' },
);
export type UpdateRepoAvatarOption = Static<typeof UpdateRepoAvatarOptionSchema>;

/** Names under `/repo-avatars/`: SHA-256 of the repository id, a dash and the image (Forgejo's `HashAvatar`). */
const AVATAR_NAME = /^[0-9a-f]{64}$/;

/**
 * Repository avatars (`POST`/`DELETE /repos/{owner}/{repo}/avatar`): checked and stored as user avatars are
 * (`users/avatars.ts`), in the `repo-avatars` blob space (by default the folder `APP_DATA_PATH/repo-avatars` or
 * `[repo-avatar] PATH`, or object storage), served at `/repo-avatars/<name>`, which `avatar_url` names.
 */
export class RepoAvatarsService {
  constructor(private readonly ctx: CoreContext) {}

  private get blobs(): BlobStorage {
    return this.ctx.service(BlobsService).storage('repo-avatars');
  }

  /** Replaces the repository's avatar (its administrators and site administrators). */
  async upload(actor: Actor, access: RepoAccess, input: UpdateRepoAvatarOption): Promise<Repository> {
    this.assertMayChange(actor, access);
    const data = decodeAvatarImage(this.ctx.settings.picture, acceptInput(UpdateRepoAvatarOptionSchema, input).image);
    const name = createHash('sha256').update(`${access.repo.id}-`).update(data).digest('hex');
    const previous = access.repo.avatar;
    if (previous === name) return access.repo;
    // The file first: a crash before the row changes leaves an unused file, never a row naming a missing one.
    await writeAvatar(this.blobs, name, data);
    const updated = await this.setAvatar(access.repo, name);
    if (previous) await this.blobs.delete(previous);
    return updated;
  }

  /** Removes the repository's avatar (no avatar is shown then, as in Forgejo's default). */
  async remove(actor: Actor, access: RepoAccess): Promise<Repository> {
    this.assertMayChange(actor, access);
    const previous = access.repo.avatar;
    if (!previous) return access.repo;
    const updated = await this.setAvatar(access.repo, '');
    await this.blobs.delete(previous);
    return updated;
  }

  /** A deleted repository's avatar file goes with it. */
  subscribe(): void {
    this.ctx.events.on('repo.deleted', async ({ payload }) => {
      if (payload.repo.avatar) await this.blobs.delete(payload.repo.avatar);
    });
  }

  /** The image behind `/repo-avatars/<name>`, or undefined when there is none by that name. */
  async read(name: string): Promise<AvatarImage | undefined> {
    return AVATAR_NAME.test(name) ? readAvatar(this.blobs, name) : undefined;
  }

  private async setAvatar(repo: Repository, avatar: string): Promise<Repository> {
    return (await this.ctx.store(ReposStore).update(repo.id, { avatar })) ?? { ...repo, avatar };
  }

  private assertMayChange(actor: Actor, access: RepoAccess): void {
    if (access.mode < AccessMode.Admin && !isSiteAdmin(actor)) throw new ForbiddenError('user should be an owner or a collaborator with admin write of a repository');
  }
}
