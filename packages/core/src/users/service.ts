import './events.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { CoreContext } from '../context.js';
import { clampPage, type Page, type Paging } from '../paging.js';
import { SYSTEM, isSelf, isSiteAdmin, type Actor } from './actor.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { acceptInput } from '../validation/index.js';
import { SecurityService } from '../security/index.js';
import type { DirectoryAuth, DirectorySignIn } from './directory.js';
import { assertSiteUrl, assertValidEmail, assertValidUsername } from './names.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.js';
import {
  CreateUserOptionSchema,
  UserSearchQuerySchema,
  UserSettingsOptionsSchema,
  type CreateUserOption,
  type UserSearchQuery,
  type UserSettingsOptions,
} from './schemas.js';
import { UserType, canSignIn, isOrganization, visibilityValue, type User, type UserTable } from './tables.js';
import { USER_SEARCH_ORDERS, UsersStore, type UserSearchOrder } from './store.js';
import { ACTIONS_USER_ID, GHOST_USER_ID, systemUserById } from './system.js';
import { canSeeAccount, userVisibilityFilter } from './visibility.js';
import type { Updateable } from 'kysely';

/** Character limits of the settings Forgejo checks (`binding:"MaxSize(n)"`), and of the columns behind the rest. */
const SETTING_MAX_LENGTHS = {
  full_name: 100,
  website: 255,
  description: 255,
  location: 50,
  pronouns: 50,
  language: 32,
  theme: 255,
  diff_view_style: 255,
} as const;

export class UsersService {
  private readonly store: UsersStore;

  constructor(private readonly ctx: CoreContext) {
    this.store = ctx.store(UsersStore);
  }

  /** Creates an account. Only site administrators (and the system, e.g. the CLI) may. */
  async create(actor: Actor, input: CreateUserOption): Promise<User> {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('only site administrators may create users');
    const opts = acceptInput(CreateUserOptionSchema, input);
    assertValidUsername(opts.username);
    const loginSource = opts.source_id ?? 0;
    const email = opts.email ?? '';
    assertValidEmail(email);
    // A local account needs a password; accounts of an external login source authenticate elsewhere.
    if (loginSource === 0) this.assertPasswordAcceptable(opts.password);
    const created = opts.created_at ? Math.floor(Date.parse(opts.created_at) / 1000) : nowUnix();
    if (!Number.isFinite(created)) throw new ValidationError('created_at', 'is not a date-time');
    // A directory account's password is the directory's: never stored here, even when one is given.
    const passwd = loginSource === 0 && opts.password ? await hashPassword(opts.password) : '';
    const lowerName = opts.username.toLowerCase();
    const lowerEmail = email.toLowerCase();

    return this.ctx.transaction(async (tx) => {
      const users = tx.store(UsersStore);
      const clash = await users.findClash(lowerName, lowerEmail);
      if (clash?.lower_name === lowerName) throw new ValidationError('username', `user already exists [name: ${opts.username}]`);
      // Another account's secondary address counts as used too.
      if (clash || (await users.findEmail(lowerEmail))) throw new ValidationError('email', `e-mail already in use [email: ${email}]`);
      let user: User;
      try {
        user = await users.insert({
          lower_name: lowerName,
          name: opts.username,
          full_name: opts.full_name ?? '',
          email,
          lower_email: lowerEmail,
          keep_email_private: this.ctx.settings.service.DEFAULT_KEEP_EMAIL_PRIVATE ? 1 : 0,
          passwd,
          must_change_password: opts.must_change_password ? 1 : 0,
          login_source: loginSource,
          login_name: opts.login_name ?? opts.username,
          type: UserType.Individual,
          visibility: visibilityValue(opts.visibility ?? 'public'),
          is_admin: opts.admin ? 1 : 0,
          is_restricted: opts.restricted ? 1 : 0,
          created_unix: created,
          updated_unix: created,
          theme: this.ctx.settings.ui.DEFAULT_THEME,
        });
        await users.insertEmail({ uid: user.id, email, lower_email: lowerEmail, is_activated: user.is_active, is_primary: 1 });
      } catch (error) {
        // A concurrent create of the same name or email won the race.
        if (isUniqueViolation(error)) throw new ValidationError('username', `user already exists [name: ${opts.username}]`);
        throw error;
      }
      tx.emit('user.created', { user, actor });
      return user;
    });
  }

  private assertPasswordAcceptable(password: string | undefined): asserts password is string {
    if (!password) throw new ValidationError('password', 'Required');
    const min = this.ctx.settings.security.MIN_PASSWORD_LENGTH;
    if ([...password].length < min) throw new ValidationError('password', `password is too short: at least ${min} characters`);
  }

  /** The user or organization named `name` (case-insensitive), without visibility checks. */
  findByName(name: string): Promise<User | undefined> {
    return this.store.findByName(name);
  }

