import { ConfigError, loadSettings, secretKeyFile, type LoadSettingsOptions, type Settings, type SettingsOverrides } from './config/index.js';
import { createSecretKeyFile, generateSecretKey } from './config/index.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { openStorage, type DialectName, type Storage } from './storage/index.js';
import { hasMigrated, migrateStorage } from './storage/index.js';
import type { GitBackend } from './git/index.js';
import { NativeGitBackend } from './git/index.js';
import { MemoryGitBackend } from './git/index.js';
import { CoreContext, type CoreTransaction, type ServiceClass } from './context.js';
import type { DomainEvents } from './events/index.js';
import { UsersService } from './users/index.js';
import { UserAdminService } from './users/index.js';
import { UserEmailsService } from './users/index.js';
import { UserAvatarsService } from './users/index.js';
import { TokensService } from './tokens/index.js';
import { KeysService } from './keys/index.js';
import { GpgKeysService } from './gpg/index.js';
import { ReposService } from './repos/index.js';
import { AccessService } from './access/index.js';
import { OrgsService } from './orgs/index.js';
import { OrgLifecycleService } from './accounts/index.js';
import { AccountLifecycleService } from './accounts/index.js';
import { TeamsService } from './orgs/index.js';
import { CollaboratorsService } from './repos/index.js';
import { GitTransferService } from './repos/index.js';
import { RedirectsService } from './redirects/index.js';
import { RepoStorageService, type ReconcileReport } from './repos/index.js';
import { RepoSettingsService } from './repos/index.js';
import { RepoTransferService } from './repos/index.js';
import { RepoForksService } from './repos/index.js';
import { RepoParticipantsService } from './repos/index.js';
import { PublicSettingsService } from './settings/index.js';
import { RepoSearchService } from './repos/index.js';
import { RepoLanguagesService } from './repos/index.js';
import { RepoArchiveService } from './repos/index.js';
import { TopicsService } from './topics/index.js';
import { ContentsService } from './contents/index.js';
import { LabelsService } from './labels/index.js';
import { IssueLabelsService } from './issues/index.js';
import { CommitsService } from './commits/index.js';
import { CommitStatusesService } from './commits/index.js';
import { RepoTemplatesService } from './templates/index.js';
import { MarkupService } from './markup/index.js';
import { ActivityService } from './activity/index.js';
import { SocialService } from './social/index.js';
import { BranchesService } from './refs/index.js';
import { TagsService } from './refs/index.js';
import { GitDataService } from './gitdata/index.js';
import { QuotaService } from './quota/index.js';
import { PullsService } from './pulls/index.js';
import { PullMergeService } from './pulls/index.js';
import { PullUpdateService } from './pulls/index.js';
import { PullAutoMergeService } from './pulls/index.js';
import { ReviewsService } from './reviews/index.js';
import { WebhooksService } from './webhooks/index.js';
import { TwoFactorService } from './twofactor/index.js';
import { LoginSourcesService } from './loginsources/index.js';
import { IssuesService } from './issues/index.js';
import { AttachmentsService } from './attachments/index.js';
import { IssueAttachmentsService } from './issues/index.js';
import { CommentAttachmentsService } from './comments/index.js';
import { CommentsService } from './comments/index.js';
import { ReactionsService } from './reactions/index.js';
import { RunsService } from './actions/index.js';
import { PackageWorkers } from './packages/index.js';
import { OAuth2Service } from './oauth2/index.js';
import { OAuth2ProviderService } from './oauth2/index.js';
import { NotificationsService } from './notifications/index.js';
import { IssueSubscriptionsService } from './notifications/index.js';
import { IssueDependenciesService } from './issues/index.js';
import { IssueDeadlineService } from './issues/index.js';
import { IssueLockService } from './issues/index.js';
import { TimesService } from './times/index.js';
import { MilestonesService } from './milestones/index.js';
import { ProtectionService } from './protection/index.js';
import { ReleasesService } from './releases/index.js';
import { ReleaseAssetsService } from './releases/index.js';
import { IssuePinsService } from './issues/index.js';
import { IssueTemplatesService } from './issues/index.js';
import { JobsService } from './jobs/index.js';
import { CronService } from './cron/index.js';
import { PushMirrorsService } from './pushmirrors/index.js';
import { MirrorsService } from './mirrors/index.js';
import { MigrateService } from './migrate/index.js';
import { SecretsAtRestService } from './secretsatrest/index.js';
import { BlobsService } from './blobs/index.js';
import { CRON_TASKS, DOMAINS, JOB_HANDLERS, REPAIRS, SECRET_KINDS } from './domains.js';

