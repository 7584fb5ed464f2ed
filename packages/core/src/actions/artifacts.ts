import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { CoreContext } from '../context.js';
import { BlobTooLargeError, BlobsService, type BlobSource, type BlobSpace, type BlobStorage } from '../blobs/index.js';
import { BadRequestError, ConflictError, NotFoundError, PayloadTooLargeError, UnauthorizedError, ValidationError } from '../errors.js';
import { QuotaService } from '../quota/index.js';
import { ReposPort, type RepoAccess } from '../repos/index.js';
import { UsersPort, type Actor } from '../users/index.js';
import { nowUnix } from '../storage/index.js';
import type { Page, PageRequest } from '../paging.js';
import { webUrl } from '../urls.js';
import { ArtifactsStore } from './artifacts-store.js';
import { ArtifactStatus, type ActionArtifact } from './artifacts-tables.js';
import { SIGNED_URL_SECONDS, createRuntimeToken, readRuntimeToken, signArtifactUrl, verifyArtifactUrl, type SignedArtifactUrl } from './artifacts-token.js';
import { RunsService } from './runs.js';
import { RunsStore } from './runs-store.js';
import { ActionStatus } from './status.js';
import type { ActionRunJob, ActionTask } from './tables.js';

/**
 * The blob space of artifacts: `[actions.artifacts]` storage settings (`blobs/config.ts` resolves them as the
 * `actions_artifacts` kind), a folder or a bucket prefix of its own.
 */
export const ARTIFACTS_SPACE: BlobSpace = 'actions_artifacts';
/** The v4 protocol's artifacts: one zip each (Forgejo's `ArtifactV4ContentEncoding`). */
const V4_ENCODING = 'application/zip';
/** Bounds on what a task sends: one block, the blocks of an upload, a block list, a block id, a name. */
const MAX_BLOCK_BYTES = 256 * 1024 * 1024;
const MAX_BLOCKS = 50_000;
export const MAX_BLOCK_LIST_BYTES = 8 * 1024 * 1024;
const MAX_BLOCK_ID = 1024;
/** Its path (`<name>.zip`) must fit the 255 characters of the column. */
const MAX_NAME_LENGTH = 251;
/** A run's artifacts the protocol's list shows at most. */
const MAX_LISTED = 1000;
/** Rows the cleanup handles per batch; an upload untouched this long is abandoned. */
const CLEANUP_BATCH = 100;
const ABANDONED_SECONDS = 24 * 3600;
/** Characters `@actions/artifact` refuses in a name, refused here too (a name becomes a file name on download). */
const INVALID_NAME_CHARS = ['"', ':', '<', '>', '|', '*', '?', '\r', '\n', '\\', '/', '\0'];

/** A running task that presented its runtime token, with its job (whose run the token is bound to). */
export interface RuntimeTask {
  task: ActionTask;
  job: ActionRunJob;
}

/** The query of a signed upload or download URL, as received. */
export interface SignedQuery {
  sig?: string;
  expires?: string;
  artifactID?: string;
  taskID?: string;
}

/** A stored zip to send: its bytes, or where the storage serves it itself. */
export type ArtifactDownload = { artifact: ActionArtifact; redirect: string } | { artifact: ActionArtifact; redirect?: undefined; size: number; stream: Readable };

/**
 * Workflow artifacts (Forgejo's `routers/api/actions/artifactsv4.go`, `models/actions/artifact.go`, the API v1's
 * artifact routes and `services/actions/cleanup.go`).
 *
 * A task proves itself with its runtime token (`ACTIONS_RUNTIME_TOKEN`, made by `runtimeToken` when the task is
 * handed out; good only while the task runs) and may create an artifact of its own run, upload its zip in blocks to
 * the signed URL it is given (each block streamed to blob storage, bounded, quota checked), commit the order of the
 * blocks and finalize, when the blocks are concatenated into one blob, its SHA-256 checked against the client's. It
 * may list its run's artifacts and download one through a signed URL. The API v1 lists, reads, serves and deletes
 * (marks for deletion) them under the Actions unit's read and write rights; `cleanup` (the `cleanup_actions` cron
 * task) removes the zips of expired and deleted artifacts and what abandoned uploads left.
 */
