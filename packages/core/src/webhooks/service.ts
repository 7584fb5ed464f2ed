import { randomUUID } from 'node:crypto';
import type { CoreContext, CoreTransaction } from '../context.js';
import { isHttpUrl } from '../urls.js';
import { SYSTEM, isSiteAdmin, type Actor } from '../users/index.js';
import { AccessMode } from '../access/index.js';
import { ConflictError, NotFoundError, ForbiddenError, UnauthorizedError, ValidationError } from '../errors.js';
import type { RefUpdate } from '../git/index.js';
import type { Page, PageRequest } from '../paging.js';
import { isStorableText, nowUnix } from '../storage/index.js';
import type { RepoAccess } from '../repos/index.js';
import { ReposPort, type Repository } from '../repos/index.js';
import { OrgsService } from '../orgs/index.js';
import { UsersPort } from '../users/index.js';
import type { User } from '../users/index.js';
import { acceptInput } from '../validation/index.js';
import '../repos/index.js';
import '../users/index.js';
import type { HookEventName, HookPayload } from './formats/types.js';
import { formatterOf } from './formatter.js';
import { AUTHORIZATION_HEADER_MASK, parseMeta } from './convert.js';
import { branchFilterMatches, compileGlob, eventsFromOption, parseEventSettings, wantsEvent } from './hook-events.js';
import { createPayload, deletePayload, forkPayload, pushPayload, repositoryPayload, type PayloadContext } from './payloads.js';
import { encryptHeader, rekeyHeader } from './secrets.js';
import { countRekey, emptyRekeyCounts, forEachRowInBatches, type RekeyCounts, type SecretRekey } from '../security/index.js';
import { releasePayload } from './release-payloads.js';
import { packagePayload } from './package-payloads.js';
import { wikiPayload } from './wiki-payloads.js';
import '../wiki/index.js';
import '../packages/index.js';
import { ReleasesService } from '../releases/index.js';
import { WebhooksStore, type HookScope } from './store.js';
import { HookContentType, type HookDelivery, type Webhook } from './tables.js';
import { CreateHookOptionSchema, EditHookOptionSchema, type CreateHookOption, type EditHookOption } from './schemas.js';
import { HookDeliverer } from './delivery.js';
import { issueCommentPayload, issuePayload, type IssueChanges, type IssueHookAction } from './issue-payloads.js';
import { pullPayload, type PullHookAction } from './pull-payloads.js';
import { REVIEW_TYPES } from '../reviews/index.js';
import '../reviews/index.js';
import { PullsService, type PullDetails } from '../pulls/index.js';
import { IssuesService, type IssueDetails } from '../issues/index.js';
import type { IssueEventBase } from '../issues/index.js';
import type { Comment } from '../timeline/index.js';
import '../comments/index.js';
import { GHOST_USER } from '../users/index.js';


/** One delivery an issue event makes: its action and what changed. */
interface IssueHookSpec {
  action: IssueHookAction;
  changes?: IssueChanges;
}

/** The webhook event of a submitted review, by its type (pending reviews and requests send none). */
const REVIEW_EVENT_OF: ReadonlyMap<number, HookEventName> = new Map([
  [REVIEW_TYPES.approve, 'pull_request_review_approved'],
  [REVIEW_TYPES.reject, 'pull_request_review_rejected'],
  [REVIEW_TYPES.comment, 'pull_request_review_comment'],
]);

/** The pull request event an issue event becomes on a pull request. */
const PULL_EVENT_OF = {
  issues: 'pull_request',
  issue_assign: 'pull_request_assign',
  issue_label: 'pull_request_label',
  issue_milestone: 'pull_request_milestone',
} as const satisfies Record<string, HookEventName>;

/** Events after whose commit the delivery worker looks for new tasks. */
const WAKING_EVENTS = [
  'repo.pushed',
  'repo.created',
  'repo.deleted',
  'repo.forked',
  'issue.created',
  'issue.closed',
  'issue.reopened',
  'issue.edited',
  'issue.assigned',
  'issue.labeled',
  'issue.milestoned',
  'comment.created',
  'comment.edited',
  'comment.deleted',
  'release.published',
  'release.updated',
  'release.deleted',
  'package.created',
  'package.deleted',
  'wiki.changed',
] as const;

/** Release events and the `release` hook actions they send. */
const RELEASE_HOOK_ACTIONS = [
  ['release.published', 'published'],
  ['release.updated', 'updated'],
  ['release.deleted', 'deleted'],
] as const;