  findById(id: number): Promise<User | undefined> {
    return this.store.findById(id);
  }

  /** The individual account with this email (case-insensitive), without visibility checks. */
  findByEmail(email: string): Promise<User | undefined> {
    return this.store.findByEmail(email);
  }

  /** The user named `name` as `actor` may see it, else NotFound: what `/users/{username}/…` routes load. */
  async resolve(actor: Actor, name: string): Promise<User> {
    const user = await this.store.findByName(name);
    if (!user || !(await this.canSee(actor, user))) {
      throw new NotFoundError(`user redirect does not exist [name: ${name}]`);
    }
    return user;
  }

  /**
   * May `actor` see account `user`? `canSeeAccount`, and for a non-public organization its membership (one more
   * query, only then), as `AccessService.canSee` answers it.
   */
  private async canSee(actor: Actor, user: User): Promise<boolean> {
    if (canSeeAccount(actor, user)) return true;
    if (actor.kind !== 'user' || actor.publicOnly || !isOrganization(user)) return false;
    return this.store.isOrgMember(actor.user.id, user.id);
  }

  /**
   * `GET /users/search`: individual accounts whose name, full name or (visible) email holds `q`, among those the
   * actor may see; `uid` narrows to one account. The ghost (-1) and actions (-2) users are found by their id only,
   * as Forgejo finds them.
   */
  async search(actor: Actor, input: UserSearchQuery): Promise<Page<User>> {
    const query = acceptInput(UserSearchQuerySchema, input);
    const uid = query.uid ?? 0;
    if (uid === GHOST_USER_ID || uid === ACTIONS_USER_ID) return { items: [systemUserById(uid)!], total: 1 };
    const sort = query.sort?.trim() ?? '';
    const order: UserSearchOrder = Object.hasOwn(USER_SEARCH_ORDERS, sort) ? (sort as UserSearchOrder) : 'alphabetically';
    return this.store.search({
      keyword: (query.q ?? '').trim().toLowerCase(),
      uid,
      order,
      visible: userVisibilityFilter(actor),
      emailsOf: isSiteAdmin(actor) ? { all: true } : { all: false, selfId: actor.kind === 'user' ? actor.user.id : null },
      page: clampPage(this.ctx.settings, query),
    });
  }

  /**
   * `PATCH /user/settings`: changes the fields given, checked as Forgejo's binding checks them (lengths in
   * characters; `website` an http(s) URL or empty). The user themself or a site administrator may.
   */
  async updateSettings(actor: Actor, user: User, input: UserSettingsOptions): Promise<User> {
    if (!isSiteAdmin(actor) && !isSelf(actor, user)) throw new ForbiddenError('you may not change this user\'s settings');
    const opts = acceptInput(UserSettingsOptionsSchema, input);
    for (const [field, max] of Object.entries(SETTING_MAX_LENGTHS) as [keyof typeof SETTING_MAX_LENGTHS, number][]) {
      const value = opts[field];
      if (value !== undefined && [...value].length > max) throw new ValidationError(field, `MaxSize(${max})`);
    }
    assertSiteUrl(opts.website);
    const changes: Updateable<UserTable> = {};
    if (opts.full_name !== undefined) changes.full_name = opts.full_name;
    if (opts.website !== undefined) changes.website = opts.website;
    if (opts.description !== undefined) changes.description = opts.description;
    if (opts.location !== undefined) changes.location = opts.location;
    if (opts.pronouns !== undefined) changes.pronouns = opts.pronouns;
    if (opts.language !== undefined) changes.language = opts.language;
    if (opts.theme !== undefined) changes.theme = opts.theme;
    if (opts.diff_view_style !== undefined) changes.diff_view_style = opts.diff_view_style;
    if (opts.enable_repo_unit_hints !== undefined) changes.enable_repo_unit_hints = opts.enable_repo_unit_hints ? 1 : 0;
    if (opts.hide_email !== undefined) changes.keep_email_private = opts.hide_email ? 1 : 0;
    if (opts.hide_pronouns !== undefined) changes.keep_pronouns_private = opts.hide_pronouns ? 1 : 0;
    if (opts.hide_activity !== undefined) changes.keep_activity_private = opts.hide_activity ? 1 : 0;
    if (Object.keys(changes).length === 0) return user;
    changes.updated_unix = nowUnix();
    return this.store.update(user.id, changes);
  }

  /** All accounts (site administrators only), oldest first. */
  async list(actor: Actor, paging?: Paging): Promise<Page<User>> {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('only site administrators may list all users');
    return this.store.listIndividuals(clampPage(this.ctx.settings, paging));
  }

  /** How many individual accounts exist. */
  count(): Promise<number> {
    return this.store.countIndividuals();
  }