export class ArtifactsService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): ArtifactsStore {
    return this.ctx.store(ArtifactsStore);
  }

  private get blobs(): BlobStorage {
    return this.ctx.service(BlobsService).storage(ARTIFACTS_SPACE);
  }

  private get secretKey(): string {
    return this.ctx.settings.security.SECRET_KEY;
  }

  /** The quota's view of artifacts, and what goes with a repository; once per host. */
  subscribe(): void {
    this.ctx.service(QuotaService).provide('artifacts', {
      addUsage: async (ownerId, usage) => {
        usage.size.assets.artifacts += await this.store.ownerSize(ownerId);
      },
      list: (ownerId, page) => this.quotaList(ownerId, page),
    });
    // The zips go with the next cleanup, outside the deletion's transaction (blob storage is no part of it).
    this.ctx.events.withinTransaction('repo.deleted', async ({ payload }, tx) => tx.store(ArtifactsStore).markRepoForDeletion(payload.repo.id, nowUnix()));
  }

  private async quotaList(ownerId: number, page: PageRequest): Promise<Page<{ html_url: string; name: string; size: number }>> {
    const found = await this.store.ownerArtifacts(ownerId, page);
    const owner = await this.ctx.port(UsersPort).byId(ownerId);
    const repos = new Map((await this.ctx.port(ReposPort).byIds([...new Set(found.items.map((a) => a.repo_id))])).map((repo) => [repo.id, repo]));
    const runs = this.ctx.store(RunsStore);
    const items = [];
    for (const artifact of found.items) {
      const repo = repos.get(artifact.repo_id);
      const run = await runs.runById(artifact.run_id);
      const repoPath = `${encodeURIComponent(owner?.name ?? '')}/${encodeURIComponent(repo?.name ?? '')}`;
      items.push({
        html_url: webUrl(this.ctx.settings, run ? `${repoPath}/actions/runs/${run.index}` : repoPath),
        name: artifact.artifact_name,
        size: Number(artifact.file_compressed_size),
      });
    }
    return { items, total: found.total };
  }

  // ---- the runtime token ----

  /** The runtime token of a task just handed out (the task context's `gitea_runtime_token`). */
  runtimeToken(task: Pick<ActionTask, 'id'>, job: Pick<ActionRunJob, 'id' | 'run_id'>): string {
    return createRuntimeToken(this.secretKey, { taskId: task.id, runId: job.run_id, jobId: job.id }, nowUnix());
  }

  /** The running task a runtime token (`Authorization: Bearer …`) names; 401 for anything else. */
  async authenticate(token: string): Promise<RuntimeTask> {
    const claims = readRuntimeToken(this.secretKey, token, nowUnix());
    if (!claims) throw new UnauthorizedError('invalid runtime token');
    const found = await this.runningTask(claims.taskId);
    if (!found || found.job.id !== claims.jobId || found.job.run_id !== claims.runId) throw new UnauthorizedError('task is not running');
    return found;
  }

  private async runningTask(taskId: number): Promise<RuntimeTask | undefined> {
    if (!Number.isSafeInteger(taskId) || taskId <= 0) return undefined;
    const runs = this.ctx.store(RunsStore);
    const task = await runs.taskById(taskId);
    if (!task || task.status !== ActionStatus.Running) return undefined;
    const job = await runs.jobById(task.job_id);
    return job && job.task_id === task.id ? { task, job } : undefined;
  }

  /** Forgejo's `validateRunIDV4`: the run a request names must be the token's. */
  private assertRun(rt: RuntimeTask, runId: string | number | undefined): void {
    if (String(runId ?? '') !== String(rt.job.run_id)) throw new BadRequestError('run-id does not match');
  }

  // ---- the protocol: creating and uploading ----

  /**
   * `CreateArtifact`: the artifact `name` of the task's run, ready for its blocks (one that exists starts over:
   * its blocks and zip go), and the signed URL to upload them to. Expires after `[actions]
   * ARTIFACT_RETENTION_DAYS`, or sooner when the workflow asks (`retention-days`).
   */
  async create(rt: RuntimeTask, input: { runId: string | number | undefined; name: string; expiresAt?: Date }): Promise<{ artifact: ActionArtifact; uploadUrl: string }> {
    this.assertRun(rt, input.runId);
    const name = validName(input.name);
    await this.assertQuota(rt.task.owner_id);
    const now = nowUnix();
    const maxDays = Math.max(1, this.ctx.settings.actions.ARTIFACT_RETENTION_DAYS);
    let days = maxDays;
    // The client sends its own now + retention-days: rounded, since it was computed before the request travelled
    // (truncated, 5 days asked a moment ago came out as 4).
    if (input.expiresAt && Number.isFinite(input.expiresAt.getTime())) days = Math.min(maxDays, Math.max(1, Math.round((input.expiresAt.getTime() / 1000 - now) / 86400)));
    const expires = now + days * 86400;
    const inserted = await this.store.insertOrGet({
      run_id: rt.job.run_id,
      runner_id: rt.task.runner_id,
      repo_id: rt.task.repo_id,
      owner_id: rt.task.owner_id,
      commit_sha: rt.task.commit_sha,
      storage_path: '',
      file_size: 0,
      file_compressed_size: 0,
      content_encoding: V4_ENCODING,
      artifact_path: `${name}.zip`,
      artifact_name: name,
      status: ArtifactStatus.UploadPending,
      block_list: '',
      hash_sha256: '',
      created_unix: now,
      updated_unix: now,
      expired_unix: expires,
    });
    let artifact = inserted.artifact;
    if (!inserted.created) {
      // An artifact of this name existed: it is uploaded again from nothing (Forgejo's create resets it).
      await this.discardUpload(artifact);
      if (artifact.storage_path) await this.blobs.delete(artifact.storage_path);
      await this.store.restart(artifact.id, { expired_unix: expires, content_encoding: V4_ENCODING }, now);
      artifact = (await this.store.byId(artifact.id)) ?? artifact;
    }
    return { artifact, uploadUrl: this.signedUrl('UploadArtifact', artifact.id, rt.task.id) };
  }

  private signedUrl(endpoint: SignedArtifactUrl['endpoint'], artifactId: number, taskId: number): string {
    const url: SignedArtifactUrl = { endpoint, artifactId, taskId, expires: nowUnix() + SIGNED_URL_SECONDS };
    const query = new URLSearchParams({ sig: signArtifactUrl(this.secretKey, url), expires: String(url.expires), artifactID: String(artifactId), taskID: String(taskId) });
    return webUrl(this.ctx.settings, `twirp/github.actions.results.api.v1.ArtifactService/${endpoint}?${query.toString()}`);
  }

  /** The artifact and running task a signed URL names; 401 when it is not ours, expired, or its task stopped. */
  private async verifySigned(endpoint: SignedArtifactUrl['endpoint'], query: SignedQuery): Promise<{ rt: RuntimeTask; artifact: ActionArtifact }> {
    const url: SignedArtifactUrl = { endpoint, artifactId: intOf(query.artifactID), taskId: intOf(query.taskID), expires: intOf(query.expires) };
    if (!verifyArtifactUrl(this.secretKey, url, query.sig ?? '', nowUnix())) throw new UnauthorizedError('invalid or expired signature');
    const rt = await this.runningTask(url.taskId);
    if (!rt) throw new UnauthorizedError('task is not running');
    const artifact = await this.store.byId(url.artifactId);
    if (!artifact || artifact.run_id !== rt.job.run_id) throw new NotFoundError('artifact not found');
    return { rt, artifact };
  }

  /**
   * A block of the zip (Azure's Put Block, `comp=block&blockid=…`), streamed to blob storage: at most a block's
   * bound and what is left of the artifact's, refused while the owner is over quota. A block sent again replaces
   * the first.
   */
  async uploadBlock(query: SignedQuery, blockId: string, source: BlobSource): Promise<void> {
    const { rt, artifact } = await this.verifySigned('UploadArtifact', query);
    if (artifact.status !== ArtifactStatus.UploadPending) throw new ConflictError('artifact is not being uploaded');
    const blockKey = blockKeyOf(blockId);
    const totals = await this.store.blockTotals(artifact.id, blockKey);
    if (totals.count >= MAX_BLOCKS) throw new PayloadTooLargeError(`an artifact has at most ${MAX_BLOCKS} blocks`);
    const room = this.maxArtifactBytes - totals.bytes;
    if (room <= 0) throw new PayloadTooLargeError(`artifact exceeds limit ${this.maxArtifactBytes}`);
    await this.assertQuota(rt.task.owner_id);
    const key = blockBlobKey(artifact.id, blockKey);
    let size: number;
    try {
      ({ size } = await this.blobs.put(key, source, { maxBytes: Math.min(MAX_BLOCK_BYTES, room) }));
    } catch (error) {
      if (error instanceof BlobTooLargeError) throw new PayloadTooLargeError(`block exceeds limit ${error.limit}`);
      throw error;
    }
    await this.store.putBlock(artifact.id, blockKey, size, nowUnix());
  }

  /** Azure's Put Block List (`comp=blocklist`): the order of the blocks (every one uploaded), kept for the finalize. */
  async commitBlockList(query: SignedQuery, xml: string): Promise<void> {
    const { artifact } = await this.verifySigned('UploadArtifact', query);
    if (artifact.status !== ArtifactStatus.UploadPending) throw new ConflictError('artifact is not being uploaded');
    const ids = blockListIds(xml);
    if (ids.length > MAX_BLOCKS) throw new PayloadTooLargeError(`an artifact has at most ${MAX_BLOCKS} blocks`);
    const stored = await this.store.blocks(artifact.id);
    const keys = ids.map(blockKeyOf);
    if (keys.some((key) => !stored.has(key))) throw new BadRequestError('the block list names a block that was not uploaded');
    if (!(await this.store.setBlockList(artifact.id, JSON.stringify(keys), nowUnix()))) throw new ConflictError('artifact is not being uploaded');
  }

  /**
   * `FinalizeArtifact`: the committed blocks, in order, become the artifact's zip (streamed from blob to blob), whose
   * SHA-256 must be the one the client computed when it sent one. Finalizing a finalized artifact again answers it.
   */
  async finalize(rt: RuntimeTask, input: { runId: string | number | undefined; name: string; hash?: string }): Promise<ActionArtifact> {
    this.assertRun(rt, input.runId);
    const artifact = await this.store.byRunAndName(rt.job.run_id, input.name, `${input.name}.zip`);
    if (!artifact) throw new NotFoundError('artifact not found');
    if (artifact.status === ArtifactStatus.UploadConfirmed) return artifact;
    if (artifact.status !== ArtifactStatus.UploadPending) throw new NotFoundError('artifact not found');
    const stored = await this.store.blocks(artifact.id);
    let keys: string[];
    try {
      keys = artifact.block_list ? (JSON.parse(artifact.block_list) as string[]) : [];
    } catch {
      keys = [];
    }
    if (keys.length === 0 && stored.size > 0) throw new BadRequestError('no block list was committed');
    let total = 0;
    for (const key of keys) {
      const size = stored.get(key);
      if (size === undefined) throw new BadRequestError('a committed block is missing');
      total += size;
    }
    if (total > this.maxArtifactBytes) throw new PayloadTooLargeError(`artifact exceeds limit ${this.maxArtifactBytes}`);
    const storagePath = `${artifact.run_id}/${artifact.id}-${randomBytes(6).toString('hex')}.zip`;
    const { sha256 } = await this.blobs.put(storagePath, this.concatenate(artifact.id, keys), { maxBytes: total, sha256: true });
    const expected = (input.hash ?? '').trim().toLowerCase();
    if (expected && expected !== `sha256:${sha256}`) {
      await this.blobs.delete(storagePath);
      throw new BadRequestError('the artifact does not have the hash the client sent');
    }
    const now = nowUnix();
    const confirmed = await this.store.move(
      artifact.id,
      [ArtifactStatus.UploadPending],
      { status: ArtifactStatus.UploadConfirmed, storage_path: storagePath, file_size: total, file_compressed_size: total, hash_sha256: sha256 ?? '', block_list: '' },
      now,
    );
    if (!confirmed) {
      await this.blobs.delete(storagePath);
      throw new ConflictError('artifact is not being uploaded');
    }
    // The blocks' rows outlive their blobs, so that a crash here leaves rows the cleanup finds (`strayBlocks`).
    await this.discardUpload(artifact);
    return (await this.store.byId(artifact.id)) ?? artifact;
  }

  private async *concatenate(artifactId: number, keys: readonly string[]): AsyncIterable<Uint8Array> {
    for (const key of keys) {
      const block = await this.blobs.get(blockBlobKey(artifactId, key));
      if (!block) throw new BadRequestError('a committed block is missing');
      // Leaving the loop early (the put failed) destroys the stream, so no file stays open.
      for await (const chunk of block.stream) yield chunk as Uint8Array;
    }
  }

  /** Removes the blocks of an upload: their blobs, then their rows (a crash between leaves rows to retry from). */
  private async discardUpload(artifact: Pick<ActionArtifact, 'id'>): Promise<void> {
    const blocks = await this.store.blocks(artifact.id);
    for (const key of blocks.keys()) await this.blobs.delete(blockBlobKey(artifact.id, key));
    await this.store.deleteBlocks(artifact.id);
  }

  private get maxArtifactBytes(): number {
    const limit = this.ctx.settings.actions.ARTIFACT_MAX_SIZE;
    return limit < 0 ? Number.MAX_SAFE_INTEGER : limit;
  }

  /** Forgejo refuses an upload while the owner is over quota for `size:assets:artifacts` (413). */
  private async assertQuota(ownerId: number): Promise<void> {
    const quota = this.ctx.service(QuotaService);
    if (!quota.enabled) return;
    const owner = await this.ctx.port(UsersPort).byId(ownerId);
    if (owner) await quota.assertCanWrite(owner, 'size:assets:artifacts');
  }

  // ---- the protocol: reading and deleting ----

  /** `ListArtifacts`: the run's finalized artifacts, by exact name or id when asked. */
  async listOfTaskRun(rt: RuntimeTask, input: { runId: string | number | undefined; name?: string; id?: number }): Promise<ActionArtifact[]> {
    this.assertRun(rt, input.runId);
    return (await this.store.confirmedOfRun(rt.job.run_id, MAX_LISTED)).filter(
      (artifact) => (input.name === undefined || artifact.artifact_name === input.name) && (input.id === undefined || artifact.id === input.id) && artifact.content_encoding === V4_ENCODING,
    );
  }

  /** `GetSignedArtifactURL`: where to download a finalized artifact of the run (the storage's own URL when it serves it). */
  async signedDownloadUrl(rt: RuntimeTask, input: { runId: string | number | undefined; name: string }): Promise<string> {
    this.assertRun(rt, input.runId);
    const artifact = await this.store.byRunAndName(rt.job.run_id, input.name, `${input.name}.zip`);
    if (!artifact || artifact.status !== ArtifactStatus.UploadConfirmed) throw new NotFoundError('artifact not found');
    const direct = await this.blobs.directUrl?.(artifact.storage_path, artifact.artifact_path);
    return direct ?? this.signedUrl('DownloadArtifact', artifact.id, rt.task.id);
  }

  /** The download a signed URL names, while its task runs. */
  async downloadSigned(query: SignedQuery): Promise<ArtifactDownload> {
    const { artifact } = await this.verifySigned('DownloadArtifact', query);
    return this.open(artifact);
  }

  /** `DeleteArtifact`: marks the run's artifact for deletion; answers its id. */
  async deleteOfTaskRun(rt: RuntimeTask, input: { runId: string | number | undefined; name: string }): Promise<number> {
    this.assertRun(rt, input.runId);
    const artifact = await this.store.byRunAndName(rt.job.run_id, input.name, `${input.name}.zip`);
    if (!artifact || !(await this.markForDeletion(artifact))) throw new NotFoundError('artifact not found');
    return artifact.id;
  }

  private markForDeletion(artifact: ActionArtifact): Promise<boolean> {
    return this.store.move(artifact.id, [ArtifactStatus.UploadPending, ArtifactStatus.UploadConfirmed, ArtifactStatus.Expired], { status: ArtifactStatus.PendingDeletion }, nowUnix());
  }

  private async open(artifact: ActionArtifact): Promise<ArtifactDownload> {
    if (artifact.status !== ArtifactStatus.UploadConfirmed || !artifact.storage_path) throw new NotFoundError('artifact not found');
    const direct = await this.blobs.directUrl?.(artifact.storage_path, artifact.artifact_path);
    if (direct) return { artifact, redirect: direct };
    const blob = await this.blobs.get(artifact.storage_path);
    if (!blob) throw new NotFoundError('artifact not found');
    return { artifact, size: blob.size, stream: blob.stream };
  }

  // ---- the API ----

  /** `ListActionArtifacts`: the repository's artifacts, newest first (finalized and expired ones). */
  list(access: RepoAccess, filter: { name?: string }, page: PageRequest): Promise<Page<ActionArtifact>> {
    this.ctx.service(RunsService).assertRead(access);
    return this.store.list({ repoId: access.repo.id, name: filter.name }, page);
  }

  /** `ListActionRunArtifacts`: a run's (404 for a run of another repository). */
  async listOfRun(access: RepoAccess, runId: number, filter: { name?: string }, page: PageRequest): Promise<Page<ActionArtifact>> {
    const run = await this.ctx.service(RunsService).get(access, runId);
    return this.store.list({ repoId: access.repo.id, runId: run.id, name: filter.name }, page);
  }

  /** `GetActionArtifact`: a finalized or expired artifact of the repository. */
  async get(access: RepoAccess, id: number): Promise<ActionArtifact> {
    this.ctx.service(RunsService).assertRead(access);
    const artifact = Number.isSafeInteger(id) && id > 0 ? await this.store.byId(id) : undefined;
    if (!artifact || artifact.repo_id !== access.repo.id || (artifact.status !== ArtifactStatus.UploadConfirmed && artifact.status !== ArtifactStatus.Expired)) {
      throw new NotFoundError('artifact not found');
    }
    return artifact;
  }

  /** `DownloadActionArtifact`: the zip (404 once expired). */
  async zip(access: RepoAccess, id: number): Promise<ArtifactDownload> {
    return this.open(await this.get(access, id));
  }

  /** `DeleteActionArtifact`: marks it for deletion (the zip goes with the next `cleanup_actions`). */
  async delete(actor: Actor, access: RepoAccess, id: number): Promise<void> {
    this.ctx.service(RunsService).assertWrite(actor, access);
    const artifact = await this.get(access, id);
    if (!(await this.markForDeletion(artifact))) throw new NotFoundError('artifact not found');
  }

  // ---- expiry ----

  /**
   * Forgejo's `CleanupArtifacts` (`cleanup_actions`): expired artifacts lose their zip and show as expired; those
   * marked for deletion lose theirs and are deleted; uploads untouched for a day lose their blocks. In batches, until
   * `signal` aborts.
   */
  async cleanup(signal: AbortSignal): Promise<string> {
    const now = nowUnix();
    const expired = await this.sweep(signal, [ArtifactStatus.UploadConfirmed], 'expired_unix', now, ArtifactStatus.Expired);
    const deleted = await this.sweep(signal, [ArtifactStatus.PendingDeletion], undefined, 0, ArtifactStatus.Deleted);
    const abandoned = await this.sweep(signal, [ArtifactStatus.UploadPending], 'updated_unix', now - ABANDONED_SECONDS, ArtifactStatus.UploadError);
    // Blocks left by a finalize or a sweep that stopped half way (their artifact is no longer uploading).
    for (;;) {
      if (signal.aborted) break;
      const stray = await this.store.strayBlockArtifacts(CLEANUP_BATCH);
      for (const artifactId of stray) await this.discardUpload({ id: artifactId });
      if (stray.length < CLEANUP_BATCH) break;
    }
    return `${expired} artifacts expired, ${deleted} deleted, ${abandoned} abandoned uploads removed`;
  }

  private async sweep(signal: AbortSignal, from: number[], column: 'expired_unix' | 'updated_unix' | undefined, before: number, to: number): Promise<number> {
    let done = 0;
    let after = 0;
    for (;;) {
      if (signal.aborted) break;
      const batch = await this.store.due(from, column, before, after, CLEANUP_BATCH);
      if (batch.length === 0) break;
      for (const artifact of batch) {
        if (signal.aborted) break;
        after = artifact.id;
        // The bytes go first and the row moves after: a crash in between leaves the row for the next sweep (a
        // download meanwhile finds no zip: a 404), never a blob that no row names.
        if (artifact.storage_path) await this.blobs.delete(artifact.storage_path);
        await this.discardUpload(artifact);
        if (await this.store.move(artifact.id, [artifact.status], { status: to }, nowUnix())) done++;
      }
    }
    return done;
  }
}