/** The hooks an API path names: a repository's (admins), an account's (itself; an organization's owners), the site's. */
export type HookOwner = { kind: 'repo'; access: RepoAccess } | { kind: 'user'; user: User } | { kind: 'org'; org: User } | { kind: 'admin'; which?: 'system' | 'default' | 'all' };

/** A delivery row with its task's delivery id, event and repository. */
export type DeliveryRecord = HookDelivery & { uuid: string; event_type: string; repo_id: number };

const CONTENT_TYPES: ReadonlyMap<string, number> = new Map([
  ['json', HookContentType.Json],
  ['form', HookContentType.Form],
]);

/** Forgejo's `validation.IsValidURL`: an absolute http(s) URL. */
function isValidUrl(value: string): boolean {
  return isStorableText(value) && !/\s/.test(value) && isHttpUrl(value);
}

/**
 * Webhooks of repositories, accounts and the site: their settings, the outbox of tasks written in the
 * transaction of the event that caused them, and their deliveries.
 */
export class WebhooksService {
  private deliverer: HookDeliverer | undefined;

  constructor(private readonly ctx: CoreContext) {}

  private get store(): WebhooksStore {
    return this.ctx.store(WebhooksStore);
  }

  /** The delivery worker (one per host). */
  get delivery(): HookDeliverer {
    this.deliverer ??= new HookDeliverer(this.ctx);
    return this.deliverer;
  }

  /** Moves the hooks' stored `Authorization` headers to a new key, inside the caller's transaction. */
  async reencryptSecrets(tx: CoreTransaction, rekey: SecretRekey): Promise<RekeyCounts> {
    const store = tx.store(WebhooksStore);
    const counts = emptyRekeyCounts();
    await forEachRowInBatches(
      (after, limit) => store.authorizationHeadersAfter(after, limit),
      async (hook) => {
        const stored = countRekey(counts, rekeyHeader(rekey, hook.header_authorization_encrypted), `authorization header of webhook ${hook.id}`);
        if (stored !== undefined) await store.update(hook.id, { header_authorization_encrypted: stored });
      },
    );
    return counts;
  }

  // ---- who may manage which hooks ----

  private scopeOf(owner: HookOwner): HookScope {
    if (owner.kind === 'repo') return { kind: 'repo', repoId: owner.access.repo.id };
    if (owner.kind === 'user') return { kind: 'owner', ownerId: owner.user.id };
    if (owner.kind === 'org') return { kind: 'owner', ownerId: owner.org.id };
    return { kind: 'admin', which: owner.which ?? 'all' };
  }

  /** Repository administrators; the account itself; an organization's owners; site administrators for the site. */
  async assertManage(actor: Actor, owner: HookOwner): Promise<void> {
    if (actor.kind === 'anonymous') throw new UnauthorizedError('token is required');
    if (owner.kind === 'repo') {
      if (owner.access.mode < AccessMode.Admin) throw new ForbiddenError('user should be an owner or a collaborator with admin write of a repository');
    } else if (owner.kind === 'org') {
      await this.ctx.service(OrgsService).assertOwner(actor, owner.org);
    } else if (owner.kind === 'user') {
      if (!(actor.kind === 'user' && actor.user.id === owner.user.id) && actor.kind !== 'system') throw new ForbiddenError('you must be the account itself');
    } else if (!isSiteAdmin(actor)) {
      throw new ForbiddenError('reqSiteAdmin');
    }
  }

  // ---- CRUD ----

  async list(actor: Actor, owner: HookOwner, page: PageRequest): Promise<Page<Webhook>> {
    await this.assertManage(actor, owner);
    return this.store.list(this.scopeOf(owner), page);
  }

  async get(actor: Actor, owner: HookOwner, id: number): Promise<Webhook> {
    await this.assertManage(actor, owner);
    const hook = await this.store.find(this.scopeOf(owner), id);
    if (!hook) throw new NotFoundError(`webhook does not exist [id: ${id}]`);
    return hook;
  }