export interface RepoHostOptions {
  /** Resolved settings; when absent they are loaded from `config`. */
  settings?: Settings;
  /** How to load settings (app.ini, environment, overrides) when `settings` is absent. */
  config?: LoadSettingsOptions;
  /** Git storage; defaults to bare repositories under `[repository] ROOT` driven by the `git` binary. */
  git?: GitBackend;
  /** Run pending database migrations on open (default true). */
  migrate?: boolean;
  /**
   * Finish or undo, on open, the git-and-database changes a crash interrupted (default: when migrating). Only one process
   * may do this for a given database and storage: leave it off in a second process sharing them.
   */
  reconcile?: boolean;
  /**
   * What to do when no `[security] SECRET_KEY` is configured (no SECRET_KEY, no SECRET_KEY_URI, no key file in
   * APP_DATA_PATH). `'refuse'` (the default): fail with a ConfigError. `'generate'`: on a new installation (a
   * database no migration ran on yet), create the key file (what every `repohost` command does); an existing
   * installation is refused, its secrets are under the empty key (`repohost admin regenerate secrets` moves them).
   * `'ephemeral'`: a random key for this instance, gone with it (in-memory forges). `'allow-empty'`: the empty
   * key, for tests of old installations only; a warning is logged. The key chosen is set in `settings`.
   */
  noSecretKey?: NoSecretKey;
}

/** See {@link RepoHostOptions.noSecretKey}. */
export type NoSecretKey = 'refuse' | 'generate' | 'ephemeral' | 'allow-empty';

/** What `RepoHost.inMemory` takes: settings on top of its own (`[database] PATH = :memory:`, `[repository] BACKEND = memory`). */
export interface InMemoryHostOptions {
  overrides?: SettingsOverrides;
}

/**
 * A forge: every operation is a typed async method on one of its services. Instances share nothing, so a
 * process may hold several (tests do). The services listed here are the public surface; each is built on first
 * use from the host's context.
 */
export class RepoHost {
  private readonly ctx: CoreContext;
  /** What opening found and repaired of interrupted changes (empty lists when nothing was, or `reconcile: false`). */
  reconciled: ReconcileReport = { abandonedCreates: [], finishedRemovals: [], resynced: [], undoneRenames: [], undoneOwnerRenames: [], abandonedMigrations: [] };
  /** The key file this open created (`noSecretKey: 'generate'` on a new installation), for the CLI to announce. */
  generatedSecretKeyFile: string | undefined;

  private constructor(
    readonly settings: Settings,
    private readonly storage: Storage,
    readonly git: GitBackend,
  ) {
    this.ctx = new CoreContext(settings, storage, git);
    // What the domains contribute (`domains.ts`): their event handlers, once per host and in that list's order;
    // their job handlers, with a wake-up of the worker after a commit that queued a job; their recurring tasks;
    // their start-up repairs.
    for (const domain of DOMAINS) domain.provide?.(this.ctx);
    for (const domain of DOMAINS) domain.subscribe?.(this.ctx);
    this.jobs.register(JOB_HANDLERS);
    this.jobs.subscribe();
    this.cron.register(CRON_TASKS);
    this.secretsAtRest.register(SECRET_KINDS);
    this.repoStorage.registerRepairs(REPAIRS);
  }

  /**
   * A domain's service by its class (`host.service(WidgetsService)`): what a domain without a getter here is reached
   * by, so a new domain needs no line in this file. The getters below are the same instances under shorter names.
   */
  service<S>(cls: ServiceClass<S>): S {
    return this.ctx.service(cls);
  }