/** A name as `@actions/artifact` accepts it: 1 to 251 characters, none of those a file name may not hold. */
function validName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw new ValidationError('name', 'artifact name is required');
  if (name.length > MAX_NAME_LENGTH) throw new ValidationError('name', `artifact name may be at most ${MAX_NAME_LENGTH} characters`);
  if (INVALID_NAME_CHARS.some((c) => name.includes(c))) throw new ValidationError('name', 'artifact name contains a character that is not allowed');
  return name;
}

/** A block id (any string the client chose) as a blob key segment. */
function blockKeyOf(blockId: string): string {
  if (blockId === '' || blockId.length > MAX_BLOCK_ID) throw new BadRequestError(`blockid must be 1 to ${MAX_BLOCK_ID} characters`);
  return createHash('sha256').update(blockId).digest('hex');
}

function blockBlobKey(artifactId: number, blockKey: string): string {
  return `tmp/${artifactId}/${blockKey}`;
}

function intOf(text: string | undefined): number {
  return text !== undefined && /^[0-9]{1,15}$/.test(text) ? Number(text) : 0;
}

/**
 * The block ids of an Azure block list (`<BlockList><Latest>id</Latest>…</BlockList>`; `Committed` and
 * `Uncommitted` name ids the same way here, since no block is committed before its artifact is finalized). A small
 * scanner: the ids are base64, no markup inside.
 */
export function blockListIds(xml: string): string[] {
  const ids: string[] = [];
  let at = 0;
  for (;;) {
    const open = xml.indexOf('<', at);
    if (open < 0) break;
    const close = xml.indexOf('>', open);
    if (close < 0) break;
    const tag = xml.slice(open + 1, close).trim();
    at = close + 1;
    if (tag !== 'Latest' && tag !== 'Committed' && tag !== 'Uncommitted') continue;
    const end = xml.indexOf(`</${tag}>`, at);
    if (end < 0) throw new BadRequestError('malformed block list');
    ids.push(decodeXmlText(xml.slice(at, end).trim()));
    at = end + tag.length + 3;
  }
  return ids;
}

function decodeXmlText(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&apos;', "'").replaceAll('&amp;', '&');
}
