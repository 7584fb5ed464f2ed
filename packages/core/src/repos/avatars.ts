import { createHash } from 'node:crypto';
import path from 'node:path';
import type { CoreContext } from '../context.js';
import { ForbiddenError } from '../errors.js';
import { AccessMode } from '../access/index.js';
import { decodeAvatarImage, deleteAvatarFile, isSiteAdmin, readAvatarFile, writeAvatarFile, type Actor, type AvatarImage } from '../users/index.js';
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
 * (`users/avatars.ts`), under `[repo-avatar] PATH`, served at `/repo-avatars/<name>`, which `avatar_url` names.
 */
export class RepoAvatarsService {
  constructor(private readonly ctx: CoreContext) {}

  /** Where uploaded repository avatars are kept. */
  get folder(): string {
    const { server, workPath } = this.ctx.settings;
    const configured = this.ctx.settings['repo-avatar'].PATH;
    return configured ? path.resolve(workPath, configured) : path.join(server.APP_DATA_PATH, 'repo-avatars');
  }

  /** Replaces the repository's avatar (its administrators and site administrators). */
  async upload(actor: Actor, access: RepoAccess, input: UpdateRepoAvatarOption): Promise<Repository> {
    this.assertMayChange(actor, access);
    const data = decodeAvatarImage(this.ctx.settings.picture, acceptInput(UpdateRepoAvatarOptionSchema, input).image);
    const name = createHash('sha256').update(`${access.repo.id}-`).update(data).digest('hex');
    const previous = access.repo.avatar;
    if (previous === name) return access.repo;
    // The file first: a crash before the row changes leaves an unused file, never a row naming a missing one.
    await writeAvatarFile(this.folder, name, data);
    const updated = await this.setAvatar(access.repo, name);
    if (previous) await deleteAvatarFile(this.folder, previous);
    return updated;
  }

  /** Removes the repository's avatar (no avatar is shown then, as in Forgejo's default). */
  async remove(actor: Actor, access: RepoAccess): Promise<Repository> {
    this.assertMayChange(actor, access);
    const previous = access.repo.avatar;
    if (!previous) return access.repo;
    const updated = await this.setAvatar(access.repo, '');
    await deleteAvatarFile(this.folder, previous);
    return updated;
  }

  /** A deleted repository's avatar file goes with it. */
  subscribe(): void {
    this.ctx.events.on('repo.deleted', async ({ payload }) => {
      if (payload.repo.avatar) await deleteAvatarFile(this.folder, payload.repo.avatar);
    });
  }

  /** The image behind `/repo-avatars/<name>`, or undefined when there is none by that name. */
  async read(name: string): Promise<AvatarImage | undefined> {
    return AVATAR_NAME.test(name) ? readAvatarFile(this.folder, name) : undefined;
  }

  private async setAvatar(repo: Repository, avatar: string): Promise<Repository> {
    return (await this.ctx.store(ReposStore).update(repo.id, { avatar })) ?? { ...repo, avatar };
  }

  private assertMayChange(actor: Actor, access: RepoAccess): void {
    if (access.mode < AccessMode.Admin && !isSiteAdmin(actor)) throw new ForbiddenError('user should be an owner or a collaborator with admin write of a repository');
  }
}