  get users(): UsersService {
    return this.ctx.service(UsersService);
  }
  /** Every email address of an account (`/user/emails`, `/admin/emails`). */
  get userEmails(): UserEmailsService {
    return this.ctx.service(UserEmailsService);
  }
  /** Uploaded and generated avatars, and the bytes behind `avatar_url`. */
  get userAvatars(): UserAvatarsService {
    return this.ctx.service(UserAvatarsService);
  }
  /** Site administration of accounts: create, list, edit. */
  get userAdmin(): UserAdminService {
    return this.ctx.service(UserAdminService);
  }
  /** Deleting and renaming accounts (with their repositories, organizations and storage). */
  get accounts(): AccountLifecycleService {
    return this.ctx.service(AccountLifecycleService);
  }
  get tokens(): TokensService {
    return this.ctx.service(TokensService);
  }
  /** SSH public keys. */
  get keys(): KeysService {
    return this.ctx.service(KeysService);
  }
  /** GPG keys of accounts, and finding one by the key id a signature names. */
  get gpgKeys(): GpgKeysService {
    return this.ctx.service(GpgKeysService);
  }
  get repos(): ReposService {
    return this.ctx.service(ReposService);
  }
  /** "What may this actor do here": repository permissions, organization membership, visibility of accounts. */
  get access(): AccessService {
    return this.ctx.service(AccessService);
  }
  /** Organizations: creation, membership, what a member may do. */
  get orgs(): OrgsService {
    return this.ctx.service(OrgsService);
  }
  /** Deleting and renaming organizations (with their repositories' storage). */
  get orgLifecycle(): OrgLifecycleService {
    return this.ctx.service(OrgLifecycleService);
  }
  /** Teams of organizations: their members, repositories and rights. */
  get teams(): TeamsService {
    return this.ctx.service(TeamsService);
  }
  /** Collaborators of repositories: add, change, remove, list, and what an account may do to a repository. */
  get collaborators(): CollaboratorsService {
    return this.ctx.service(CollaboratorsService);
  }
  /** Clone, fetch and push over any byte stream. */
  /** Where old names of renamed or transferred repositories and accounts lead (Forgejo's redirects). */
  get redirects(): RedirectsService {
    return this.ctx.service(RedirectsService);
  }

  get transfer(): GitTransferService {
    return this.ctx.service(GitTransferService);
  }
  /** Agreement between git storage and the database: start-up repair, unadopted repositories. */
  get repoStorage(): RepoStorageService {
    return this.ctx.service(RepoStorageService);
  }
  /** Editing a repository's settings: rename, visibility, units, archiving. */
  get repoSettings(): RepoSettingsService {
    return this.ctx.service(RepoSettingsService);
  }
  /** Transfers of repositories between owners, immediate or offered and accepted. */
  get repoTransfers(): RepoTransferService {
    return this.ctx.service(RepoTransferService);
  }
  /** Forks of repositories, their lists and parents, and the fork networks pull requests stay within. */
  get forks(): RepoForksService {
    return this.ctx.service(RepoForksService);
  }
  /** Assignees and reviewers of a repository. */
  get repoParticipants(): RepoParticipantsService {
    return this.ctx.service(RepoParticipantsService);
  }
  /** `/repos/search`. */
  get repoSearch(): RepoSearchService {
    return this.ctx.service(RepoSearchService);
  }
  /** Repository topics and `/topics/search`. */
  get topics(): TopicsService {
    return this.ctx.service(TopicsService);
  }

  get contents(): ContentsService {
    return this.ctx.service(ContentsService);
  }
  /** Bytes per language of repositories' default branches. */
  get repoLanguages(): RepoLanguagesService {
    return this.ctx.service(RepoLanguagesService);
  }
  /** zip, tar.gz and bundle archives of a repository at a ref. */
  get repoArchives(): RepoArchiveService {
    return this.ctx.service(RepoArchiveService);
  }
  /** `/version` and `/settings/*`. */
  get publicSettings(): PublicSettingsService {
    return this.ctx.service(PublicSettingsService);
  }
  /** Built-in .gitignore, license, label set and README templates for new repositories. */
  get repoTemplates(): RepoTemplatesService {
    return this.ctx.service(RepoTemplatesService);
  }
  /** A repository's history: commit listings, single commits, diffs, comparisons. */
  get commits(): CommitsService {
    return this.ctx.service(CommitsService);
  }
  /** Statuses CI systems report for commits, and their combined state. */
  get commitStatuses(): CommitStatusesService {
    return this.ctx.service(CommitStatusesService);
  }
  /** Labels of repositories and organizations (`/repos/{owner}/{repo}/labels`, `/orgs/{org}/labels`). */
  get labels(): LabelsService {
    return this.ctx.service(LabelsService);
  }
  /** Labels on issues (`/repos/{owner}/{repo}/issues/{index}/labels`). */
  get issueLabels(): IssueLabelsService {
    return this.ctx.service(IssueLabelsService);
  }
  /** Markdown and markup rendering (`/markdown`, `/markup`, READMEs, issue bodies, comments). */
  get markup(): MarkupService {
    return this.ctx.service(MarkupService);
  }
  /** Activity feeds and heatmaps (Forgejo's actions). */
  get activity(): ActivityService {
    return this.ctx.service(ActivityService);
  }
  /** Follows, stars, watches and blocks (`/user/following`, `/user/starred`, `…/subscription`, `/user/block`). */
  get social(): SocialService {
    return this.ctx.service(SocialService);
  }
  /** A repository's branches: list, read, create, delete, rename, move. */
  get branches(): BranchesService {
    return this.ctx.service(BranchesService);
  }
  /** A repository's tags: list, read, create (lightweight or annotated), delete. */
  get tags(): TagsService {
    return this.ctx.service(TagsService);
  }