  async create(actor: Actor, owner: HookOwner, input: CreateHookOption): Promise<Webhook> {
    await this.assertManage(actor, owner);
    const opts = acceptInput(CreateHookOptionSchema, input);
    const formatter = formatterOf(opts.type);
    if (!formatter) throw new ValidationError('', `Invalid hook type: ${opts.type}`);
    for (const name of ['url', 'content_type']) {
      if (!(name in opts.config)) throw new ValidationError('', `Missing config option: ${name}`);
    }
    const contentType = CONTENT_TYPES.get(opts.config.content_type!);
    if (contentType === undefined) throw new ValidationError('', 'Invalid content type');
    const url = opts.config.url!;
    if (!isValidUrl(url)) throw new ValidationError('', 'Invalid url');
    const branchFilter = this.checkBranchFilter(opts.branch_filter ?? '');
    const scope = this.scopeOf(owner);
    // The service description: `POST /admin/hooks` creates a system webhook (one `GET /admin/hooks` lists); only
    // `is_system_webhook: "false"` makes it a default hook (copied into new repositories), as Forgejo's flag does.
    let isSystem = scope.kind === 'admin';
    const systemFlag = opts.config.is_system_webhook;
    if (systemFlag !== undefined && systemFlag !== '') {
      const parsed = parseGoBool(systemFlag);
      if (parsed === undefined) throw new ValidationError('', 'Invalid is_system_webhook value');
      isSystem = parsed;
    }
    const meta = formatter.parseConfig(opts.config);
    const secret = opts.config.secret ?? '';
    this.checkStorable(secret, opts.authorization_header ?? '');
    const now = nowUnix();
    return this.store.insert({
      repo_id: scope.kind === 'repo' ? scope.repoId : 0,
      owner_id: scope.kind === 'owner' ? scope.ownerId : 0,
      // Only the site's hooks may be system hooks; anywhere else the flag means nothing.
      is_system_webhook: scope.kind === 'admin' && isSystem ? 1 : 0,
      url,
      http_method: 'POST',
      content_type: contentType,
      secret,
      events: JSON.stringify(eventsFromOption(opts.events, branchFilter)),
      is_active: opts.active === true ? 1 : 0,
      type: opts.type,
      meta: JSON.stringify(meta),
      header_authorization_encrypted: encryptHeader(this.ctx.settings.security.SECRET_KEY, opts.authorization_header ?? ''),
      last_status: 0,
      created_unix: now,
      updated_unix: now,
    });
  }

  async edit(actor: Actor, owner: HookOwner, id: number, input: EditHookOption): Promise<Webhook> {
    const hook = await this.get(actor, owner, id);
    const opts = acceptInput(EditHookOptionSchema, input);
    const changes: Partial<Webhook> = {};
    if (opts.config) {
      const url = opts.config.url;
      if (url !== undefined) {
        if (!isValidUrl(url)) throw new ValidationError('', 'Invalid url');
        changes.url = url;
      }
      const ct = opts.config.content_type;
      if (ct !== undefined) {
        const contentType = CONTENT_TYPES.get(ct);
        if (contentType === undefined) throw new ValidationError('', 'Invalid content type');
        changes.content_type = contentType;
      }
      if (opts.config.secret !== undefined) {
        this.checkStorable(opts.config.secret, '');
        changes.secret = opts.config.secret;
      }
      const formatter = formatterOf(hook.type);
      // The type's own settings change only when they are given (Slack: with its channel).
      if (formatter && Object.keys(opts.config).some((k) => !['url', 'content_type', 'secret', 'is_system_webhook'].includes(k))) {
        // Over the settings it has, so an edit naming one of them keeps the others.
        const current = Object.fromEntries(Object.entries(parseMeta(hook.meta)).filter((e): e is [string, string] => typeof e[1] === 'string'));
        changes.meta = JSON.stringify(formatter.parseConfig({ ...current, url: changes.url ?? hook.url, ...opts.config }));
      }
    }
    // As Forgejo: events, branch filter and authorization header are replaced by what the edit says (absent: push,
    // none, none); `active` only when given.
    const branchFilter = this.checkBranchFilter(opts.branch_filter ?? '');
    changes.events = JSON.stringify(eventsFromOption(opts.events, branchFilter));
    // The mask the API shows in its place keeps the header (a client sending back what it read changes nothing).
    if (opts.authorization_header !== AUTHORIZATION_HEADER_MASK) {
      this.checkStorable('', opts.authorization_header ?? '');
      changes.header_authorization_encrypted = encryptHeader(this.ctx.settings.security.SECRET_KEY, opts.authorization_header ?? '');
    }
    if (opts.active !== undefined) changes.is_active = opts.active ? 1 : 0;
    changes.updated_unix = nowUnix();
    await this.store.update(hook.id, changes);
    return (await this.store.findById(hook.id))!;
  }

