import { Store } from '../storage/index.js';
import { offsetOf, type Page, type PageRequest } from '../paging.js';
import { ArtifactStatus, type ActionArtifact, type ActionArtifactTable, type ArtifactsTables } from './artifacts-tables.js';

export type NewArtifact = Omit<ActionArtifactTable, 'id'>;

/** Which artifacts a list shows: a repository's or a run's, by name. */
export interface ArtifactFilter {
  repoId: number;
  runId?: number;
  name?: string;
}

/** What the API shows: finalized artifacts, and those that expired (Forgejo lists both, `expired` telling them apart). */
const LISTED: number[] = [ArtifactStatus.UploadConfirmed, ArtifactStatus.Expired];

/** The artifact tables: artifacts and the blocks of uploads under way. */
export class ArtifactsStore extends Store<ArtifactsTables> {
  byId(id: number): Promise<ActionArtifact | undefined> {
    return this.db.selectFrom('action_artifact').selectAll().where('id', '=', id).executeTakeFirst();
  }

  byRunAndName(runId: number, name: string, path: string): Promise<ActionArtifact | undefined> {
    return this.db.selectFrom('action_artifact').selectAll().where('run_id', '=', runId).where('artifact_name', '=', name).where('artifact_path', '=', path).executeTakeFirst();
  }

  /** Adds the artifact, or returns the one of that run, name and path already there (a retried create). */
  async insertOrGet(row: NewArtifact): Promise<{ artifact: ActionArtifact; created: boolean }> {
    const existing = await this.byRunAndName(row.run_id, row.artifact_name, row.artifact_path);
    if (existing) return { artifact: existing, created: false };
    try {
      return { artifact: await this.db.insertInto('action_artifact').values(row).returningAll().executeTakeFirstOrThrow(), created: true };
    } catch (error) {
      // Another call made it between the read and the insert (the unique index refused ours).
      const made = await this.byRunAndName(row.run_id, row.artifact_name, row.artifact_path);
      if (made) return { artifact: made, created: false };
      throw error;
    }
  }

  /** Starts the upload again: a create for an artifact that exists restarts it (Forgejo resets its size). */
  async restart(id: number, fields: Pick<ActionArtifact, 'expired_unix' | 'content_encoding'>, now: number): Promise<void> {
    await this.db
      .updateTable('action_artifact')
      .set({ ...fields, status: ArtifactStatus.UploadPending, storage_path: '', file_size: 0, file_compressed_size: 0, block_list: '', hash_sha256: '', updated_unix: now })
      .where('id', '=', id)
      .execute();
  }

