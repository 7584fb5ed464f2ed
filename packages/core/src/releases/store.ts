import { sql } from 'kysely';
import { containsText, isStorableText } from '../storage/index.js';
import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { NewRelease, Release, ReleaseChanges, ReleasesTables } from './tables.js';

/** Which of a repository's releases a list shows (tag-only rows never). */
export interface ReleaseFilter {
  /** Drafts are left out unless this is set (the reader may write releases). */
  includeDrafts: boolean;
  isDraft?: boolean;
  isPrerelease?: boolean;
  /** Part of the tag name, title or note, any case. */
  keyword?: string;
}

/** Leaves out Forgejo's tag-only rows; a literal, so precompiled queries take it as it is. */
const NOT_TAG_ROW = sql<boolean>`is_tag = 0`;

/** Ids per statement: well under SQLite's limit of bound parameters. */
const CHUNK = 500;

/** The `release` table. */
export class ReleasesStore extends Store<ReleasesTables> {
  private readonly byIdQuery = this.precompiled<Release, 'repoId' | 'id'>('byId', (db, param) =>
    db.selectFrom('release').selectAll().where('repo_id', '=', param('repoId')).where('id', '=', param('id')).where(NOT_TAG_ROW),
  );
  private readonly byTagQuery = this.precompiled<Release, 'repoId' | 'lowerTag'>('byTag', (db, param) =>
    db.selectFrom('release').selectAll().where('repo_id', '=', param('repoId')).where('lower_tag_name', '=', param('lowerTag')).where(NOT_TAG_ROW),
  );

  async byId(repoId: number, id: number): Promise<Release | undefined> {
    return (await this.byIdQuery({ repoId, id }))[0];
  }

  /** The release on this tag (tag names compare in any case, as Forgejo's). */
  async byTag(repoId: number, tagName: string): Promise<Release | undefined> {
    if (!isStorableText(tagName)) return undefined;
    return (await this.byTagQuery({ repoId, lowerTag: tagName.toLowerCase() }))[0];
  }

  /** The releases on any of these tags (any case), in one query. */
  byTags(repoId: number, tagNames: readonly string[]): Promise<Release[]> {
    if (tagNames.length === 0) return Promise.resolve([]);
    const lower = [...new Set(tagNames.filter(isStorableText).map((t) => t.toLowerCase()))];
    if (lower.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('release').selectAll().where('repo_id', '=', repoId).where('lower_tag_name', 'in', lower.slice(0, CHUNK)).where('is_tag', '=', 0).execute();
  }

  /** The newest release that is neither a draft nor a pre-release. */
  async latest(repoId: number): Promise<Release | undefined> {
    return this.db
      .selectFrom('release')
      .selectAll()
      .where('repo_id', '=', repoId)
      .where('is_draft', '=', 0)
      .where('is_prerelease', '=', 0)
      .where('is_tag', '=', 0)
      .orderBy('created_unix', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** A page of releases, newest first (Forgejo's `created_unix DESC, id DESC`). */
  list(repoId: number, filter: ReleaseFilter, page: PageRequest): Promise<Page<Release>> {
    const keyword = filter.keyword?.toLowerCase();
    // No stored text holds a NUL (PostgreSQL refuses one as a parameter).
    if (keyword !== undefined && !isStorableText(keyword)) return Promise.resolve({ items: [], total: 0 });
    const base = this.db
      .selectFrom('release')
      .where('repo_id', '=', repoId)
      .where('is_tag', '=', 0)
      .$if(!filter.includeDrafts, (q) => q.where('is_draft', '=', 0))
      .$if(filter.isDraft !== undefined, (q) => q.where('is_draft', '=', filter.isDraft ? 1 : 0))
      .$if(filter.isPrerelease !== undefined, (q) => q.where('is_prerelease', '=', filter.isPrerelease ? 1 : 0))
      .$if(!!keyword, (q) =>
        q.where((eb) =>
          eb.or([
            containsText(sql<string>`lower_tag_name`, keyword!),
            containsText(sql<string>`lower(title)`, keyword!),
            containsText(sql<string>`lower(note)`, keyword!),
          ]),
        ),
      );
    const rows = base.selectAll().orderBy('created_unix', 'desc').orderBy('id', 'desc').limit(page.limit).offset(offsetOf(page));
    return Store.page(rows.execute(), base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst());
  }

  insert(row: NewRelease): Promise<Release> {
    return this.db.insertInto('release').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, changes: ReleaseChanges): Promise<Release | undefined> {
    return this.db.updateTable('release').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** Deletes one release; false when it was gone already. */
  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('release').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Releases that are neither drafts nor tag-only rows: the repository's `num_releases`. */
  async countPublished(repoId: number): Promise<number> {
    const row = await this.db
      .selectFrom('release')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('repo_id', '=', repoId)
      .where('is_draft', '=', 0)
      .where('is_tag', '=', 0)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The repository's published releases (neither drafts nor tag-only rows). */
  published(repoId: number): Promise<Release[]> {
    return this.db.selectFrom('release').selectAll().where('repo_id', '=', repoId).where('is_draft', '=', 0).where('is_tag', '=', 0).execute();
  }

  /** A push deleted these tags: their releases become drafts without a commit (Forgejo's PushUpdateDeleteTag). */
  async tagsDeleted(repoId: number, lowerTags: readonly string[]): Promise<void> {
    for (let i = 0; i < lowerTags.length; i += CHUNK) {
      await this.db
        .updateTable('release')
        .set({ is_draft: 1, sha1: '', num_commits: 0 })
        .where('repo_id', '=', repoId)
        .where('lower_tag_name', 'in', lowerTags.slice(i, i + CHUNK))
        .execute();
    }
  }

  async deleteOfRepo(repoId: number): Promise<void> {
    await this.db.deleteFrom('release').where('repo_id', '=', repoId).execute();
  }
}