  async delete(actor: Actor, owner: HookOwner, id: number): Promise<void> {
    const hook = await this.get(actor, owner, id);
    await this.ctx.transaction(async (tx) => {
      await tx.store(WebhooksStore).delete(hook.id);
    });
  }

  private checkBranchFilter(filter: string): string {
    if (!isStorableText(filter) || (filter !== '' && !compileGlob(filter))) throw new ValidationError('branch_filter', 'Invalid branch filter');
    return filter;
  }

  private checkStorable(secret: string, header: string): void {
    if (!isStorableText(secret)) throw new ValidationError('config', 'Invalid secret');
    if (!isStorableText(header) || /[\r\n]/.test(header)) throw new ValidationError('authorization_header', 'Invalid authorization header');
  }

  // ---- deliveries ----

  async deliveries(actor: Actor, owner: HookOwner, hookId: number, page: PageRequest): Promise<Page<DeliveryRecord>> {
    const hook = await this.get(actor, owner, hookId);
    return this.store.deliveries(hook.id, page);
  }

  async deliveryOf(actor: Actor, owner: HookOwner, hookId: number, deliveryId: number): Promise<DeliveryRecord> {
    const hook = await this.get(actor, owner, hookId);
    const found = await this.store.delivery(hook.id, deliveryId);
    if (!found) throw new NotFoundError(`hook delivery does not exist [id: ${deliveryId}]`);
    return found;
  }

  /**
   * Sends a delivery's task again, now, as a new attempt (the receiver sees the same delivery id and body): the task
   * is queued in the database and claimed like any other, by whichever process takes it first. While an attempt
   * of it is under way (its lease is live) it is a ConflictError; when the task is gone (pruned or deleted
   * meanwhile), NotFound.
   */
  async redeliver(actor: Actor, owner: HookOwner, hookId: number, deliveryId: number): Promise<void> {
    const found = await this.deliveryOf(actor, owner, hookId, deliveryId);
    const outcome = await this.store.requeue(found.hook_id, found.task_id, nowUnix());
    if (outcome === 'missing') throw new NotFoundError(`hook delivery does not exist [id: ${deliveryId}]`);
    if (outcome === 'in-flight') throw new ConflictError('the delivery is being sent now; ask again once this attempt is recorded');
    this.delivery.wake();
  }

  /**
   * `POST /repos/{owner}/{repo}/hooks/{id}/tests`: a push payload of one commit (the default branch's head, or
   * `ref`'s), queued for this hook whatever its events and whether it is active.
   */
  async test(actor: Actor, access: RepoAccess, hookId: number, ref: string | undefined): Promise<void> {
    const hook = await this.get(actor, { kind: 'repo', access }, hookId);
    const { repo, owner } = access;
    const key = { owner: owner.lower_name, name: repo.lower_name };
    // As Forgejo: the payload names `ref` as given (a branch, tag or commit), else the default branch's full name.
    const refName = ref ?? `refs/heads/${repo.default_branch}`;
    const commit = await this.ctx.git.resolveCommit(key, refName).catch(() => undefined);
    if (!commit) throw new NotFoundError(`reference does not exist [ref: ${ref ?? repo.default_branch}]`);
    const payload = await pushPayload(this.payloadContext(), repo, owner, actor, { ref: refName, oldId: commit, newId: commit });
    const head = payload.head_commit;
    payload.commits = head ? [head] : [];
    payload.total_commits = head ? 1 : 0;
    payload.compare_url = `${this.ctx.settings.server.ROOT_URL}${owner.name}/${repo.name}/compare/${commit}...${commit}`;
    const now = nowUnix();
    await this.store.insertTask({
      hook_id: hook.id,
      repo_id: repo.id,
      uuid: randomUUID(),
      event_type: 'push',
      payload_content: JSON.stringify(payload),
      is_delivered: 0,
      attempts: 0,
      next_attempt_unix: now,
      created_unix: now,
    });
    this.delivery.wake();
  }

  // ---- payloads for other domains ----

  /** The `push` delivery's payload for one ref update (Actions hands it to a workflow as `github.event`). */
  pushEventPayload(repo: Repository, owner: User, actor: Actor, update: RefUpdate): Promise<HookPayload> {
    return pushPayload(this.payloadContext(), repo, owner, actor, update);
  }