  /** Git data: blobs, trees, refs, annotated tags, raw files, `.editorconfig`. */
  get gitData(): GitDataService {
    return this.ctx.service(GitDataService);
  }

  /** Storage quotas: rules, groups, an account's usage, and the checks writes make (`[quota] ENABLED`). */
  get quota(): QuotaService {
    return this.ctx.service(QuotaService);
  }

  /** Webhooks of repositories, accounts and the site; their outbox and deliveries (`webhooks.delivery`). */
  get webhooks(): WebhooksService {
    return this.ctx.service(WebhooksService);
  }

  /** Two-factor authentication (TOTP): enrol, confirm, verify, disable. */
  get twoFactor(): TwoFactorService {
    return this.ctx.service(TwoFactorService);
  }

  /** External login sources (LDAP directories): what `repohost admin auth` manages; sign-ins consult them. */
  get loginSources(): LoginSourcesService {
    return this.ctx.service(LoginSourcesService);
  }

  /** OAuth2 applications users register (`/user/applications/oauth2`); the provider reads them by client id. */
  get oauth2(): OAuth2Service {
    return this.ctx.service(OAuth2Service);
  }
  /** The OAuth2 / OpenID Connect provider (`/login/oauth/*`): codes, tokens, ID tokens, userinfo, its sign-in sessions. */
  get oauth2Provider(): OAuth2ProviderService {
    return this.ctx.service(OAuth2ProviderService);
  }
  /** Issues and pull requests as issues: create, read, edit, delete, list and search (`/repos/{owner}/{repo}/issues`). */
  get issues(): IssuesService {
    return this.ctx.service(IssuesService);
  }
  /** Pull requests (`/repos/{owner}/{repo}/pulls`): their git side, kept in step with pushes. */
  get pulls(): PullsService {
    return this.ctx.service(PullsService);
  }
  /** Merging pull requests (`…/pulls/{index}/merge`), and marking them merged by hand. */
  get pullMerge(): PullMergeService {
    return this.ctx.service(PullMergeService);
  }
  /** Bringing a pull request's base into its head branch (`…/pulls/{index}/update`). */
  get pullUpdate(): PullUpdateService {
    return this.ctx.service(PullUpdateService);
  }
  /** Merges scheduled to run once the head's checks succeed (`merge_when_checks_succeed`, `DELETE …/merge`). */
  get pullAutoMerge(): PullAutoMergeService {
    return this.ctx.service(PullAutoMergeService);
  }
  /** Pull request reviews and review requests (`/repos/{owner}/{repo}/pulls/{index}/reviews…`). */
  get reviews(): ReviewsService {
    return this.ctx.service(ReviewsService);
  }
  /** Branch and tag protection (`/branch_protections`, `/tag_protections`) and its checks on pushes and merges. */
  get protection(): ProtectionService {
    return this.ctx.service(ProtectionService);
  }
  /** A repository's milestones (`/repos/{owner}/{repo}/milestones`). */
  /** Releases (`/repos/{owner}/{repo}/releases…`). */
  get releases(): ReleasesService {
    return this.ctx.service(ReleasesService);
  }
  /** Release assets (`/repos/{owner}/{repo}/releases/{id}/assets…`). */
  get releaseAssets(): ReleaseAssetsService {
    return this.ctx.service(ReleaseAssetsService);
  }
  get milestones(): MilestonesService {
    return this.ctx.service(MilestonesService);
  }
  /** Pinned issues (`/repos/{owner}/{repo}/issues/{index}/pin`, `/issues/pinned`). */
  get issuePins(): IssuePinsService {
    return this.ctx.service(IssuePinsService);
  }
  /** Issue templates and the issue config of the default branch (`/issue_templates`, `/issue_config`). */
  get issueTemplates(): IssueTemplatesService {
    return this.ctx.service(IssueTemplatesService);
  }
  /** Notification threads of accounts (`/notifications`), fed by issue and comment events. */
  get notifications(): NotificationsService {
    return this.ctx.service(NotificationsService);
  }
  /** Who follows an issue (`/repos/{owner}/{repo}/issues/{index}/subscriptions`). */
  get issueSubscriptions(): IssueSubscriptionsService {
    return this.ctx.service(IssueSubscriptionsService);
  }