  /** Moves the artifact from one of `from` to new fields; false when its status was not one of them. */
  async move(id: number, from: readonly number[], fields: Partial<Omit<ActionArtifact, 'id'>>, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('action_artifact')
      .set({ ...fields, updated_unix: now })
      .where('id', '=', id)
      .where('status', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setBlockList(id: number, blockList: string, now: number): Promise<boolean> {
    return this.move(id, [ArtifactStatus.UploadPending], { block_list: blockList }, now);
  }

  /** A page of artifacts (newest first), finalized or expired. */
  list(filter: ArtifactFilter, page: PageRequest): Promise<Page<ActionArtifact>> {
    let query = this.db.selectFrom('action_artifact').where('repo_id', '=', filter.repoId).where('status', 'in', LISTED);
    if (filter.runId !== undefined) query = query.where('run_id', '=', filter.runId);
    if (filter.name) query = query.where('artifact_name', '=', filter.name);
    return Store.page(query.selectAll().orderBy('id', 'desc').limit(page.limit).offset(offsetOf(page)).execute(), query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst());
  }

  /** A run's finalized artifacts (the protocol's ListArtifacts), at most `limit`. */
  confirmedOfRun(runId: number, limit: number): Promise<ActionArtifact[]> {
    return this.db.selectFrom('action_artifact').selectAll().where('run_id', '=', runId).where('status', '=', ArtifactStatus.UploadConfirmed).orderBy('id').limit(limit).execute();
  }

  /** Bytes the owner's stored artifacts take (what the quota counts: finalized ones). */
  async ownerSize(ownerId: number): Promise<number> {
    const row = await this.db
      .selectFrom('action_artifact')
      .select((eb) => eb.fn.sum<number>('file_compressed_size').as('n'))
      .where('owner_id', '=', ownerId)
      .where('status', '=', ArtifactStatus.UploadConfirmed)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** A page of the owner's stored artifacts, largest first (the quota's list). */
  ownerArtifacts(ownerId: number, page: PageRequest): Promise<Page<ActionArtifact>> {
    const query = this.db.selectFrom('action_artifact').where('owner_id', '=', ownerId).where('status', '=', ArtifactStatus.UploadConfirmed);
    return Store.page(
      query.selectAll().orderBy('file_compressed_size', 'desc').orderBy('id').limit(page.limit).offset(offsetOf(page)).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    );
  }

  /** Marks every live artifact of the repository for deletion (its zips go with the next cleanup). */
  async markRepoForDeletion(repoId: number, now: number): Promise<void> {
    await this.db
      .updateTable('action_artifact')
      .set({ status: ArtifactStatus.PendingDeletion, updated_unix: now })
      .where('repo_id', '=', repoId)
      .where('status', 'in', [ArtifactStatus.UploadPending, ArtifactStatus.UploadConfirmed])
      .execute();
  }

  /** Artifacts the cleanup has work for, oldest first, after `afterId`: in `statuses`, and when given, older than `before` by `column`. */
  due(statuses: readonly number[], column: 'expired_unix' | 'updated_unix' | undefined, before: number, afterId: number, limit: number): Promise<ActionArtifact[]> {
    let query = this.db.selectFrom('action_artifact').selectAll().where('status', 'in', [...statuses]).where('id', '>', afterId);
    if (column) query = query.where(column, '<', before);
    return query.orderBy('id').limit(limit).execute();
  }

  // ---- blocks ----

  /** Records a stored block (a block sent again replaces the first). */
  async putBlock(artifactId: number, blockKey: string, size: number, now: number): Promise<void> {
    await this.db
      .insertInto('action_artifact_block')
      .values({ artifact_id: artifactId, block_key: blockKey, size, created_unix: now })
      .onConflict((oc) => oc.columns(['artifact_id', 'block_key']).doUpdateSet({ size, created_unix: now }))
      .execute();
  }

  /** The upload's blocks: how many, and their bytes, other than `exceptKey` (the block being replaced). */
  async blockTotals(artifactId: number, exceptKey = ''): Promise<{ count: number; bytes: number }> {
    const row = await this.db
      .selectFrom('action_artifact_block')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('bytes')])
      .where('artifact_id', '=', artifactId)
      .where('block_key', '!=', exceptKey)
      .executeTakeFirst();
    return { count: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0) };
  }

  async blocks(artifactId: number): Promise<Map<string, number>> {
    const rows = await this.db.selectFrom('action_artifact_block').select(['block_key', 'size']).where('artifact_id', '=', artifactId).execute();
    return new Map(rows.map((row) => [row.block_key, Number(row.size)]));
  }

  /** Artifacts that are no longer uploading but still have blocks (a finalize or sweep cut short), at most `limit`. */
  async strayBlockArtifacts(limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('action_artifact_block as b')
      .innerJoin('action_artifact as a', 'a.id', 'b.artifact_id')
      .select('b.artifact_id')
      .distinct()
      .where('a.status', '!=', ArtifactStatus.UploadPending)
      .limit(limit)
      .execute();
    return rows.map((row) => Number(row.artifact_id));
  }

  async deleteBlocks(artifactId: number): Promise<void> {
    await this.db.deleteFrom('action_artifact_block').where('artifact_id', '=', artifactId).execute();
  }
}