  /** The `pull_request` delivery's payload with `action` for the pull request of an issue event (Actions' `github.event`). */
  async pullEventPayload(base: IssueEventBase, action: PullHookAction): Promise<HookPayload | undefined> {
    const pulls = this.ctx.service(PullsService);
    const [pull] = await pulls.ofIssues([base.issue]);
    if (!pull) return undefined;
    const [details] = await pulls.details(SYSTEM, [pull]);
    return details && pullPayload(this.ctx.settings, action, details, base.actor);
  }

  /**
   * For a domain above this one (Actions' finished runs): queues `event` with `payload`, Forgejo's wire JSON as the
   * caller built it, for every active hook of the repository that wants it (its own, its owner's, the system's), in
   * the caller's transaction, so the deliveries exist exactly when the change does. `payload` may be a function,
   * called only when some hook wants the event. No branch filter applies (Forgejo's filters only refs' events).
   * The caller wakes the delivery worker after its commit (`wakeDelivery`); otherwise the worker's next poll finds them.
   */
  async enqueueRepoEvent(
    tx: CoreTransaction,
    repo: Repository,
    owner: User,
    event: HookEventName,
    payload: HookPayload | (() => HookPayload | Promise<HookPayload>),
  ): Promise<void> {
    const hooks = await this.activeHooks(tx, repo, owner);
    if (hooks.length === 0) return;
    await this.enqueue(tx, hooks, repo, event, typeof payload === 'function' ? payload : () => payload);
  }

  /** Tells this host's delivery worker, if it runs, that tasks were queued (after the commit that queued them). */
  wakeDelivery(): void {
    this.deliverer?.wake();
  }

  // ---- events → outbox ----

  private payloadContext(tx?: CoreTransaction): PayloadContext {
    const users = tx ? tx.port(UsersPort) : this.ctx.port(UsersPort);
    return {
      settings: this.ctx.settings,
      git: this.ctx.git,
      usernames: (emails) => users.usernamesByCommitEmail(emails, this.ctx.settings.server.DOMAIN),
    };
  }

  /**
   * Writes a task for every hook of `hooks` (the repository's active ones: its own, its owner's, the system's) that
   * wants `event`; the payload is built only when one does.
   */
  private async enqueue(
    tx: CoreTransaction,
    hooks: readonly Webhook[],
    repo: Repository | undefined,
    event: HookEventName,
    build: () => Promise<HookPayload> | HookPayload,
    options: { ref?: string; exceptRepoHooks?: boolean } = {},
  ): Promise<void> {
    const chosen = hooks.filter((hook) => {
      if (options.exceptRepoHooks && hook.repo_id !== 0) return false;
      const settings = parseEventSettings(hook.events);
      if (!wantsEvent(settings, event)) return false;
      return options.ref === undefined || branchFilterMatches(settings.branch_filter, options.ref);
    });
    if (chosen.length === 0) return;
    const payload = JSON.stringify(await build());
    const now = nowUnix();
    await tx.store(WebhooksStore).insertTasks(
      chosen.map((hook) => ({
        hook_id: hook.id,
        repo_id: repo?.id ?? 0,
        uuid: randomUUID(),
        event_type: event,
        payload_content: payload,
        is_delivered: 0,
        attempts: 0,
        next_attempt_unix: now,
        created_unix: now,
      })),
    );
  }

  private activeHooks(tx: CoreTransaction, repo: Repository, owner: User): Promise<Webhook[]> {
    return tx.store(WebhooksStore).activeFor(repo.id, owner.id);
  }