  /** Comments on issues and the timeline (`/repos/{owner}/{repo}/issues/{index}/comments`, `…/timeline`). */
  get comments(): CommentsService {
    return this.ctx.service(CommentsService);
  }
  /** Reactions on issues and comments (`…/issues/{index}/reactions`, `…/issues/comments/{id}/reactions`). */
  get reactions(): ReactionsService {
    return this.ctx.service(ReactionsService);
  }
  /** Files attached to issues and comments: their downloads (`/attachments/{uuid}`), limits, quota and clean-up. */
  get attachments(): AttachmentsService {
    return this.ctx.service(AttachmentsService);
  }
  /** Files attached to an issue (`…/issues/{index}/assets`). */
  get issueAttachments(): IssueAttachmentsService {
    return this.ctx.service(IssueAttachmentsService);
  }
  /** Files attached to a comment (`…/issues/comments/{id}/assets`). */
  get commentAttachments(): CommentAttachmentsService {
    return this.ctx.service(CommentAttachmentsService);
  }
  /** Issue dependencies (`…/issues/{index}/dependencies`, `…/blocks`), across repositories the actor may see. */
  get issueDependencies(): IssueDependenciesService {
    return this.ctx.service(IssueDependenciesService);
  }
  /** Due dates of issues (`…/issues/{index}/deadline`). */
  get issueDeadlines(): IssueDeadlineService {
    return this.ctx.service(IssueDeadlineService);
  }
  /** Locking issue conversations (`…/issues/{index}/lock`). */
  get issueLocks(): IssueLockService {
    return this.ctx.service(IssueLockService);
  }
  /** Tracked times and stopwatches (`…/issues/{index}/times`, `…/stopwatch/*`, `/repos/{owner}/{repo}/times`, `/user/times`). */
  get times(): TimesService {
    return this.ctx.service(TimesService);
  }

  /** Durable background jobs (mirror syncs, migrations): queue, read, wait; the worker starts when the host serves. */
  get jobs(): JobsService {
    return this.ctx.service(JobsService);
  }

  /** Pull mirrors: their settings, syncs (`mirror-sync`, the `update_mirrors` task) and conversion to ordinary repositories. */
  get mirrors(): MirrorsService {
    return this.ctx.service(MirrorsService);
  }

  /** Migrations (`POST /repos/migrate`): from a git address, or a Gitea/Forgejo instance by its API. */
  get migrations(): MigrateService {
    return this.ctx.service(MigrateService);
  }

  /** A repository's push mirrors (`/repos/{owner}/{repo}/push_mirrors`) and their pushes. */
  get pushMirrors(): PushMirrorsService {
    return this.ctx.service(PushMirrorsService);
  }

  /** Secrets stored in the database: re-encrypting them when `[security] SECRET_KEY` is set or changed. */
  get secretsAtRest(): SecretsAtRestService {
    return this.ctx.service(SecretsAtRestService);
  }

  /** Recurring tasks (Forgejo's cron, `/admin/cron`): durable schedules; scheduling starts when the host serves. */
  get cron(): CronService {
    return this.ctx.service(CronService);
  }

  /**
   * What happened, after it committed: `host.events.on('repo.pushed', (e) => …)`. See {@link DomainEvents} for
   * subscribers that must run inside the change's own transaction.
   */
  get events(): DomainEvents<CoreTransaction> {
    return this.ctx.events;
  }

  /** Opens storage (migrating it unless told not to) and returns a ready host. */
  static async open(options: RepoHostOptions = {}): Promise<RepoHost> {
    const settings = options.settings ?? loadSettings(options.config);
    const storage = await openStorage(settings.database);
    try {
      const generatedSecretKeyFile = await settleSecretKey(settings, storage, options.noSecretKey ?? 'refuse');
      if (options.migrate !== false) await migrateStorage(storage);
      const git =
        options.git ??
        (settings.repository.BACKEND === 'memory'
          ? new MemoryGitBackend()
          : new NativeGitBackend({ root: settings.repository.ROOT, gitPath: settings.repohost.GIT_PATH }));
      const host = new RepoHost(settings, storage, git);
      host.generatedSecretKeyFile = generatedSecretKeyFile;
      // Storage settings that resolve, and every object storage bucket reachable (made when missing).
      await host.ctx.service(BlobsService).prepare();
      // Without migrations the schema may predate the intents table: reconcile only when asked then.
      if (options.reconcile ?? options.migrate !== false) {
        host.reconciled = await host.repoStorage.reconcile();
        // Blobs an interrupted upload or deletion left without a row.
        await host.attachments.reconcile();
      }
      return host;
    } catch (error) {
      await storage.close();
      throw error;
    }
  }