  /**
   * Checks a sign-in by username or email and password. Returns the user, or null when the name is unknown,
   * the password is wrong, or the account may not sign in. Throws TooManyRequestsError while the account (its
   * name and emails alike) or the client `address` has too many recent failures (`[security] LOGIN_*`);
   * embedders without an address are limited per account only. `secondFactor` (a two-factor code check) runs
   * after a right password inside the same throttled attempt, so it is never checked beyond the limits, its
   * failure counts, and a right password alone does not clear the account's failures.
   */
  async authenticate(login: string, password: string, options: { address?: string; secondFactor?: (user: User) => Promise<boolean> } = {}): Promise<User | null> {
    // Looked up before the throttle, so a name and an email of one account share its counters.
    const named = await this.findForSignIn(login);
    return this.security.throttleSignIn({ login, userId: named?.id, address: options.address }, async () => {
      const user = await this.checkPassword(login, password, named);
      return user && (!options.secondFactor || (await options.secondFactor(user))) ? user : null;
    });
  }

  private findForSignIn(login: string): Promise<User | undefined> {
    return login.includes('@') ? this.store.findByEmail(login) : this.store.findByName(login);
  }

  private get security(): SecurityService {
    return this.ctx.service(SecurityService);
  }

  /**
   * Every outcome of a local check costs one password verification, so how long it takes tells nothing about
   * which local names exist. An account of a login source is checked by its directory, never by a local hash; a
   * name no account has is offered to the active directories, and the first that accepts it creates the account
   * (Forgejo's auto-registration).
   */
  private async checkPassword(login: string, password: string, user: User | undefined): Promise<User | null> {
    if (user && user.login_source !== 0 && user.type === UserType.Individual && canSignIn(user)) {
      const checked = await this.checkDirectoryPassword(user, password);
      if (checked !== undefined) return checked;
    }
    if (!user) {
      const found = await this.loginSources.discover(login, password);
      if (found) return this.registerFromDirectory(found, login);
    }
    // A directory account never signs in with a local hash, even one left from before it was bound to its source.
    const usable = user && user.login_source === 0 && user.type === UserType.Individual && user.passwd && canSignIn(user) ? user : undefined;
    const matches = await verifyPassword(password, usable?.passwd || (await dummyPasswordHash()));
    return usable && matches ? usable : null;
  }

  /** The login sources domain, which sits above this one (it creates accounts). */
  private get loginSources(): DirectoryAuth {
    return this.ctx.provider('users.directory');
  }

  /**
   * The directory's check; the admin and restricted filters, when the source has them, set those flags now.
   * Undefined when there is no directory to ask (source gone or inactive): the caller then refuses at the cost of
   * a local check, like any other refusal.
   */
  private async checkDirectoryPassword(user: User, password: string): Promise<User | null | undefined> {
    const found = await this.loginSources.verify(user.login_source, user.login_name || user.name, password);
    if (!found) return undefined;
    if (!found.entry) return null;
    const changes: Updateable<UserTable> = {};
    const { isAdmin, isRestricted } = found.entry;
    if (isAdmin !== undefined && (user.is_admin === 1) !== isAdmin) changes.is_admin = isAdmin ? 1 : 0;
    if (isRestricted !== undefined && (user.is_restricted === 1) !== isRestricted) changes.is_restricted = isRestricted ? 1 : 0;
    if (Object.keys(changes).length === 0) return user;
    changes.updated_unix = nowUnix();
    return this.store.update(user.id, changes);
  }

  /** Creates the account a directory vouched for, named by its username attribute (else the name typed). */
  private async registerFromDirectory({ source, entry }: DirectorySignIn, login: string): Promise<User | null> {
    const fullName = [entry.firstName, entry.surname].filter((part) => part !== '').join(' ');
    try {
      return await this.create(SYSTEM, {
        username: entry.username,
        email: entry.email || `${entry.username}@localhost.local`,
        full_name: [...fullName].slice(0, 100).join(''),
        source_id: source.id,
        login_name: login,
        must_change_password: false,
        admin: entry.isAdmin ?? false,
        restricted: entry.isRestricted ?? false,
      });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      // The name or address is taken: by this very account when a concurrent first sign-in created it, else by
      // someone else, and the directory's account cannot have it.
      const existing = await this.store.findByName(entry.username);
      return existing && existing.login_source === source.id && existing.login_name === login ? existing : null;
    }
  }

  /** Sets a new password. The user themself or a site administrator may. */
  async changePassword(actor: Actor, user: User, password: string, options: { mustChangePassword?: boolean } = {}): Promise<User> {
    if (!isSiteAdmin(actor) && !isSelf(actor, user)) throw new ForbiddenError('you may not change this user\'s password');
    if (user.login_source !== 0) throw new ValidationError('password', 'the account signs in through an external login source, which holds its password');
    this.assertPasswordAcceptable(password);
    return this.store.setPassword(user.id, await hashPassword(password), nowUnix(), options.mustChangePassword);
  }
}