  /** Subscribes to repository events, once per host: tasks are written in the event's own transaction. */
  subscribe(): void {
    const events = this.ctx.events;
    events.withinTransaction('repo.pushed', async ({ payload }, tx) => {
      const { repo, owner, actor, updates } = payload;
      // One read of the hooks for the whole push, however many refs it moved.
      const hooks = await this.activeHooks(tx, repo, owner);
      if (hooks.length === 0) return;
      for (const update of updates) {
        try {
          await this.enqueuePush(tx, hooks, repo, owner, actor, update);
        } catch (error) {
          // A ref git cannot describe (objects gone, a tag of a tree) loses its hook events, not the push.
          console.error(`[repohost] no webhook payload for ${update.ref} of ${owner.name}/${repo.name}:`, error);
        }
      }
    });
    events.withinTransaction('repo.created', async ({ payload }, tx) => {
      const { repo, owner, actor } = payload;
      await this.copyDefaultHooks(tx, repo);
      const hooks = await this.activeHooks(tx, repo, owner);
      await this.enqueue(tx, hooks, repo, 'repository', () => repositoryPayload(this.ctx.settings, 'created', repo, owner, actor));
    });
    events.withinTransaction('repo.forked', async ({ payload }, tx) => {
      const hooks = await this.activeHooks(tx, payload.parent, payload.parentOwner);
      await this.enqueue(tx, hooks, payload.parent, 'fork', () => forkPayload(this.ctx.settings, payload));
    });
    events.withinTransaction('repo.deleted', async ({ payload }, tx) => {
      const { repo, owner, actor } = payload;
      // The repository's own hooks go with it (Forgejo drops their tasks too); its owner's and the system's hear of it.
      const hooks = await this.activeHooks(tx, repo, owner);
      await this.enqueue(tx, hooks, repo, 'repository', () => repositoryPayload(this.ctx.settings, 'deleted', repo, owner, actor), { exceptRepoHooks: true });
      await tx.store(WebhooksStore).deleteOfRepo(repo.id);
    });
    // An account's hooks go with it (organizations emit this too).
    events.withinTransaction('user.deleted', async ({ payload }, tx) => {
      await tx.store(WebhooksStore).deleteOfOwner(payload.user.id);
    });
    this.subscribeIssueEvents();
    this.subscribeReleaseEvents();
    this.subscribePackageEvents();
    // Wiki pages written through the API (Forgejo's NewWikiPage, EditWikiPage, DeleteWikiPage) become `wiki` deliveries.
    events.withinTransaction('wiki.changed', async ({ payload }, tx) => {
      const hooks = await this.activeHooks(tx, payload.repo, payload.owner);
      await this.enqueue(tx, hooks, payload.repo, 'wiki', () => wikiPayload(this.ctx.settings, payload));
    });
    // Tasks are written before commit; the worker is told after it.
    for (const type of WAKING_EVENTS) events.on(type, () => this.deliverer?.wake());
  }

  /**
   * Package versions created by an upload or deleted by someone become `package` deliveries: to the linked
   * repository's hooks, its owner's and the system's, or without a linked repository to the package owner's and
   * the system's (Forgejo's `EventSource{Repository, Owner}`).
   */
  private subscribePackageEvents(): void {
    for (const [type, action] of [['package.created', 'created'], ['package.deleted', 'deleted']] as const) {
      this.ctx.events.withinTransaction(type, async ({ payload }, tx) => {
        const repoId = payload.version.pkg.repo_id;
        const repo = repoId !== 0 ? await tx.port(ReposPort).byId(repoId) : undefined;
        const repoOwner = repo && (repo.owner_id === payload.owner.id ? payload.owner : (await tx.port(UsersPort).byIds([repo.owner_id])).get(repo.owner_id));
        const linked = repo && repoOwner ? { repo, owner: repoOwner } : undefined;
        const hooks = linked ? await this.activeHooks(tx, linked.repo, linked.owner) : await tx.store(WebhooksStore).activeForOwner(payload.owner.id);
        if (hooks.length === 0) return;
        const creatorId = payload.version.creator_id;
        const creator = (await tx.port(UsersPort).byIds([creatorId])).get(creatorId);
        await this.enqueue(tx, hooks, linked?.repo, 'package', () => packagePayload(this.ctx.settings, action, payload, creator, linked));
      });
    }
  }

  /** Published releases' events become `release` deliveries (drafts send nothing, as in Forgejo). */
  private subscribeReleaseEvents(): void {
    const settings = this.ctx.settings;
    for (const [type, action] of RELEASE_HOOK_ACTIONS) {
      this.ctx.events.withinTransaction(type, async ({ payload }, tx) => {
        const hooks = await this.activeHooks(tx, payload.repo, payload.owner);
        if (hooks.length === 0) return;
        const [details] = await this.ctx.service(ReleasesService).details(payload, [payload.release], tx);
        await this.enqueue(tx, hooks, payload.repo, 'release', () => releasePayload(settings, action, details!, payload.actor));
      });
    }
  }

