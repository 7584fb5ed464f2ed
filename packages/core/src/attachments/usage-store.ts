import { offsetOf, type Page, type PageRequest } from '../paging.js';
import type { Schema } from '../storage/index.js';
import { Store } from '../storage/index.js';
import type { AttachmentsTables } from './tables.js';

/** The tables the quota's view of attachments reads: attachments, with their repositories and issues (read only). */
type AttachmentUsageTables = AttachmentsTables & Pick<Schema, 'repository' | 'issue' | 'user'>;

/** An attachment of an owner's repository, with what the quota's listing names it by. */
export interface OwnedAttachmentRow {
  id: number;
  name: string;
  size: number;
  issue_id: number;
  comment_id: number;
  release_id: number;
  owner_name: string;
  repo_name: string;
  issue_index: number | null;
  issue_is_pull: number | null;
}

/** What attachments take of an account's quota: those of the repositories it owns, as Forgejo counts them. */
export class AttachmentUsageStore extends Store<AttachmentUsageTables> {
  /** Bytes of the owner's attachments on issues and comments, and on releases. */
  async sizes(ownerId: number): Promise<{ issues: number; releases: number }> {
    const rows = await this.db
      .selectFrom('attachment as a')
      .innerJoin('repository as r', 'r.id', 'a.repo_id')
      .select((eb) => [eb.case().when('a.release_id', '>', 0).then(1).else(0).end().as('is_release'), eb.fn.sum<number | string | bigint>('a.size').as('total')])
      .where('r.owner_id', '=', ownerId)
      .groupBy('is_release')
      .execute();
    const sizes = { issues: 0, releases: 0 };
    for (const row of rows) {
      if (Number(row.is_release) === 1) sizes.releases += Number(row.total ?? 0);
      else sizes.issues += Number(row.total ?? 0);
    }
    return sizes;
  }

  /** The owner's attachments, largest first, a page at a time. */
  async list(ownerId: number, page: PageRequest): Promise<Page<OwnedAttachmentRow>> {
    const base = this.db.selectFrom('attachment as a').innerJoin('repository as r', 'r.id', 'a.repo_id').where('r.owner_id', '=', ownerId);
    return Store.page(
      base
        .innerJoin('user as o', 'o.id', 'r.owner_id')
        .leftJoin('issue as i', 'i.id', 'a.issue_id')
        .select([
          'a.id',
          'a.name',
          'a.size',
          'a.issue_id',
          'a.comment_id',
          'a.release_id',
          'o.name as owner_name',
          'r.name as repo_name',
          'i.index as issue_index',
          'i.is_pull as issue_is_pull',
        ])
        .orderBy('a.size', 'desc')
        .orderBy('a.id')
        .limit(page.limit)
        .offset(offsetOf(page))
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }
}
