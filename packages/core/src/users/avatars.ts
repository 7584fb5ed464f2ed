import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { BadRequestError, ForbiddenError, ValidationError } from '../errors.js';
import { BlobsService, type BlobStorage } from '../blobs/index.js';
import type { CoreContext } from '../context.js';
import type { Settings } from '../config/index.js';
import { isSelf, isSiteAdmin, type Actor } from './actor.js';
import { nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { identiconPng } from './identicon.js';
import { IMAGE_CONTENT_TYPES, imageFormat, imageInfo } from './images.js';
import { UpdateUserAvatarOptionSchema, type UpdateUserAvatarOption } from './schemas.js';
import { UsersStore } from './store.js';
import type { User } from './tables.js';
import { BoundedMap } from '../bounded-map.js';

/** An avatar as served: its bytes and their type. */
export interface AvatarImage {
  data: Buffer;
  contentType: string;
}

/** Names under `/avatars/`: SHA-256 of an uploaded image, or the MD5 a generated identicon is drawn from. */
const UPLOADED_NAME = /^[0-9a-f]{64}$/;
const GENERATED_NAME = /^[0-9a-f]{32}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Identicons kept drawn: a few hundred bytes each. */
const IDENTICON_CACHE_SIZE = 1024;

/**
 * Avatars: uploads (`POST /user/avatar`) checked as Forgejo checks them and stored content-addressed in the
 * `avatars` blob space (a folder, by default `APP_DATA_PATH/avatars` or `[picture] AVATAR_UPLOAD_PATH`, or object
 * storage: `[avatar]`, `[picture] AVATAR_STORAGE_TYPE`), the generated identicon otherwise, and the bytes behind every
 * `avatar_url`. A file is named by its hash alone, as it always was, so the files of an installation stay where they are.
 */
export class UserAvatarsService {
  private readonly identicons = new BoundedMap<string, Buffer>(IDENTICON_CACHE_SIZE);

  constructor(private readonly ctx: CoreContext) {}

  private get blobs(): BlobStorage {
    return this.ctx.service(BlobsService).storage('avatars');
  }

  /** The folder uploaded avatars are kept in, on local storage; on object storage there is none (an Error). */
  get folder(): string {
    const config = this.ctx.service(BlobsService).configuration.avatars;
    if (config.type !== 'local') throw new Error('avatars are kept in object storage, not in a folder');
    return config.path;
  }

  /**
   * Replaces the user's avatar with a base64 PNG, JPEG, GIF or WebP image within `[picture] AVATAR_MAX_FILE_SIZE`,
   * `AVATAR_MAX_WIDTH` and `AVATAR_MAX_HEIGHT`. Bad base64 is a BadRequestError (as Forgejo answers 400); the rest
   * are ValidationErrors.
   */
  async upload(actor: Actor, user: User, input: UpdateUserAvatarOption): Promise<User> {
    this.assertMayChange(actor, user);
    const data = decodeAvatarImage(this.ctx.settings.picture, acceptInput(UpdateUserAvatarOptionSchema, input).image);
    const hash = createHash('sha256').update(data).digest('hex');
    // The file first: a crash before the row changes leaves an unused file, never a row naming a missing one; a
    // storage that cannot take it (503) leaves the row as it was.
    await writeAvatar(this.blobs, hash, data);
    const previous = user.use_custom_avatar === 1 ? user.avatar : '';
    const updated = await this.ctx.store(UsersStore).update(user.id, { avatar: hash, use_custom_avatar: 1, updated_unix: nowUnix() });
    if (previous && previous !== hash) await this.discardIfUnused(previous);
    return updated;
  }

  /** Back to the generated identicon; the uploaded file goes unless another account shows the same image. */
  async remove(actor: Actor, user: User): Promise<User> {
    this.assertMayChange(actor, user);
    const previous = user.use_custom_avatar === 1 ? user.avatar : '';
    const updated = await this.ctx.store(UsersStore).update(user.id, { avatar: '', use_custom_avatar: 0, updated_unix: nowUnix() });
    if (previous) await this.discardIfUnused(previous);
    return updated;
  }

  /** The image behind `/avatars/<name>`, or undefined when there is none by that name. */
  async read(name: string): Promise<AvatarImage | undefined> {
    if (GENERATED_NAME.test(name)) return { data: this.identicon(name), contentType: IMAGE_CONTENT_TYPES.png };
    return UPLOADED_NAME.test(name) ? readAvatar(this.blobs, name) : undefined;
  }

  /** The identicon drawn from a hash (Forgejo's default avatar for the system users is drawn from its path). */
  identicon(hash: string): Buffer {
    let png = this.identicons.get(hash);
    if (!png) {
      png = identiconPng(hash);
      this.identicons.set(hash, png);
    }
    return png;
  }

  /** Deletes an uploaded file no account shows any more (after the account went, or changed its avatar). */
  async discardIfUnused(hash: string): Promise<void> {
    if (!UPLOADED_NAME.test(hash) || (await this.ctx.store(UsersStore).countAvatarUsers(hash)) > 0) return;
    await this.blobs.delete(hash);
  }

  private assertMayChange(actor: Actor, user: User): void {
    if (!isSiteAdmin(actor) && !isSelf(actor, user)) throw new ForbiddenError('you may not change this user\'s avatar');
  }
}

/**
 * An uploaded avatar (a user's or a repository's) as Forgejo accepts it: base64 of a PNG, JPEG, GIF or WebP image
 * within `[picture] AVATAR_MAX_FILE_SIZE`, `AVATAR_MAX_WIDTH` and `AVATAR_MAX_HEIGHT`. Bad base64 is a
 * BadRequestError (as Forgejo answers 400); the rest are ValidationErrors of `image`.
 */
export function decodeAvatarImage(limits: Settings['picture'], image: string | undefined): Buffer {
  const encoded = (image ?? '').replace(/[\r\n]/g, '');
  if (encoded === '') throw new ValidationError('image', 'Required');
  if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) throw new BadRequestError('illegal base64 data in image');
  const data = Buffer.from(encoded, 'base64');
  const { AVATAR_MAX_FILE_SIZE, AVATAR_MAX_WIDTH, AVATAR_MAX_HEIGHT } = limits;
  if (data.length > AVATAR_MAX_FILE_SIZE) throw new ValidationError('image', `image is too large: ${data.length} > ${AVATAR_MAX_FILE_SIZE} bytes`);
  const info = imageInfo(data);
  if (!info) throw new ValidationError('image', 'unsupported avatar image type (PNG, JPEG, GIF or WebP)');
  if (info.width > AVATAR_MAX_WIDTH) throw new ValidationError('image', `image width is too large: ${info.width} > ${AVATAR_MAX_WIDTH}`);
  if (info.height > AVATAR_MAX_HEIGHT) throw new ValidationError('image', `image height is too large: ${info.height} > ${AVATAR_MAX_HEIGHT}`);
  return data;
}

/**
 * Stores an avatar image (a user's or a repository's) as `name` of its blob space, whole or not at all (the blob
 * storage writes aside and renames, or uploads an object): the same image written twice is harmless.
 */
export async function writeAvatar(blobs: BlobStorage, name: string, data: Buffer): Promise<void> {
  await blobs.put(name, Readable.from([data], { objectMode: false }));
}

/** The avatar image `name` of its blob space with its type, or undefined when there is none (or it is no image). */
export async function readAvatar(blobs: BlobStorage, name: string): Promise<AvatarImage | undefined> {
  const blob = await blobs.get(name);
  if (!blob) return undefined;
  // Avatars are small (`[picture] AVATAR_MAX_FILE_SIZE`): read whole, to be told apart by their first bytes.
  const chunks: Buffer[] = [];
  for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
  const data = Buffer.concat(chunks);
  const format = imageFormat(data);
  return format ? { data, contentType: IMAGE_CONTENT_TYPES[format] } : undefined;
}
