import './admin-events.js';
import { BadRequestError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { isHttpUrl } from '../urls.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { isSiteAdmin, type Actor } from './actor.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { hashPassword } from './password.js';
import { isAcceptableEmail } from './emails.js';
import { CreateUserOptionSchema, type CreateUserOption } from './schemas.js';
import { EditUserOptionSchema, type AdminUserSearch, type EditUserOption } from './admin-schemas.js';
import { UserAdminStore, type UserAdminPatch } from './admin-store.js';
import { UsersService } from './service.js';
import { UsersStore } from './store.js';
import './directory.js';
import { visibilityValue, type User } from './tables.js';

/** Can this account act as a site administrator now? */
function isWorkingAdmin(user: Pick<User, 'is_admin' | 'is_active' | 'prohibit_login'>): boolean {
  return user.is_admin === 1 && user.is_active === 1 && user.prohibit_login === 0;
}

/**
 * Site administration of accounts (`/admin/users…` and `repohost admin user`): create, list and edit, as Forgejo
 * does them. Site administrators and the system only. Renaming and deleting reach repositories and their storage:
 * `AccountLifecycleService` (`accounts/`) does them.
 */
export class UserAdminService {
  constructor(private readonly ctx: CoreContext) {}

  private get users(): UsersService {
    return this.ctx.service(UsersService);
  }

  private assertAdmin(actor: Actor): void {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('reqSiteAdmin');
  }

  /** `source_id` must be 0 (local) or name an existing login source (422 otherwise, as Forgejo). */
  private async assertLoginSource(id: number): Promise<void> {
    if (id !== 0 && !(await this.ctx.provider('users.directory').exists(id))) throw new ValidationError('', `login source does not exist [id: ${id}]`);
  }

  private assertPasswordLength(password: string, message: string): void {
    if ([...password].length < this.ctx.settings.security.MIN_PASSWORD_LENGTH) throw new BadRequestError(message);
  }

  /**
   * Creates an account as `POST /admin/users` does: `must_change_password` defaults to true, a local account
   * needs a password of the minimum length (400 otherwise, as Forgejo), a `source_id` must name a login source.
   * `options.admin` makes a site administrator (the CLI's `--admin`; the API option has no such field).
   */
  async create(actor: Actor, input: CreateUserOption, options: { admin?: boolean } = {}): Promise<User> {
    this.assertAdmin(actor);
    const opts = acceptInput(CreateUserOptionSchema, input);
    const sourceId = opts.source_id ?? 0;
    await this.assertLoginSource(sourceId);
    // An account of a login source signs in through its directory: it needs no password here.
    if (sourceId === 0) this.assertPasswordLength(opts.password ?? '', 'PasswordIsRequired');
    return this.users.create(actor, {
      ...opts,
      // A directory account has no password here to change: the default applies to local accounts only.
      must_change_password: opts.must_change_password ?? sourceId === 0,
      admin: options.admin ?? false,
    });
  }

  /** A page of individual accounts (`GET /admin/users`), alphabetically unless `sort` names another order. */
  async search(actor: Actor, search: AdminUserSearch, paging?: Paging): Promise<Page<User>> {
    this.assertAdmin(actor);
    return this.ctx.store(UserAdminStore).search(search, clampPage(this.ctx.settings, paging));
  }

  /** The administration settings of an account (what `EditUserOption` sets beyond the `User` record). */
  async limitsOf(actor: Actor, user: User): Promise<{ maxRepoCreation: number; allowCreateOrganization: boolean }> {
    this.assertAdmin(actor);
    const row = await this.ctx.store(UserAdminStore).limitsOf(user.id);
    return { maxRepoCreation: row.max_repo_creation, allowCreateOrganization: row.allow_create_organization === 1 };
  }

  /**
   * `PATCH /admin/users/{username}`: changes what is given, in one transaction. `source_id` and `login_name` go
   * together; an empty `password` changes nothing; a new `email` becomes the primary address. The last working
   * site administrator (active, allowed to sign in) can never be demoted, deactivated or barred from signing in.
   */
  async edit(actor: Actor, user: User, input: EditUserOption): Promise<User> {
    this.assertAdmin(actor);
    const opts = acceptInput(EditUserOptionSchema, input);
    if ((opts.source_id === undefined) !== (opts.login_name === undefined)) {
      throw new ValidationError('', 'source_id and login_name must be specified together');
    }
    const patch: UserAdminPatch = {};
    if (opts.source_id !== undefined) {
      await this.assertLoginSource(opts.source_id);
      patch.login_source = opts.source_id;
      patch.login_name = opts.login_name;
    }
    const sourceId = opts.source_id ?? user.login_source;
    if (sourceId !== 0) {
      // A directory account's password is the directory's: none is kept here (one left from a local past goes).
      if (opts.password || opts.source_id !== undefined) patch.passwd = '';
    } else if (opts.password) {
      const min = this.ctx.settings.security.MIN_PASSWORD_LENGTH;
      this.assertPasswordLength(opts.password, `password must be at least ${min} characters`);
      patch.passwd = await hashPassword(opts.password);
    }
    if (opts.website) {
      if (!isHttpUrl(opts.website)) throw new ValidationError('website', 'Url');
    }
    const email = opts.email;
    if (email !== undefined && !isAcceptableEmail(email)) throw new BadRequestError(`e-mail invalid [email: ${email}]`);
    const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
    const fields: UserAdminPatch = {
      must_change_password: flag(opts.must_change_password),
      prohibit_login: flag(opts.prohibit_login),
      full_name: opts.full_name,
      website: opts.website,
      location: opts.location,
      description: opts.description,
      pronouns: opts.pronouns,
      is_active: flag(opts.active),
      is_admin: flag(opts.admin),
      is_restricted: flag(opts.restricted),
      keep_email_private: flag(opts.hide_email),
      visibility: opts.visibility === undefined ? undefined : visibilityValue(opts.visibility),
      max_repo_creation: opts.max_repo_creation,
      allow_create_organization: flag(opts.allow_create_organization),
      allow_git_hook: flag(opts.allow_git_hook),
    };
    for (const [name, value] of Object.entries(fields)) if (value !== undefined) Object.assign(patch, { [name]: value });

    return this.ctx.transaction(async (tx) => {
      const admins = tx.store(UserAdminStore);
      const store = tx.store(UsersStore);
      // Locks the administrators' rows (PostgreSQL) before reading this one, so the check below sees the latest.
      const working = await admins.workingAdminIds();
      const previous = await store.findById(user.id);
      if (!previous) throw new NotFoundError(`user redirect does not exist [name: ${user.name}]`);
      if (isWorkingAdmin(previous) && !isWorkingAdmin({ ...previous, ...(patch as Partial<User>) }) && !working.some((id) => id !== previous.id)) {
        throw new BadRequestError(`can not delete the last admin user [uid: ${previous.id}]`);
      }
      if (email !== undefined && email !== previous.email) {
        const lower = email.toLowerCase();
        let address = await store.findEmail(lower);
        if (address && address.uid !== previous.id) throw new BadRequestError(`e-mail already in use [email: ${email}]`);
        if (!address && (await store.findByEmail(email)) !== undefined) throw new BadRequestError(`e-mail already in use [email: ${email}]`);
        try {
          address ??= await store.insertEmail({ uid: previous.id, email, lower_email: lower, is_activated: 1, is_primary: 0 });
        } catch (error) {
          if (isUniqueViolation(error)) throw new BadRequestError(`e-mail already in use [email: ${email}]`);
          throw error;
        }
        await store.setPrimaryEmail(previous.id, address.id, email);
      }
      patch.updated_unix = nowUnix();
      const updated = await admins.update(previous.id, patch);
      if (!updated) throw new NotFoundError(`user redirect does not exist [name: ${user.name}]`);
      tx.emit('user.edited', { user: updated, previous, actor });
      return updated;
    });
  }

  /**
   * Sets (or with `value` false, clears) "must change password" on the named accounts, or on every individual
   * account with `all`, except those in `exclude` (names, case-insensitive). Returns how many accounts matched.
   */
  async setMustChangePassword(actor: Actor, target: { all?: boolean; usernames?: string[]; exclude?: string[] }, value: boolean): Promise<number> {
    this.assertAdmin(actor);
    const include = (target.usernames ?? []).map((n) => n.toLowerCase());
    if (!target.all && include.length === 0) throw new ValidationError('', 'either usernames or all must be given');
    const exclude = (target.exclude ?? []).map((n) => n.toLowerCase());
    return this.ctx.store(UserAdminStore).setMustChangePassword({ all: target.all ?? false, include, exclude }, value);
  }
}
