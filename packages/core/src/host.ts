import { loadSettings, type LoadSettingsOptions, type Settings } from './config/settings.js';
import { openStorage, type Storage } from './storage/database.js';
import { migrateToLatest } from './storage/migrations.js';
import type { GitBackend } from './git/backend.js';
import { NativeGitBackend } from './git/native.js';
import type { CoreContext } from './context.js';
import { UsersService } from './users/service.js';
import { TokensService } from './tokens/service.js';
import { ReposService } from './repos/service.js';
import { GitTransferService } from './repos/transfer.js';
import { PublicSettingsService } from './settings/service.js';

export interface RepoHostOptions {
  /** Resolved settings; when absent they are loaded from `config`. */
  settings?: Settings;
  /** How to load settings (app.ini, environment, overrides) when `settings` is absent. */
  config?: LoadSettingsOptions;
  /** Git storage; defaults to bare repositories under `[repository] ROOT` driven by the `git` binary. */
  git?: GitBackend;
  /** Run pending database migrations on open (default true). */
  migrate?: boolean;
}

/**
 * A forge: every operation is a typed async method on one of its services. Instances share nothing, so a
 * process may hold several (tests do).
 */
export class RepoHost {
  readonly users: UsersService;
  readonly tokens: TokensService;
  readonly repos: ReposService;
  /** Clone, fetch and push over any byte stream. */
  readonly transfer: GitTransferService;
  /** `/version` and `/settings/*`. */
  readonly publicSettings: PublicSettingsService;

  private constructor(
    readonly settings: Settings,
    private readonly storage: Storage,
    readonly git: GitBackend,
  ) {
    const ctx: CoreContext = { db: storage.db, dialect: storage.dialect, directRead: storage.directRead, settings, git };
    this.users = new UsersService(ctx);
    this.tokens = new TokensService(ctx, this.users);
    this.repos = new ReposService(ctx, this.users);
    this.transfer = new GitTransferService(ctx, this.repos);
    this.publicSettings = new PublicSettingsService(settings);
  }

  /** Opens storage (migrating it unless told not to) and returns a ready host. */
  static async open(options: RepoHostOptions = {}): Promise<RepoHost> {
    const settings = options.settings ?? loadSettings(options.config);
    const storage = await openStorage(settings.database);
    try {
      if (options.migrate !== false) await migrateToLatest(storage.db, storage.dialect);
      const git =
        options.git ?? new NativeGitBackend({ root: settings.repository.ROOT, gitPath: settings.repohost.GIT_PATH });
      return new RepoHost(settings, storage, git);
    } catch (error) {
      await storage.close();
      throw error;
    }
  }

  /** Runs pending migrations; returns the names applied. */
  migrate(): Promise<string[]> {
    return migrateToLatest(this.storage.db, this.storage.dialect);
  }

  /** The database dialect in use. */
  get dialect(): Storage['dialect'] {
    return this.storage.dialect;
  }

  /** Closes the database. The host must not be used afterwards. */
  close(): Promise<void> {
    return this.storage.close();
  }
}
