import type { CoreContext, CoreTransaction } from '../context.js';
import { isSiteAdmin, type Actor } from '../users/index.js';
import { ConflictError, ForbiddenError, NotFoundError, UnavailableError, ValidationError } from '../errors.js';
import { countRekey, decryptSecret, emptyRekeyCounts, encryptSecret, rekeySecret, type RekeyCounts, type SecretRekey } from '../security/index.js';
import { isStorableText, isUniqueViolation, nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { UsersPort } from '../users/index.js';
import type { DirectoryAuth, DirectorySignIn as AccountSignIn } from '../users/index.js';
import { DirectoryUnavailableError, SECURITY_PROTOCOLS, authenticateEntry, isValidFilter, type DirectoryEntry, type LdapConfig } from './ldap.js';
import { LdapSourceOptionSchema, type LdapSourceOption } from './schemas.js';
import { LoginSourcesStore } from './store.js';
import { LoginSourceType, type LoginSourceRow } from './tables.js';

/** The two LDAP flavours: search through a bind DN (Forgejo's LDAP), or bind with a DN template (DLDAP). */
export type LdapKind = 'bind_dn' | 'simple';

/** Forgejo's names of the types (`auth.Type.String()`), as `admin auth list` prints them. */
const TYPE_NAMES = new Map<number, string>([
  [LoginSourceType.LDAP, 'LDAP (via BindDN)'],
  [LoginSourceType.DLDAP, 'LDAP (simple auth)'],
]);

export const BIND_PASSWORD_PURPOSE = 'login source bind password';
/** How long a client is told to wait when the directory cannot be asked. */
const DIRECTORY_RETRY_SECONDS = 30;

/** A login source as the service hands it out; the bind password never leaves, only whether there is one. */
export interface LoginSource {
  id: number;
  /** `LoginSourceType`. */
  type: number;
  /** `LDAP (via BindDN)` or `LDAP (simple auth)`. */
  typeName: string;
  name: string;
  isActive: boolean;
  isSyncEnabled: boolean;
  config: Omit<LdapConfig, 'BindPasswordEncrypted'> & { hasBindPassword: boolean };
  createdUnix: number;
  updatedUnix: number;
}

/** A directory's answer for a sign-in: the source that answered and what it holds of the account. */
export type DirectorySignIn = AccountSignIn<LoginSourceRow, DirectoryEntry>;

export function kindOf(type: number): LdapKind | undefined {
  return type === LoginSourceType.LDAP ? 'bind_dn' : type === LoginSourceType.DLDAP ? 'simple' : undefined;
}

function typeOf(kind: LdapKind): number {
  return kind === 'bind_dn' ? LoginSourceType.LDAP : LoginSourceType.DLDAP;
}

function emptyConfig(): LdapConfig {
  return {
    Name: '',
    Host: '',
    Port: 0,
    SecurityProtocol: 0,
    SkipVerify: false,
    BindDN: '',
    BindPasswordEncrypted: '',
    UserBase: '',
    UserDN: '',
    AttributeUsername: '',
    AttributeName: '',
    AttributeSurname: '',
    AttributeMail: '',
    AttributesInBind: false,
    AttributeSSHPublicKey: '',
    AttributeAvatar: '',
    SearchPageSize: 0,
    Filter: '',
    AdminFilter: '',
    RestrictedFilter: '',
    AllowDeactivateAll: false,
    SkipLocalTwoFA: false,
    Enabled: true,
  };
}

/** The stored settings over the defaults, so a row written before a field existed still reads whole. */
export function parseConfig(row: LoginSourceRow): LdapConfig {
  let stored: unknown;
  try {
    stored = JSON.parse(row.cfg);
  } catch {
    stored = {};
  }
  return { ...emptyConfig(), ...(stored && typeof stored === 'object' ? (stored as Partial<LdapConfig>) : {}) };
}

/**
 * External login sources (Forgejo's authentication sources): site administrators configure LDAP directories
 * (`repohost admin auth …`), and sign-ins of accounts bound to one are checked by the directory instead of a local
 * password (`UsersService.authenticate` asks `verify` and `discover`, through the `users.directory` provider).
 */
export class LoginSourcesService implements DirectoryAuth {
  private readonly store: LoginSourcesStore;

  constructor(private readonly ctx: CoreContext) {
    this.store = ctx.store(LoginSourcesStore);
  }

  /** Moves the sources' stored bind passwords to a new key, inside the caller's transaction (sources are few: one read). */
  async reencryptSecrets(tx: CoreTransaction, rekey: SecretRekey): Promise<RekeyCounts> {
    const store = tx.store(LoginSourcesStore);
    const counts = emptyRekeyCounts();
    for (const row of await store.list()) {
      const config = parseConfig(row);
      if (config.BindPasswordEncrypted === '') continue;
      const stored = countRekey(counts, rekeySecret(rekey, BIND_PASSWORD_PURPOSE, config.BindPasswordEncrypted), `bind password of login source ${row.id} (${row.name})`);
      if (stored !== undefined) await store.update(row.id, { cfg: JSON.stringify({ ...config, BindPasswordEncrypted: stored }) });
    }
    return counts;
  }

  private assertAdmin(actor: Actor): void {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('only site administrators may manage login sources');
  }

  private view(row: LoginSourceRow): LoginSource {
    const { BindPasswordEncrypted, ...config } = parseConfig(row);
    return {
      id: row.id,
      type: row.type,
      typeName: TYPE_NAMES.get(row.type) ?? `unknown (${row.type})`,
      name: row.name,
      isActive: row.is_active === 1,
      isSyncEnabled: row.is_sync_enabled === 1,
      config: { ...config, hasBindPassword: BindPasswordEncrypted !== '' },
      createdUnix: row.created_unix,
      updatedUnix: row.updated_unix,
    };
  }

  /** Every login source, by id. */
  async list(actor: Actor): Promise<LoginSource[]> {
    this.assertAdmin(actor);
    return (await this.store.list()).map((row) => this.view(row));
  }

  /** The source with this id; NotFound with Forgejo's message otherwise. */
  async get(actor: Actor, id: number): Promise<LoginSource> {
    this.assertAdmin(actor);
    return this.view(await this.load(id));
  }

  /** Does a source with this id exist (what `source_id` on the admin user options must name)? */
  async exists(id: number): Promise<boolean> {
    return Number.isSafeInteger(id) && id > 0 && (await this.store.byId(id)) !== undefined;
  }

  private async load(id: number): Promise<LoginSourceRow> {
    const row = Number.isSafeInteger(id) && id > 0 ? await this.store.byId(id) : undefined;
    if (!row) throw new NotFoundError(`login source does not exist [id: ${id}]`);
    return row;
  }

  /** Adds an LDAP source; active unless `active: false`. */
  async createLdap(actor: Actor, kind: LdapKind, input: LdapSourceOption): Promise<LoginSource> {
    this.assertAdmin(actor);
    const opts = acceptInput(LdapSourceOptionSchema, input);
    const config = this.applyOptions(emptyConfig(), opts);
    await this.assertConfig(kind, config);
    const now = nowUnix();
    try {
      const row = await this.store.insert({
        type: typeOf(kind),
        name: config.Name,
        is_active: opts.active === false ? 0 : 1,
        is_sync_enabled: opts.synchronize_users ? 1 : 0,
        cfg: JSON.stringify(config),
        created_unix: now,
        updated_unix: now,
      });
      return this.view(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`login source already exists [name: ${config.Name}]`);
      throw error;
    }
  }

  /** Changes what `input` gives of an LDAP source of this kind (another kind is refused, as Gitea's CLI does). */
  async updateLdap(actor: Actor, id: number, kind: LdapKind, input: LdapSourceOption): Promise<LoginSource> {
    this.assertAdmin(actor);
    const opts = acceptInput(LdapSourceOptionSchema, input);
    const row = await this.load(id);
    if (kindOf(row.type) !== kind) {
      throw new ValidationError('', `Invalid authentication type. expected: ${TYPE_NAMES.get(typeOf(kind))}, actual: ${TYPE_NAMES.get(row.type) ?? row.type}`);
    }
    const config = this.applyOptions(parseConfig(row), opts);
    await this.assertConfig(kind, config);
    try {
      const updated = await this.store.update(row.id, {
        name: config.Name,
        is_active: opts.active === undefined ? row.is_active : opts.active ? 1 : 0,
        is_sync_enabled: opts.synchronize_users === undefined ? row.is_sync_enabled : opts.synchronize_users ? 1 : 0,
        cfg: JSON.stringify(config),
        updated_unix: nowUnix(),
      });
      if (!updated) throw new NotFoundError(`login source does not exist [id: ${id}]`);
      return this.view(updated);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`login source already exists [name: ${config.Name}]`);
      throw error;
    }
  }

  /** Deletes a source no account uses any more (Forgejo refuses while any does). */
  async delete(actor: Actor, id: number): Promise<void> {
    this.assertAdmin(actor);
    await this.load(id);
    await this.ctx.transaction(async (tx) => {
      if (await tx.port(UsersPort).anyUsesLoginSource(id)) throw new ConflictError(`login source is still used by some users [id: ${id}]`);
      if (!(await tx.store(LoginSourcesStore).delete(id))) throw new NotFoundError(`login source does not exist [id: ${id}]`);
    });
  }

  private applyOptions(config: LdapConfig, opts: LdapSourceOption): LdapConfig {
    const next = { ...config };
    if (opts.name !== undefined) next.Name = opts.name.trim();
    if (opts.host !== undefined) next.Host = opts.host.trim();
    if (opts.port !== undefined) next.Port = opts.port;
    if (opts.security_protocol !== undefined) {
      const index = SECURITY_PROTOCOLS.findIndex((name) => name.toLowerCase() === opts.security_protocol!.toLowerCase());
      if (index < 0) throw new ValidationError('security_protocol', `Unknown security protocol name: ${opts.security_protocol}`);
      next.SecurityProtocol = index;
    }
    if (opts.skip_tls_verify !== undefined) next.SkipVerify = opts.skip_tls_verify;
    if (opts.bind_dn !== undefined) next.BindDN = opts.bind_dn;
    if (opts.bind_password !== undefined) next.BindPasswordEncrypted = encryptSecret(this.ctx.settings.security.SECRET_KEY, BIND_PASSWORD_PURPOSE, opts.bind_password);
    if (opts.user_search_base !== undefined) next.UserBase = opts.user_search_base;
    if (opts.user_dn !== undefined) next.UserDN = opts.user_dn;
    if (opts.username_attribute !== undefined) next.AttributeUsername = opts.username_attribute;
    if (opts.firstname_attribute !== undefined) next.AttributeName = opts.firstname_attribute;
    if (opts.surname_attribute !== undefined) next.AttributeSurname = opts.surname_attribute;
    if (opts.email_attribute !== undefined) next.AttributeMail = opts.email_attribute;
    if (opts.attributes_in_bind !== undefined) next.AttributesInBind = opts.attributes_in_bind;
    if (opts.public_ssh_key_attribute !== undefined) next.AttributeSSHPublicKey = opts.public_ssh_key_attribute;
    if (opts.avatar_attribute !== undefined) next.AttributeAvatar = opts.avatar_attribute;
    if (opts.page_size !== undefined) next.SearchPageSize = opts.page_size;
    if (opts.user_filter !== undefined) next.Filter = opts.user_filter;
    if (opts.admin_filter !== undefined) next.AdminFilter = opts.admin_filter;
    if (opts.restricted_filter !== undefined) next.RestrictedFilter = opts.restricted_filter;
    if (opts.allow_deactivate_all !== undefined) next.AllowDeactivateAll = opts.allow_deactivate_all;
    if (opts.skip_local_2fa !== undefined) next.SkipLocalTwoFA = opts.skip_local_2fa;
    return next;
  }

  /** A source that could never sign anyone in is refused when it is saved, not at the first sign-in. */
  private async assertConfig(kind: LdapKind, config: LdapConfig): Promise<void> {
    if (config.Name === '') throw new ValidationError('name', 'is required');
    if (!isStorableText(config.Name)) throw new ValidationError('name', 'contains characters that cannot be stored');
    if (config.Host === '' || /[\s/]/.test(config.Host)) throw new ValidationError('host', 'is not a host name or address');
    if (!Number.isInteger(config.Port) || config.Port < 1 || config.Port > 65535) throw new ValidationError('port', 'must be between 1 and 65535');
    if (config.Filter === '') throw new ValidationError('user_filter', 'is required');
    for (const [field, filter] of [['user_filter', config.Filter], ['admin_filter', config.AdminFilter], ['restricted_filter', config.RestrictedFilter]] as const) {
      if (filter !== '' && !(await isValidFilter(filter))) throw new ValidationError(field, `is not a valid LDAP filter: ${filter}`);
    }
    if (config.AttributeMail === '') throw new ValidationError('email_attribute', 'is required');
    if (kind === 'bind_dn' && config.UserBase === '') throw new ValidationError('user_search_base', 'is required');
    if (kind === 'simple' && !config.UserDN.includes('%s')) throw new ValidationError('user_dn', 'must contain %s where the login name goes');
    for (const value of Object.values(config)) {
      if (typeof value === 'string' && !isStorableText(value)) throw new ValidationError('', 'a setting contains characters that cannot be stored');
    }
  }

  /**
   * Checks the password of an account bound to source `sourceId` under its login name: the directory's answer
   * (`entry` null when it refuses), or null when there is no directory to ask (the source is gone, inactive, or
   * not a directory). Throws UnavailableError when the directory cannot be asked.
   */
  async verify(sourceId: number, loginName: string, password: string): Promise<{ source: LoginSourceRow; entry: DirectoryEntry | null } | null> {
    const source = await this.store.byId(sourceId);
    if (!source || source.is_active !== 1 || !kindOf(source.type)) return null;
    return { source, entry: await this.ask(source, loginName, password) };
  }

  /**
   * A sign-in by a name no account has: the active directories are asked in order (Forgejo's auto-registration),
   * and the first that knows the name and accepts the password answers. Null when none does; UnavailableError
   * when none does and one of them could not be asked.
   */
  async discover(login: string, password: string): Promise<DirectorySignIn | null> {
    let unreachable: UnavailableError | undefined;
    for (const source of await this.store.list({ activeOnly: true })) {
      try {
        const entry = await this.ask(source, login, password);
        if (entry) return { source, entry };
      } catch (error) {
        if (!(error instanceof UnavailableError)) throw error;
        unreachable ??= error;
      }
    }
    if (unreachable) throw unreachable;
    return null;
  }

  private async ask(source: LoginSourceRow, login: string, password: string): Promise<DirectoryEntry | null> {
    const kind = kindOf(source.type);
    if (!kind) return null;
    const config = parseConfig(source);
    // A bind password that no longer decrypts (SECRET_KEY changed) searches anonymously, and likely fails.
    const bindPassword = decryptSecret(this.ctx.settings.security.SECRET_KEY, BIND_PASSWORD_PURPOSE, config.BindPasswordEncrypted) ?? '';
    try {
      return await authenticateEntry(config, bindPassword, login, password, kind === 'simple');
    } catch (error) {
      if (error instanceof DirectoryUnavailableError) throw new UnavailableError(error.message, DIRECTORY_RETRY_SECONDS);
      throw error;
    }
  }
}
