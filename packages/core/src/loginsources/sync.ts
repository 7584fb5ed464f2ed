/**
 * Periodic synchronization of directory accounts (Forgejo's `sync_external_users`): for each active login
 * source with synchronization on, every account the directory lists gets an account here (created on first
 * sight; with UPDATE_EXISTING, its name, address and admin and restricted flags brought in line and reactivated),
 * and with UPDATE_EXISTING the source's accounts the directory no longer lists are deactivated, unless the
 * directory listed nobody and the source does not allow deactivating everyone.
 */
import type { CoreContext } from '../context.js';
import { BadRequestError, ValidationError } from '../errors.js';
import { SYSTEM } from '../users/index.js';
import { decryptSecret } from '../security/index.js';
import { UsersService } from '../users/index.js';
import { UserAdminService } from '../users/index.js';
import type { EditUserOption } from '../users/index.js';
import type { User } from '../users/index.js';
import { DirectoryUnavailableError } from './ldap.js';
import { listDirectory, type DirectoryListing } from './ldap-sync.js';
import { BIND_PASSWORD_PURPOSE, kindOf, parseConfig } from './service.js';
import { LoginSourcesStore } from './store.js';
import { SourceAccountsStore } from './sync-store.js';
import type { LoginSourceRow } from './tables.js';

export interface SourceSyncResult {
  source: string;
  created: number;
  updated: number;
  deactivated: number;
  /** Accounts that could not be created or changed (a name or address taken by another account), and why. */
  failures: string[];
  /** Set when the source was skipped as a whole (directory unreachable, or it listed nobody). */
  skipped?: string;
}

/** Forgejo's composeFullName: first name and surname, either alone, else the username. */
function fullNameOf(entry: DirectoryListing): string {
  const name = [entry.firstName, entry.surname].filter((part) => part !== '').join(' ') || entry.username;
  return [...name].slice(0, 100).join('');
}

export class LoginSourceSyncService {
  constructor(private readonly ctx: CoreContext) {}

  /** Synchronizes every active source with synchronization on, one after the other. */
  async syncAll(signal: AbortSignal, updateExisting: boolean): Promise<SourceSyncResult[]> {
    const sources = (await this.ctx.store(LoginSourcesStore).list({ activeOnly: true })).filter((source) => source.is_sync_enabled === 1 && kindOf(source.type));
    const results: SourceSyncResult[] = [];
    for (const source of sources) {
      if (signal.aborted) break;
      results.push(await this.syncSource(source, signal, updateExisting));
    }
    return results;
  }

  private async syncSource(source: LoginSourceRow, signal: AbortSignal, updateExisting: boolean): Promise<SourceSyncResult> {
    const result: SourceSyncResult = { source: source.name, created: 0, updated: 0, deactivated: 0, failures: [] };
    const config = parseConfig(source);
    const bindPassword = decryptSecret(this.ctx.settings.security.SECRET_KEY, BIND_PASSWORD_PURPOSE, config.BindPasswordEncrypted) ?? '';
    let listing: DirectoryListing[];
    try {
      listing = await listDirectory(config, bindPassword, signal);
    } catch (error) {
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('cancelled');
      if (!(error instanceof DirectoryUnavailableError)) throw error;
      result.skipped = error.message;
      return result;
    }
    if (listing.length === 0 && !config.AllowDeactivateAll) {
      result.skipped = 'the directory listed no accounts; refusing to deactivate them all';
      return result;
    }
    const accounts = await this.ctx.store(SourceAccountsStore).accountsOf(source.id);
    const byName = new Map(accounts.map((user) => [user.lower_name, user]));
    const byEmail = new Map(accounts.map((user) => [user.email.toLowerCase(), user]));
    const listed = new Set<number>();
    const users = this.ctx.service(UsersService);
    const admin = this.ctx.service(UserAdminService);

    for (const entry of listing) {
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('cancelled');
      if (entry.username === '' && entry.email === '') continue;
      let user: User | undefined = entry.username ? byName.get(entry.username.toLowerCase()) : undefined;
      if (!user && entry.email) user = byEmail.get(entry.email.toLowerCase());
      if (user) listed.add(user.id);
      // Without a username there is nothing to name a new account by.
      else if (entry.username === '') continue;
      const email = entry.email || `${entry.username}@localhost.local`;
      const fullName = fullNameOf(entry);
      if (!user) {
        try {
          await users.create(SYSTEM, {
            username: entry.username,
            email,
            full_name: fullName,
            source_id: source.id,
            login_name: entry.username,
            must_change_password: false,
            admin: entry.isAdmin ?? false,
            restricted: entry.isRestricted ?? false,
          });
          result.created++;
        } catch (error) {
          if (!(error instanceof ValidationError || error instanceof BadRequestError)) throw error;
          result.failures.push(`${entry.username}: ${error.message}`);
        }
        continue;
      }
      if (!updateExisting) continue;
      const changes: EditUserOption = {};
      if (user.full_name !== fullName) changes.full_name = fullName;
      if (user.email.toLowerCase() !== email.toLowerCase()) changes.email = email;
      if (user.is_active !== 1) changes.active = true;
      // The flags follow the directory only where the source has a filter for them.
      const isAdmin = entry.isAdmin ?? user.is_admin === 1;
      if (entry.isAdmin !== undefined && (user.is_admin === 1) !== entry.isAdmin) changes.admin = entry.isAdmin;
      if (!isAdmin && entry.isRestricted !== undefined && (user.is_restricted === 1) !== entry.isRestricted) changes.restricted = entry.isRestricted;
      if (Object.keys(changes).length === 0) continue;
      try {
        await admin.edit(SYSTEM, user, changes);
        result.updated++;
      } catch (error) {
        if (!(error instanceof ValidationError || error instanceof BadRequestError)) throw error;
        result.failures.push(`${user.name}: ${error.message}`);
      }
    }

    if (updateExisting) {
      for (const user of accounts) {
        if (listed.has(user.id) || user.is_active !== 1) continue;
        if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('cancelled');
        try {
          await admin.edit(SYSTEM, user, { active: false });
          result.deactivated++;
        } catch (error) {
          // The last working site administrator stays active.
          if (!(error instanceof ValidationError || error instanceof BadRequestError)) throw error;
          result.failures.push(`${user.name}: ${error.message}`);
        }
      }
    }
    return result;
  }
}