  /**
   * Issue and comment events become `issues`, `issue_assign`, `issue_label`, `issue_milestone` and
   * `issue_comment` deliveries; on a pull request, their `pull_request…` counterparts, with the pull request's
   * own events (opened, synchronized, merged, retargeted).
   */
  private subscribeIssueEvents(): void {
    const events = this.ctx.events;
    const settings = this.ctx.settings;
    const issueHook = async (tx: CoreTransaction, base: IssueEventBase, event: HookEventName, payloads: (details: IssueDetails) => HookPayload[]): Promise<void> => {
      const hooks = await this.activeHooks(tx, base.repo, base.owner);
      if (hooks.length === 0) return;
      const [details] = await this.ctx.service(IssuesService).details(base.actor, [base.issue], tx);
      for (const payload of payloads(details!)) await this.enqueue(tx, hooks, base.repo, event, () => payload);
    };
    const pullHook = async (tx: CoreTransaction, base: IssueEventBase, event: HookEventName, payloads: (details: PullDetails) => HookPayload[]): Promise<void> => {
      const hooks = await this.activeHooks(tx, base.repo, base.owner);
      if (hooks.length === 0) return;
      const pulls = this.ctx.service(PullsService);
      const [pull] = await pulls.ofIssues([base.issue], tx);
      if (!pull) return;
      const [details] = await pulls.details(SYSTEM, [pull], tx);
      for (const payload of payloads(details!)) await this.enqueue(tx, hooks, base.repo, event, () => payload);
    };
    /** An issue event as the deliveries of its kind: each spec one payload, for an issue or a pull request. */
    const issueOrPull = (
      tx: CoreTransaction,
      base: IssueEventBase & { commitId?: string },
      event: keyof typeof PULL_EVENT_OF,
      specs: (d: IssueDetails) => IssueHookSpec[],
    ): Promise<void> =>
      base.issue.is_pull
        ? pullHook(tx, base, PULL_EVENT_OF[event], (d) =>
            // A merge closes the issue side too; its delivery is the merge's (`closed` with `merged`).
            d.pull.has_merged && event === 'issues'
              ? []
              : specs(d).map((spec) => pullPayload(settings, spec.action, d, base.actor, { changes: spec.changes, commitId: base.commitId })),
          )
        : issueHook(tx, base, event, (d) => specs(d).map((spec) => issuePayload(settings, spec.action, d, base.actor, spec.changes, base.commitId)));

    events.withinTransaction('issue.created', ({ payload }, tx) =>
      payload.issue.is_pull ? Promise.resolve() : issueHook(tx, payload, 'issues', (d) => [issuePayload(settings, 'opened', d, payload.actor)]),
    );
    events.withinTransaction('issue.closed', ({ payload }, tx) => issueOrPull(tx, payload, 'issues', () => [{ action: 'closed' }]));
    events.withinTransaction('issue.reopened', ({ payload }, tx) => issueOrPull(tx, payload, 'issues', () => [{ action: 'reopened' }]));
    events.withinTransaction('issue.edited', ({ payload }, tx) =>
      issueOrPull(tx, payload, 'issues', () => {
        const { previous, issue } = payload;
        // Forgejo sends one `edited` per changed field.
        const out: IssueHookSpec[] = [];
        if (previous.name !== issue.name) out.push({ action: 'edited', changes: { title: { from: previous.name } } });
        if (previous.content !== issue.content) out.push({ action: 'edited', changes: { body: { from: previous.content } } });
        if (previous.ref !== issue.ref) out.push({ action: 'edited', changes: { ref: { from: previous.ref } } });
        return out;
      }),
    );
    events.withinTransaction('issue.assigned', ({ payload }, tx) =>
      issueOrPull(tx, payload, 'issue_assign', () => [
        ...payload.added.map((): IssueHookSpec => ({ action: 'assigned' })),
        ...payload.removed.map((): IssueHookSpec => ({ action: 'unassigned' })),
      ]),
    );
    events.withinTransaction('issue.labeled', ({ payload }, tx) =>
      issueOrPull(tx, payload, 'issue_label', (d) => [
        { action: d.labels.length === 0 ? 'label_cleared' : 'label_updated', changes: { addedLabels: payload.added, removedLabels: payload.removed } },
      ]),
    );
    events.withinTransaction('issue.milestoned', ({ payload }, tx) =>
      issueOrPull(tx, payload, 'issue_milestone', () => [{ action: payload.issue.milestone_id ? 'milestoned' : 'demilestoned' }]),
    );
    const commentHook = async (tx: CoreTransaction, base: IssueEventBase & { comment: Comment }, action: 'created' | 'edited' | 'deleted', previousBody?: string) => {
      const poster = (await tx.port(UsersPort).byId(base.comment.poster_id)) ?? GHOST_USER;
      const payloads = (d: IssueDetails) => [issueCommentPayload(settings, action, d, base.comment, poster, base.actor, previousBody)];
      await (base.issue.is_pull ? pullHook(tx, base, 'pull_request_comment', payloads) : issueHook(tx, base, 'issue_comment', payloads));
    };
    events.withinTransaction('comment.created', ({ payload }, tx) => commentHook(tx, payload, 'created'));
    events.withinTransaction('comment.edited', ({ payload }, tx) => commentHook(tx, payload, 'edited', payload.previousBody));
    events.withinTransaction('comment.deleted', ({ payload }, tx) => commentHook(tx, payload, 'deleted'));

    events.withinTransaction('pull.opened', ({ payload }, tx) => pullHook(tx, payload, 'pull_request', (d) => [pullPayload(settings, 'opened', d, payload.actor)]));
    events.withinTransaction('pull.synchronized', ({ payload }, tx) =>
      pullHook(tx, payload, 'pull_request_sync', (d) => [pullPayload(settings, 'synchronized', d, payload.actor)]),
    );
    events.withinTransaction('pull.retargeted', ({ payload }, tx) =>
      pullHook(tx, payload, 'pull_request', (d) => [pullPayload(settings, 'edited', d, payload.actor, { changes: { base: payload.previousBase } })]),
    );
    events.withinTransaction('pull.merged', ({ payload }, tx) => pullHook(tx, payload, 'pull_request', (d) => [pullPayload(settings, 'closed', d, payload.actor)]));
    events.withinTransaction('pull.reviewed', ({ payload }, tx) => {
      const event = REVIEW_EVENT_OF.get(payload.review.type);
      if (!event) return Promise.resolve();
      return pullHook(tx, payload, event, (d) => [pullPayload(settings, 'reviewed', d, payload.actor, { review: { type: event, content: payload.review.content } })]);
    });
    // Forgejo announces requests of users; a team's request has no one to name.
    events.withinTransaction('pull.review_requested', ({ payload }, tx) => {
      const reviewer = payload.requestedReviewer;
      if (!reviewer) return Promise.resolve();
      const action = payload.removed ? 'review_request_removed' : 'review_requested';
      return pullHook(tx, payload, 'pull_request_review_request', (d) => [pullPayload(settings, action, d, payload.actor, { requestedReviewer: reviewer })]);
    });
  }