  /**
   * A whole forge in memory, for test suites: SQLite `:memory:` and the isomorphic-git backend, no files and no `git`
   * binary. What that backend cannot do fails with `NotSupportedError` (`git/unsupported.ts`). Close it to free it.
   */
  static inMemory(options: InMemoryHostOptions = {}): Promise<RepoHost> {
    const overrides = options.overrides ?? {};
    const settings = loadSettings({
      // A work path that is never created unless something outside git and the database writes files (avatars,
      // attachments): nothing lands in the embedder's folder.
      workPath: path.join(tmpdir(), `repohost-in-memory-${randomBytes(6).toString('hex')}`),
      overrides: {
        ...overrides,
        database: { ...overrides.database, DB_TYPE: 'sqlite3', PATH: ':memory:' },
        repository: { ...overrides.repository, BACKEND: 'memory' },
      },
    });
    // A fresh database and storage: there is nothing interrupted to repair. Nothing persists, so neither does the key.
    return RepoHost.open({ settings, reconcile: false, noSecretKey: 'ephemeral' });
  }

  /** Runs pending migrations; returns the names applied. */
  migrate(): Promise<string[]> {
    return migrateStorage(this.storage);
  }

  /** The database dialect in use. */
  get dialect(): DialectName {
    return this.storage.dialect;
  }

  /** Waits for event handlers still running, then closes the database. The host must not be used afterwards. */
  async close(): Promise<void> {
    // A second close (a test harness after a simulated restart) waits for the first instead of closing twice.
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private closing: Promise<void> | undefined;

  private async closeOnce(): Promise<void> {
    // Running jobs are aborted and given back if they do not return promptly; the next start resumes them.
    // Recurring tasks stop too: their schedules are rows, kept for the next start.
    await Promise.all([this.jobs.stop(), this.cron.stop()]);
    await this.ctx.events.idle();
    // Deliveries in flight finish (within DELIVER_TIMEOUT); what is still queued waits for the next start.
    await this.webhooks.delivery.stop();
    await this.markup.close();
    await this.ctx.service(RunsService).close();
    await this.ctx.service(PackageWorkers).close();
    this.protection.closeEndpoint();
    // The backend's long-lived git processes (object readers) end with the host.
    this.git.close();
    await this.ctx.service(BlobsService).close();
    await this.storage.close();
  }
}

/**
 * Makes sure `settings` has a SECRET_KEY before anything is served (see {@link RepoHostOptions.noSecretKey}); runs
 * before migrating, so that a new installation can be told from an existing one. Returns the key file it created.
 */
async function settleSecretKey(settings: Settings, storage: Storage, whenNone: NoSecretKey): Promise<string | undefined> {
  if (settings.security.SECRET_KEY !== '') return undefined;
  const file = secretKeyFile(settings);
  switch (whenNone) {
    case 'ephemeral':
      settings.security.SECRET_KEY = generateSecretKey();
      return undefined;
    case 'allow-empty':
      console.warn('[repohost] warning: [security] SECRET_KEY is empty: secrets stored in the database (TOTP secrets, credentials, webhook headers) are readable by anyone with a copy of it');
      return undefined;
    case 'generate':
      // An installation that ran without a key has secrets under the empty one: a new key would lose them.
      if (await hasMigrated(storage.db)) {
        throw new ConfigError(
          `[security] SECRET_KEY is empty on an existing installation, whose stored secrets are encrypted under the empty key: run \`repohost admin regenerate secrets\` (it generates ${file} and re-encrypts them), or set SECRET_KEY or SECRET_KEY_URI = file:… and run it then`,
        );
      }
      return createSecretKeyFile(settings);
    case 'refuse':
      throw new ConfigError(
        `[security] SECRET_KEY is empty: set it or SECRET_KEY_URI = file:…; \`repohost web\` generates ${file} on a new installation (RepoHost.open: the noSecretKey option)`,
      );
  }
}
