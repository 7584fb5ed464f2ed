import type { CoreContext, CoreTransaction } from '../context.js';
import { truncateBytes } from '../text.js';
import { actorUser, type Actor } from '../users/index.js';
import { AccessMode, unitMode } from '../access/index.js';
import { AttachmentsPort } from '../attachments/index.js';
import { attachmentBlobKey, type Attachment } from '../attachments/index.js';
import { BlobsService } from '../blobs/index.js';
import { ConflictError, ForbiddenError, LockedError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import type { RefUpdate } from '../git/index.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { moveRefs, zeroId } from '../refs/index.js';
import type { TagReleases } from '../refs/index.js';
import type { RepoAccess } from '../repos/index.js';
import '../repos/index.js';
import { assertValidBranchName } from '../repos/index.js';
import { ReposPort } from '../repos/index.js';
import { repoKey } from '../repos/index.js';
import { viewUnits } from '../repos/index.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { GHOST_USER } from '../users/index.js';
import { UsersPort } from '../users/index.js';
import { acceptInput } from '../validation/index.js';
import { ProtectionService } from '../protection/index.js';
import { ReleaseAssetsStore } from './assets-store.js';
import type { ReleaseDetails } from './convert.js';
import './events.js';
import {
  CreateReleaseOptionSchema,
  EditReleaseOptionSchema,
  type CreateReleaseOption,
  type EditReleaseOption,
  type ReleaseListQuery,
} from './schemas.js';
import { ReleasesStore } from './store.js';
import type { Release, ReleaseChanges } from './tables.js';

const TAGS = 'refs/tags/';

/** Forgejo's refusal when the actor may not write releases (`reqRepoWriter(unit.TypeReleases)`). */
const NOT_WRITER = 'user should have a permission to write to a repository';

/** A decimal id as Forgejo's ParamsInt64 reads it; 0 when it is not one. */
export function parseReleaseId(id: string | number): number {
  const n = typeof id === 'number' ? id : /^\d{1,16}$/.test(id) ? Number(id) : 0;
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** The commit a tag leads to and how many commits it has, or undefined when the tag does not exist. */
interface TagState {
  commit: string;
  numCommits: number;
}

/**
 * A repository's releases (`/repos/{owner}/{repo}/releases…`), as Forgejo has them: each on a tag, created when
 * a non-draft release names one that does not exist yet (a lightweight tag at `target_commitish`, written and
 * recorded as a push is). Drafts are seen only by those who may write releases.
 *
 * Tags without a release: Forgejo also keeps a row per pushed tag (`is_tag`), which its releases API never shows.
 * RepoHost keeps no such rows: tags are read from git, and a release row exists only for a release. Deleting a
 * release (by id or tag) removes its row and assets and leaves its tag; deleting a tag through the tags API while a
 * release uses it is refused (409), as in Forgejo; a push that deletes the tag turns its release into a draft.
 */
export class ReleasesService implements TagReleases {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): ReleasesStore {
    return this.ctx.store(ReleasesStore);
  }

  /** Releases go with their repository; a push that deletes a tag unpublishes its release. */
  subscribe(): void {
    // The attachments domain removes the repository's attachment rows and blobs, release assets included.
    this.ctx.events.withinTransaction('repo.deleted', async ({ payload }, tx) => {
      await tx.store(ReleasesStore).deleteOfRepo(payload.repo.id);
    });
    this.ctx.events.on('repo.pushed', async ({ payload }) => {
      await this.followPush(payload.repo.id, payload.updates, repoKey(payload.owner, payload.repo));
    });
  }

  // ---- rights ----

  /** Read on the releases unit, which is enabled. */
  mayRead(access: RepoAccess): boolean {
    return unitMode(access, 'repo.releases') >= AccessMode.Read && viewUnits(access.repo.units, this.ctx.settings).releases !== undefined;
  }

  /** Write on the releases unit (repository and site administrators have it). */
  mayWrite(access: RepoAccess): boolean {
    return this.mayRead(access) && unitMode(access, 'repo.releases') >= AccessMode.Write;
  }

  /** 404 when the unit may not be read. */
  assertReader(access: RepoAccess): void {
    if (!this.mayRead(access)) throw new NotFoundError();
  }

  /** A signed-in writer of releases (403 otherwise) on a repository that is not archived (423). */
  assertWriter(actor: Actor, access: RepoAccess): void {
    this.assertReader(access);
    if (!actorUser(actor)) throw new UnauthorizedError('token is required');
    if (!this.mayWrite(access)) throw new ForbiddenError(NOT_WRITER);
    if (access.repo.is_archived === 1) throw new LockedError('repo is archived');
  }

  // ---- reads ----

  /** Releases, newest first; drafts only for writers (the `draft` filter cannot show them to others). */
  async list(_actor: Actor, access: RepoAccess, query: ReleaseListQuery, paging?: Paging): Promise<Page<ReleaseDetails>> {
    this.assertReader(access);
    const page = await this.store.list(
      access.repo.id,
      {
        includeDrafts: this.mayWrite(access),
        isDraft: query.draft,
        isPrerelease: query['pre-release'],
        keyword: query.q?.trim() || undefined,
      },
      clampPage(this.ctx.settings, paging),
    );
    return { items: await this.details(access, page.items), total: page.total };
  }

  /** The release `id` of the repository: 404 when there is none, or it is a draft the actor may not see. */
  async resolve(_actor: Actor, access: RepoAccess, id: string | number): Promise<Release> {
    this.assertReader(access);
    const number = parseReleaseId(id);
    const release = number ? await this.store.byId(access.repo.id, number) : undefined;
    return this.visible(access, release);
  }

  /** The release on tag `tag` (any case); 404 as `resolve`. */
  async resolveByTag(_actor: Actor, access: RepoAccess, tag: string): Promise<Release> {
    this.assertReader(access);
    return this.visible(access, tag ? await this.store.byTag(access.repo.id, tag) : undefined);
  }

  /** The newest release that is neither a draft nor a pre-release. */
  async latest(_actor: Actor, access: RepoAccess): Promise<ReleaseDetails> {
    this.assertReader(access);
    const release = await this.store.latest(access.repo.id);
    if (!release) throw new NotFoundError();
    return this.detailsOf(access, release);
  }

  async detailsOf(access: Pick<RepoAccess, 'repo' | 'owner'>, release: Release): Promise<ReleaseDetails> {
    return (await this.details(access, [release]))[0]!;
  }

  /** Publishers and assets of a page of releases, in two queries. */
  async details(access: Pick<RepoAccess, 'repo' | 'owner'>, releases: readonly Release[], scope: Pick<CoreTransaction, 'store' | 'port'> = this.ctx): Promise<ReleaseDetails[]> {
    if (releases.length === 0) return [];
    const [users, assets] = await Promise.all([
      scope.port(UsersPort).byIds([...new Set(releases.map((r) => r.publisher_id))]),
      scope.store(ReleaseAssetsStore).ofReleases(releases.map((r) => r.id)),
    ]);
    const byRelease = new Map<number, Attachment[]>();
    for (const asset of assets) {
      const list = byRelease.get(asset.release_id);
      if (list) list.push(asset);
      else byRelease.set(asset.release_id, [asset]);
    }
    return releases.map((release) => ({
      release,
      repo: access.repo,
      owner: access.owner,
      publisher: users.get(release.publisher_id) ?? GHOST_USER,
      assets: byRelease.get(release.id) ?? [],
    }));
  }

  private visible(access: RepoAccess, release: Release | undefined): Release {
    if (!release || (release.is_draft === 1 && !this.mayWrite(access))) throw new NotFoundError();
    return release;
  }

  // ---- writes ----

  /**
   * Creates a release on `tag_name`: on the tag when it exists, else (unless a draft) on a new lightweight tag at
   * `target_commitish` (default: the default branch). 409 when the tag already has a release; 404 when the target
   * does not exist; 422 for an empty repository or a bad tag name.
   */
  async create(actor: Actor, access: RepoAccess, input: CreateReleaseOption): Promise<ReleaseDetails> {
    this.assertWriter(actor, access);
    const user = actorUser(actor)!;
    const opts = acceptInput(CreateReleaseOptionSchema, input);
    const tagName = opts.tag_name.startsWith('--') ? opts.tag_name.slice(2) : opts.tag_name;
    if (!tagName) throw new ValidationError('tag_name', 'Required');
    if (access.repo.is_empty === 1) throw new ValidationError('', 'repo is empty');
    if (await this.store.byTag(access.repo.id, tagName)) throw new ConflictError('Release has no Tag');
    const draft = opts.draft === true;
    const target = opts.target_commitish || access.repo.default_branch;
    const now = nowUnix();
    const tag = draft ? undefined : await this.ensureTag(actor, access, tagName, target);
    const release = await this.ctx.transaction(async (tx) => {
      await tx.port(ReposPort).lockForReleases(access.repo.id);
      let row: Release;
      try {
        row = await tx.store(ReleasesStore).insert({
          repo_id: access.repo.id,
          publisher_id: user.id,
          tag_name: tagName,
          lower_tag_name: tagName.toLowerCase(),
          target,
          title: truncateBytes(opts.name ?? '', 255),
          note: opts.body ?? '',
          sha1: tag?.commit ?? '',
          num_commits: tag?.numCommits ?? 0,
          is_draft: draft ? 1 : 0,
          is_prerelease: opts.prerelease ? 1 : 0,
          hide_archive_links: opts.hide_archive_links ? 1 : 0,
          created_unix: now,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConflictError(`release tag already exist [tag_name: ${tagName}]`);
        throw error;
      }
      await this.recount(tx, access.repo.id);
      if (!draft) tx.emit('release.published', { actor, repo: access.repo, owner: access.owner, release: row });
      return row;
    });
    return this.detailsOf(access, release);
  }

  /**
   * Changes what the options name (empty texts change nothing, as in Forgejo). A release that is (or becomes)
   * published gets its tag, created at its target when missing. 409 when the new tag name has a release already.
   */
  async edit(actor: Actor, access: RepoAccess, release: Release, input: EditReleaseOption): Promise<ReleaseDetails> {
    this.assertWriter(actor, access);
    const opts = acceptInput(EditReleaseOptionSchema, input);
    const tagName = (opts.tag_name?.startsWith('--') ? opts.tag_name.slice(2) : opts.tag_name) || release.tag_name;
    const target = opts.target_commitish || release.target;
    const draft = opts.draft ?? release.is_draft === 1;
    if (tagName.toLowerCase() !== release.lower_tag_name) {
      const other = await this.store.byTag(access.repo.id, tagName);
      if (other && other.id !== release.id) throw new ConflictError(`release tag already exist [tag_name: ${tagName}]`);
    }
    const changes: ReleaseChanges = {
      tag_name: tagName,
      lower_tag_name: tagName.toLowerCase(),
      target,
      is_draft: draft ? 1 : 0,
    };
    if (opts.name) changes.title = truncateBytes(opts.name, 255);
    if (opts.body) changes.note = opts.body;
    if (opts.prerelease !== undefined) changes.is_prerelease = opts.prerelease ? 1 : 0;
    if (opts.hide_archive_links !== undefined) changes.hide_archive_links = opts.hide_archive_links ? 1 : 0;
    if (draft) {
      // Forgejo dates a draft at its last save.
      changes.created_unix = nowUnix();
    } else {
      const tag = await this.ensureTag(actor, access, tagName, target);
      changes.sha1 = tag.commit;
      changes.num_commits = tag.numCommits;
      if (tag.created) changes.created_unix = nowUnix();
    }
    const wasPublished = release.is_draft === 0;
    const updated = await this.ctx.transaction(async (tx) => {
      await tx.port(ReposPort).lockForReleases(access.repo.id);
      let row: Release | undefined;
      try {
        row = await tx.store(ReleasesStore).update(release.id, changes);
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConflictError(`release tag already exist [tag_name: ${tagName}]`);
        throw error;
      }
      if (!row) throw new NotFoundError();
      await this.recount(tx, access.repo.id);
      const base = { actor, repo: access.repo, owner: access.owner, release: row };
      // Forgejo announces nothing while a release is (or becomes) a draft.
      if (!draft) tx.emit(wasPublished ? 'release.updated' : 'release.published', base);
      return row;
    });
    return this.detailsOf(access, updated);
  }

  /** Deletes the release and its assets (their files after commit); its tag stays. */
  async delete(actor: Actor, access: RepoAccess, release: Release): Promise<void> {
    this.assertWriter(actor, access);
    const assets = await this.ctx.transaction(async (tx) => {
      await tx.port(ReposPort).lockForReleases(access.repo.id);
      const rows = await tx.store(ReleaseAssetsStore).ofReleases([release.id]);
      if (!(await tx.store(ReleasesStore).delete(release.id))) throw new NotFoundError();
      await tx.port(AttachmentsPort).deleteByIds(rows.map((a) => a.id));
      await this.recount(tx, access.repo.id);
      if (release.is_draft === 0) tx.emit('release.deleted', { actor, repo: access.repo, owner: access.owner, release });
      return rows;
    });
    await this.removeBlobs(assets);
  }

  /** `DELETE /releases/tags/{tag}`: the release on that tag (drafts included, for writers); the tag stays. */
  async deleteByTag(actor: Actor, access: RepoAccess, tag: string): Promise<void> {
    this.assertWriter(actor, access);
    const release = tag ? await this.store.byTag(access.repo.id, tag) : undefined;
    if (!release) throw new NotFoundError();
    await this.delete(actor, access, release);
  }

  /** Whether a release uses this tag (the tags API refuses to delete such a tag). */
  async hasReleaseOnTag(repoId: number, tag: string): Promise<boolean> {
    return (await this.store.byTag(repoId, tag)) !== undefined;
  }

  // ---- internals ----

  /** Removes assets' files (rows already gone); a failure leaves a blob the attachments sweep removes. */
  async removeBlobs(assets: readonly Attachment[]): Promise<void> {
    const blobs = this.ctx.service(BlobsService).storage('attachments');
    for (const asset of assets) {
      if (!asset.external_url) await blobs.delete(attachmentBlobKey(asset.uuid)).catch(() => {});
    }
  }

  /** Sets `num_releases`; the transaction took the repository's lock (`ReposPort.lockForReleases`) first. */
  private async recount(tx: Pick<CoreTransaction, 'store' | 'port'>, repoId: number): Promise<void> {
    await tx.port(ReposPort).setReleaseCount(repoId, await tx.store(ReleasesStore).countPublished(repoId));
  }

  /**
   * The tag `name` as it is, or created as a lightweight tag at `target` (a branch, tag or commit) and recorded as
   * a push (Forgejo's createTag with no message).
   */
  private async ensureTag(actor: Actor, access: RepoAccess, name: string, target: string): Promise<TagState & { created: boolean }> {
    const key = repoKey(access.owner, access.repo);
    const existing = await this.tagCommit(access, name);
    if (existing) return { ...existing, created: false };
    try {
      assertValidBranchName(name, 'tag_name');
    } catch {
      throw new ValidationError('tag_name', 'is not a valid tag name');
    }
    if (name === 'HEAD') throw new ValidationError('tag_name', 'is not a valid tag name');
    if (!(await this.ctx.service(ProtectionService).mayControlTag(actor, access.repo.id, name))) {
      throw new ValidationError('', `release tag name is protected [tag_name: ${name}]`);
    }
    const commit = await this.ctx.git.resolveCommit(key, target);
    if (!commit) throw new NotFoundError(`target "${target}" not found: object does not exist [id: ${target}, rel_path: ]`);
    const update: RefUpdate = { ref: TAGS + name, oldId: zeroId(access.repo.object_format_name), newId: commit };
    await moveRefs(this.ctx, actor, access, [update], `tag already exists [name: ${name}]`);
    return { commit, numCommits: await this.ctx.git.countCommits(key, { head: commit }), created: true };
  }

  private async tagCommit(access: RepoAccess, name: string): Promise<TagState | undefined> {
    const key = repoKey(access.owner, access.repo);
    const { refs } = await this.ctx.git.refDetails(key, 'tags', { names: [name] });
    const commit = refs[0]?.commit?.id;
    if (!commit) return undefined;
    return { commit, numCommits: await this.ctx.git.countCommits(key, { head: commit }) };
  }

  /**
   * `repohost admin repo-sync-releases` (Gitea's), for one repository: its published releases agree with its tags
   * in git again, after tags were changed behind RepoHost's back (a restored backup, git run on the storage): a
   * release whose tag is gone becomes a draft, one whose tag moved follows it, as after a push.
   */
  async syncWithTags(repoId: number, key: ReturnType<typeof repoKey>): Promise<{ drafted: number; moved: number }> {
    const releases = await this.store.published(repoId);
    if (releases.length === 0) return { drafted: 0, moved: 0 };
    const tags = new Set((await this.ctx.git.listRefs(key, TAGS)).map((r) => r.ref.slice(TAGS.length).toLowerCase()));
    // What a push that left git as it is now would have said of each release's tag.
    const updates = releases.map((r): RefUpdate => ({ ref: TAGS + r.tag_name, oldId: '', newId: tags.has(r.lower_tag_name) ? 'present' : '0'.repeat(40) }));
    return this.followPush(repoId, updates, key);
  }

  /**
   * After a push: releases whose tag was deleted become drafts without a commit (Forgejo's PushUpdateDeleteTag);
   * published releases whose tag moved follow it.
   */
  private async followPush(repoId: number, updates: readonly RefUpdate[], key: ReturnType<typeof repoKey>): Promise<{ drafted: number; moved: number }> {
    const tagUpdates = updates.filter((u) => u.ref.startsWith(TAGS));
    if (tagUpdates.length === 0) return { drafted: 0, moved: 0 };
    const deleted = tagUpdates.filter((u) => /^0+$/.test(u.newId)).map((u) => u.ref.slice(TAGS.length));
    const moved = tagUpdates.filter((u) => !/^0+$/.test(u.newId)).map((u) => u.ref.slice(TAGS.length));
    const releases = await this.store.byTags(repoId, [...deleted, ...moved]);
    if (releases.length === 0) return { drafted: 0, moved: 0 };
    const lowerDeleted = new Set(deleted.map((t) => t.toLowerCase()));
    const gone = releases.filter((r) => lowerDeleted.has(r.lower_tag_name));
    const following = releases.filter((r) => !lowerDeleted.has(r.lower_tag_name) && r.is_draft === 0);
    const { refs } = following.length > 0 ? await this.ctx.git.refDetails(key, 'tags', { names: following.map((r) => r.tag_name) }) : { refs: [] };
    const commitOf = new Map(refs.map((r) => [r.ref.slice(TAGS.length).toLowerCase(), r.commit?.id]));
    // Git is asked before the transaction, which then only writes.
    const moves: { id: number; sha1: string; num_commits: number }[] = [];
    for (const release of following) {
      const commit = commitOf.get(release.lower_tag_name);
      if (commit && commit !== release.sha1) moves.push({ id: release.id, sha1: commit, num_commits: await this.ctx.git.countCommits(key, { head: commit }) });
    }
    if (gone.length === 0 && moves.length === 0) return { drafted: 0, moved: 0 };
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(ReleasesStore);
      if (gone.length > 0) {
        await tx.port(ReposPort).lockForReleases(repoId);
        await store.tagsDeleted(repoId, gone.map((r) => r.lower_tag_name));
        await this.recount(tx, repoId);
      }
      for (const { id, ...changes } of moves) await store.update(id, changes);
    });
    return { drafted: gone.length, moved: moves.length };
  }
}