  private async enqueuePush(tx: CoreTransaction, hooks: readonly Webhook[], repo: Repository, owner: User, actor: Actor, update: RefUpdate): Promise<void> {
    const zero = '0'.repeat(update.newId.length);
    const isBranchOrTag = update.ref.startsWith('refs/heads/') || update.ref.startsWith('refs/tags/');
    if (!isBranchOrTag) return;
    if (update.newId === zero) {
      await this.enqueue(tx, hooks, repo, 'delete', () => deletePayload(this.ctx.settings, repo, owner, actor, update), { ref: update.ref });
      return;
    }
    // A new ref is announced first, then pushed (Forgejo's order).
    if (update.oldId === zero) {
      await this.enqueue(tx, hooks, repo, 'create', () => createPayload(this.ctx.settings, repo, owner, actor, update), { ref: update.ref });
    }
    // The refs already moved when the push is recorded: git answers what the push brought.
    await this.enqueue(tx, hooks, repo, 'push', () => pushPayload(this.payloadContext(tx), repo, owner, actor, update), { ref: update.ref });
  }

  /** A new repository gets a copy of every default hook (Forgejo's `CopyDefaultWebhooksToRepo`). */
  private async copyDefaultHooks(tx: CoreTransaction, repo: Repository): Promise<void> {
    const store = tx.store(WebhooksStore);
    const defaults = await store.defaults();
    if (defaults.length === 0) return;
    const now = nowUnix();
    await store.insertMany(defaults.map(({ id: _id, ...hook }) => ({ ...hook, repo_id: repo.id, last_status: 0, created_unix: now, updated_unix: now })));
  }

}

/** Go's `strconv.ParseBool`. */
function parseGoBool(value: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}
