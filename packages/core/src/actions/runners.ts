import { createHash, createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { CoreContext, CoreTransaction } from '../context.js';
import { isSiteAdmin, type Actor } from '../users/index.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../errors.js';
import type { Page, PageRequest } from '../paging.js';
import { nowUnix } from '../storage/index.js';
import { countRekey, decryptSecret, emptyRekeyCounts, encryptSecret, forEachRowInBatches, rekeySecret, type RekeyCounts, type SecretRekey } from '../security/index.js';
import { acceptInput } from '../validation/index.js';
import { ActionsService, type ActionsOwner } from './service.js';
import { RegisterRunnerOptionsSchema, type ApiActionRunJob, type RegisterRunnerOptions } from './schemas.js';
import { RunnersStore, type RunnerFilter } from './runners-store.js';
import type { ActionsScope } from './store.js';
import type { ActionRunner } from './tables.js';
import { RunsStore, type JobScope } from './runs-store.js';
import { jobRunsOn } from './lifecycle.js';
import { toApiActionRunJob } from './convert.js';

/** Whose runners a path names: a repository's, an organization's, the signed-in user's, or the instance's. */
export type RunnersOwner = ActionsOwner | { kind: 'global' };

/** The purpose registration tokens are encrypted under (`security/secrets.ts`); it never changes. */
export const RUNNER_TOKEN_PURPOSE = 'actions runner registration token';

/** What a runner says of itself when it registers (the runner protocol's `RegisterRequest`). */
export interface RunnerRegistration {
  /** The registration token. */
  token: string;
  name: string;
  version?: string;
  labels?: string[];
  ephemeral?: boolean;
}

/** A runner just created, with its own token: shown this once, only its hash is kept. */
export interface RegisteredRunner {
  runner: ActionRunner;
  token: string;
}

/** Forgejo's `ErrNotExist` wording for a runner another scope has or nobody has. */
function runnerNotFound(id: number | string): NotFoundError {
  return new NotFoundError(`runner with id ${id}: resource does not exist`);
}

/** The runner protocol's refusals, in Forgejo's words. */
export const REGISTRATION_TOKEN_NOT_FOUND = 'runner registration token not found';
export const REGISTRATION_TOKEN_INVALIDATED = 'runner registration token has been invalidated, please use the latest one';
export const UNREGISTERED_RUNNER = 'unregistered runner';

/** The bytes of a runner's name kept (Forgejo's `util.SplitStringAtByteN(name, 255)`). */
const NAME_MAX_BYTES = 255;
/** The characters of a runner's version kept (Forgejo's `VARCHAR(64)`). */
const VERSION_MAX_LENGTH = 64;
const LABEL_MAX_COUNT = 256;
const LABEL_MAX_LENGTH = 255;
/** Waiting jobs a runners API list shows at most (Forgejo's has no paging either). */
const WAITING_JOBS_SHOWN = 500;
const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * Runners and their registration tokens (Forgejo's `models/actions/runner*.go`, `routers/api/v1/shared/runners.go`
 * and the protocol's `Register`/`Declare`), at the instance's, an account's or a repository's level. A scope's
 * registration token stays the same until it is reset; a reset leaves the older ones inactive. A runner's own
 * token is shown once, when it is created, and kept only hashed.
 */
export class RunnersService {
  constructor(private readonly ctx: CoreContext) {}

  private get store(): RunnersStore {
    return this.ctx.store(RunnersStore);
  }

  /** A deleted repository's or account's registration tokens and runners go with it. */
  subscribe(): void {
    const events = this.ctx.events;
    events.withinTransaction('repo.deleted', async ({ payload }, tx) => tx.store(RunnersStore).deleteScope({ ownerId: 0, repoId: payload.repo.id }));
    events.withinTransaction('user.deleted', async ({ payload }, tx) => tx.store(RunnersStore).deleteScope({ ownerId: payload.user.id, repoId: 0 }));
  }

  /**
   * Who may manage a level's runners, as for its secrets (`ActionsService.assertManage`: the repository's owners,
   * the organization's owners, the user); the instance's: site administrators.
   */
  async assertManage(actor: Actor, owner: RunnersOwner): Promise<ActionsScope> {
    if (owner.kind !== 'global') return this.ctx.service(ActionsService).assertManage(actor, owner);
    if (actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
    if (!isSiteAdmin(actor) && actor.kind !== 'system') throw new ForbiddenError('you must be an admin');
    return { ownerId: 0, repoId: 0 };
  }

  // ---- registration tokens ----

  /** Forgejo's `GetRegistrationToken`: the scope's active token, or a new one when it has none active. */
  async registrationToken(actor: Actor, owner: RunnersOwner): Promise<string> {
    const scope = await this.assertManage(actor, owner);
    return this.ctx.transaction(async (tx) => {
      const store = tx.store(RunnersStore);
      await store.lockScope(scope);
      const latest = await store.latestToken(scope);
      if (!latest || !latest.is_active) return this.newToken(tx, scope);
      const token = decryptSecret(this.ctx.settings.security.SECRET_KEY, RUNNER_TOKEN_PURPOSE, latest.token_encrypted);
      // Under another key than it was stored with: replacing it would strand the runners given it, so say why instead.
      if (token === undefined) throw new Error(`runner registration token ${latest.id} does not decrypt under [security] SECRET_KEY; run \`repohost admin regenerate secrets\` or reset the token`);
      return token;
    });
  }

  /** A new registration token for the scope; every older one stops registering runners. */
  async resetRegistrationToken(actor: Actor, owner: RunnersOwner): Promise<string> {
    const scope = await this.assertManage(actor, owner);
    return this.ctx.transaction(async (tx) => {
      await tx.store(RunnersStore).lockScope(scope);
      return this.newToken(tx, scope);
    });
  }

  private async newToken(tx: CoreTransaction, scope: ActionsScope): Promise<string> {
    let token = '';
    for (let i = 0; i < 40; i++) token += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
    const encrypted = encryptSecret(this.ctx.settings.security.SECRET_KEY, RUNNER_TOKEN_PURPOSE, token);
    await tx.store(RunnersStore).replaceToken(scope, sha256(token), encrypted, nowUnix());
    return token;
  }

  /** Moves the stored registration tokens to a new key, inside the caller's transaction. */
  async reencryptTokens(tx: CoreTransaction, rekey: SecretRekey): Promise<RekeyCounts> {
    const store = tx.store(RunnersStore);
    const counts = emptyRekeyCounts();
    await forEachRowInBatches(
      (after, limit) => store.tokensAfter(after, limit),
      async (row) => {
        const stored = countRekey(counts, rekeySecret(rekey, RUNNER_TOKEN_PURPOSE, row.data), `runner registration token ${row.id}`);
        if (stored !== undefined) await store.setTokenEncrypted(row.id, stored);
      },
    );
    return counts;
  }

  // ---- runners through the API ----

  /** The scope's runners; with `visible`, also those it may use (the instance's, a repository's owner's). */
  async list(actor: Actor, owner: RunnersOwner, options: { visible?: boolean }, page: PageRequest): Promise<Page<ActionRunner>> {
    const scope = await this.assertManage(actor, owner);
    return this.store.runners(filterOf(owner, scope, options.visible ?? false), page);
  }

  /** A runner the scope may use (Forgejo's `GetVisibleRunnerByID`), 404 otherwise. */
  async get(actor: Actor, owner: RunnersOwner, id: number): Promise<ActionRunner> {
    return this.findVisible(owner, await this.assertManage(actor, owner), id);
  }

  private async findVisible(owner: RunnersOwner, scope: ActionsScope, id: number): Promise<ActionRunner> {
    const runner = Number.isSafeInteger(id) && id > 0 ? await this.store.runner(filterOf(owner, scope, true), id) : undefined;
    if (!runner) throw runnerNotFound(id);
    return runner;
  }

  /**
   * Forgejo's `RegisterRunner` of the API: a runner of the scope, without labels until it declares them, and its
   * token (shown this once).
   */
  async register(actor: Actor, owner: RunnersOwner, input: RegisterRunnerOptions): Promise<RegisteredRunner> {
    const scope = await this.assertManage(actor, owner);
    const opts = acceptInput(RegisterRunnerOptionsSchema, input);
    return this.createRunner(scope, { name: opts.name, description: opts.description ?? '', ephemeral: opts.ephemeral ?? false, version: '', labels: [] });
  }

  /**
   * Forgejo's `DeleteRunner`: a runner the scope may see but does not own (the instance's, seen from a repository)
   * is refused with 404 as one it may not see.
   */
  async delete(actor: Actor, owner: RunnersOwner, id: number): Promise<void> {
    const scope = await this.assertManage(actor, owner);
    const runner = await this.findVisible(owner, scope, id);
    const editable = owner.kind === 'global' || (runner.owner_id === scope.ownerId && runner.repo_id === scope.repoId);
    if (!editable) throw new NotFoundError('No permission to delete this runner');
    if (!(await this.store.deleteRunner(runner.id))) throw runnerNotFound(id);
  }

  /**
   * Forgejo's `GetActionRunJobs`: the scope's jobs waiting for a runner, those a runner with `labels` (comma
   * separated) could take when given, oldest first.
   */
  async waitingJobs(actor: Actor, owner: RunnersOwner, labels?: string): Promise<ApiActionRunJob[]> {
    const scope = await this.assertManage(actor, owner);
    const jobScope: JobScope = owner.kind === 'global' ? { all: true } : { ownerId: scope.repoId ? 0 : scope.ownerId, repoId: scope.repoId };
    const wanted = labels === undefined || labels.trim() === '' ? undefined : new Set(labels.split(',').map((label) => label.trim()).filter(Boolean));
    const jobs = await this.ctx.store(RunsStore).waitingJobs(jobScope, WAITING_JOBS_SHOWN);
    const view = { viewer: actor, settings: this.ctx.settings };
    return jobs.filter((job) => !wanted || jobRunsOn(job).every((label) => wanted.has(label))).map((job) => toApiActionRunJob(job, view));
  }

  // ---- the runner protocol ----

  /**
   * The protocol's `Register`: a runner of the token's scope. A token nobody has, or one a newer token replaced, is
   * refused (UnauthorizedError, with Forgejo's words).
   */
  async registerWithToken(input: RunnerRegistration): Promise<RegisteredRunner> {
    const found = input.token === '' ? undefined : await this.store.tokenByHash(sha256(input.token));
    if (!found) throw new UnauthorizedError(REGISTRATION_TOKEN_NOT_FOUND);
    if (!found.is_active) throw new UnauthorizedError(REGISTRATION_TOKEN_INVALIDATED);
    return this.createRunner(
      { ownerId: found.owner_id, repoId: found.repo_id },
      { name: input.name, description: '', ephemeral: input.ephemeral ?? false, version: input.version ?? '', labels: input.labels ?? [] },
    );
  }

  /** The runner a protocol call names by `x-runner-uuid` and `x-runner-token`, marked online; 401 for any other. */
  async authenticate(uuid: string, token: string): Promise<ActionRunner> {
    const runner = uuid === '' ? undefined : await this.store.runnerByUuid(uuid);
    if (!runner || !sameHash(runner.token_hash, hashRunnerToken(token, runner.token_salt))) throw new UnauthorizedError(UNREGISTERED_RUNNER);
    const now = nowUnix();
    await this.store.touch(runner.id, now);
    return { ...runner, last_online: now };
  }

  /** The protocol's `Declare`: the runner's version and labels, as it states them now. */
  async declare(runner: ActionRunner, version: string, labels: string[]): Promise<ActionRunner> {
    const kept = cleanLabels(labels);
    const stored = JSON.stringify(kept);
    const now = nowUnix();
    if (!(await this.store.declare(runner.id, version.slice(0, VERSION_MAX_LENGTH), stored, now))) throw new UnauthorizedError(UNREGISTERED_RUNNER);
    return { ...runner, version: version.slice(0, VERSION_MAX_LENGTH), agent_labels: stored, updated_unix: now };
  }

  private async createRunner(
    scope: ActionsScope,
    fields: { name: string; description: string; ephemeral: boolean; version: string; labels: string[] },
  ): Promise<RegisteredRunner> {
    const token = randomBytes(20).toString('hex');
    const salt = randomBytes(10).toString('hex');
    const now = nowUnix();
    const runner = await this.store.insertRunner({
      uuid: randomUUID(),
      name: truncateBytes(fields.name, NAME_MAX_BYTES),
      version: fields.version.slice(0, VERSION_MAX_LENGTH),
      owner_id: scope.repoId !== 0 ? 0 : scope.ownerId,
      repo_id: scope.repoId,
      description: fields.description,
      ephemeral: fields.ephemeral ? 1 : 0,
      token_hash: hashRunnerToken(token, salt),
      token_salt: salt,
      agent_labels: JSON.stringify(cleanLabels(fields.labels)),
      last_online: 0,
      last_active: 0,
      created_unix: now,
      updated_unix: now,
    });
    return { runner, token };
  }
}

function filterOf(owner: RunnersOwner, scope: ActionsScope, visible: boolean): RunnerFilter {
  if (owner.kind === 'global') return { all: true };
  return { scope, visible, repoOwnerId: owner.kind === 'repo' ? owner.access.repo.owner_id : undefined };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function hashRunnerToken(token: string, salt: string): string {
  return createHmac('sha256', salt).update(token).digest('hex');
}

function sameHash(stored: string, computed: string): boolean {
  const a = Buffer.from(stored, 'hex');
  const b = Buffer.from(computed, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

/** At most `max` bytes of UTF-8, never cutting a character. */
function truncateBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  let bytes = 0;
  let kept = '';
  for (const char of text) {
    bytes += Buffer.byteLength(char);
    if (bytes > max) break;
    kept += char;
  }
  return kept;
}

/** The labels as declared, without empty ones or repeats, within a bound. */
function cleanLabels(labels: readonly string[]): string[] {
  const kept = new Set<string>();
  for (const label of labels) {
    if (kept.size >= LABEL_MAX_COUNT) break;
    if (typeof label === 'string' && label !== '') kept.add(label.slice(0, LABEL_MAX_LENGTH));
  }
  return [...kept];
}
