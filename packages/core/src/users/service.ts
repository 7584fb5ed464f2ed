import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { clampPage, offsetOf, type CoreContext, type Page } from '../context.js';
import { isSelf, isSiteAdmin, type Actor } from '../access/actor.js';
import { isUniqueViolation, nowUnix, precompiledQuery } from '../storage/database.js';
import { parseInput } from '../validation/validate.js';
import { assertValidEmail, assertValidUsername } from './names.js';
import { hashPassword, verifyPassword } from './password.js';
import { CreateUserOptionSchema, type CreateUserOption } from './schemas.js';
import { canSeeUser } from '../access/permissions.js';
import { UserType, VISIBILITY_NAMES, type User } from './tables.js';

export interface DeleteUserOptions {
  /** Also delete the user's repositories (otherwise a user who owns any is refused). */
  purge?: boolean;
}

export class UsersService {
  /** Compiled once: names are looked up on every authenticated request and every repository read. */
  private readonly byLowerName;

  constructor(private readonly ctx: CoreContext) {
    this.byLowerName = precompiledQuery<User, 'name'>(ctx, (param) =>
      ctx.db.selectFrom('user').selectAll().where('lower_name', '=', param('name')),
    );
  }

  /** Creates an account. Only site administrators (and the system, e.g. the CLI) may. */
  async create(actor: Actor, input: CreateUserOption | Record<string, unknown>): Promise<User> {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('only site administrators may create users');
    const opts = parseInput(CreateUserOptionSchema, input);
    assertValidUsername(opts.username);
    const loginSource = opts.source_id ?? 0;
    const email = opts.email ?? '';
    assertValidEmail(email);
    // A local account needs a password; accounts of an external login source authenticate elsewhere.
    if (loginSource === 0) this.assertPasswordAcceptable(opts.password);
    const created = opts.created_at ? Math.floor(Date.parse(opts.created_at) / 1000) : nowUnix();
    if (!Number.isFinite(created)) throw new ValidationError('created_at', 'is not a date-time');
    const passwd = opts.password ? await hashPassword(opts.password) : '';
    const visibility = VISIBILITY_NAMES.indexOf(opts.visibility ?? 'public');

    return this.ctx.db.transaction().execute(async (trx) => {
      const clash = await trx
        .selectFrom('user')
        .select(['lower_name', 'lower_email'])
        .where((eb) => eb.or([eb('lower_name', '=', opts.username.toLowerCase()), eb('lower_email', '=', email.toLowerCase())]))
        .executeTakeFirst();
      if (clash?.lower_name === opts.username.toLowerCase()) throw new ValidationError('username', `user already exists [name: ${opts.username}]`);
      if (clash) throw new ValidationError('email', `e-mail already in use [email: ${email}]`);
      try {
        return await trx
          .insertInto('user')
          .values({
            lower_name: opts.username.toLowerCase(),
            name: opts.username,
            full_name: opts.full_name ?? '',
            email,
            lower_email: email.toLowerCase(),
            keep_email_private: this.ctx.settings.service.DEFAULT_KEEP_EMAIL_PRIVATE ? 1 : 0,
            passwd,
            must_change_password: opts.must_change_password ? 1 : 0,
            login_source: loginSource,
            login_name: opts.login_name ?? opts.username,
            type: UserType.Individual,
            visibility,
            is_admin: opts.admin ? 1 : 0,
            is_restricted: opts.restricted ? 1 : 0,
            created_unix: created,
            updated_unix: created,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      } catch (error) {
        // A concurrent create of the same name or email won the race.
        if (isUniqueViolation(error)) throw new ValidationError('username', `user already exists [name: ${opts.username}]`);
        throw error;
      }
    });
  }

  private assertPasswordAcceptable(password: string | undefined): asserts password is string {
    if (!password) throw new ValidationError('password', 'Required');
    const min = this.ctx.settings.security.MIN_PASSWORD_LENGTH;
    if ([...password].length < min) throw new ValidationError('password', `password is too short: at least ${min} characters`);
  }

  /** The user or organization named `name` (case-insensitive), without visibility checks. */
  findByName(name: string): Promise<User | undefined> {
    // No valid name holds a NUL, and PostgreSQL refuses one in a text parameter.
    if (name.includes('\0')) return Promise.resolve(undefined);
    return this.byLowerName({ name: name.toLowerCase() }).then((rows) => rows[0]);
  }

  findById(id: number): Promise<User | undefined> {
    return this.ctx.db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** May `actor` know that `user` exists? */
  canSee(actor: Actor, user: User): boolean {
    return canSeeUser(actor, user);
  }

  /** The user named `name` as `actor` may see it, else NotFound. */
  async get(actor: Actor, name: string): Promise<User> {
    const user = await this.findByName(name);
    if (!user || !this.canSee(actor, user)) throw new NotFoundError(`user redirect does not exist [name: ${name}]`);
    return user;
  }

  /** All accounts (site administrators only), oldest first. */
  async list(actor: Actor, paging: { page?: number; limit?: number } = {}): Promise<Page<User>> {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('only site administrators may list all users');
    const page = clampPage(this.ctx.settings, paging.page, paging.limit);
    const base = this.ctx.db.selectFrom('user').where('type', '=', UserType.Individual);
    const [items, count] = await Promise.all([
      base.selectAll().orderBy('id').limit(page.limit).offset(offsetOf(page)).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  }

  async count(): Promise<number> {
    const row = await this.ctx.db
      .selectFrom('user')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', '=', UserType.Individual)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Checks a sign-in by username or email and password. Returns the user, or null when the name is unknown,
   * the password is wrong, or the account may not sign in.
   */
  async authenticate(login: string, password: string): Promise<User | null> {
    if (login.includes('\0')) return null;
    const lower = login.toLowerCase();
    const user = await this.ctx.db
      .selectFrom('user')
      .selectAll()
      .where('type', '=', UserType.Individual)
      .where((eb) => (login.includes('@') ? eb('lower_email', '=', lower) : eb('lower_name', '=', lower)))
      .executeTakeFirst();
    if (!user || !user.passwd || user.is_active !== 1 || user.prohibit_login === 1) return null;
    return (await verifyPassword(password, user.passwd)) ? user : null;
  }

  /** Sets a new password. The user themself or a site administrator may. */
  async changePassword(actor: Actor, name: string, password: string, options: { mustChangePassword?: boolean } = {}): Promise<User> {
    const user = await this.get(actor, name);
    if (!isSiteAdmin(actor) && !isSelf(actor, user)) throw new ForbiddenError('you may not change this user\'s password');
    this.assertPasswordAcceptable(password);
    const passwd = await hashPassword(password);
    const patch: { passwd: string; updated_unix: number; must_change_password?: number } = { passwd, updated_unix: nowUnix() };
    if (options.mustChangePassword !== undefined) patch.must_change_password = options.mustChangePassword ? 1 : 0;
    return this.ctx.db.updateTable('user').set(patch).where('id', '=', user.id).returningAll().executeTakeFirstOrThrow();
  }

  /**
   * Deletes an account with its tokens. A user who still owns repositories is refused unless `purge` is set, in
   * which case the repositories go too. The last site administrator cannot be deleted.
   */
  async delete(actor: Actor, name: string, options: DeleteUserOptions = {}): Promise<void> {
    if (!isSiteAdmin(actor)) throw new ForbiddenError('only site administrators may delete users');
    const user = await this.findByName(name);
    if (!user) throw new NotFoundError(`user redirect does not exist [name: ${name}]`);
    const repos = await this.ctx.db
      .selectFrom('repository')
      .select(['id', 'lower_name'])
      .where('owner_id', '=', user.id)
      .execute();
    if (repos.length > 0 && !options.purge) {
      throw new ConflictError(`user still has ownership of repositories [uid: ${user.id}]`);
    }
    const gitKeys = repos.map((r) => ({ owner: user.lower_name, name: r.lower_name }));
    // Repositories are moved aside first so that a failed DB write can put them back.
    const parked = [];
    try {
      for (const key of gitKeys) parked.push(await this.ctx.git.park(key));
      await this.ctx.db.transaction().execute(async (trx) => {
        if (user.is_admin === 1) {
          const admins = await trx
            .selectFrom('user')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('is_admin', '=', 1)
            .executeTakeFirstOrThrow();
          if (Number(admins.n) <= 1) throw new ValidationError('username', 'can not delete the last admin user');
        }
        await trx.deleteFrom('access_token').where('uid', '=', user.id).execute();
        await trx.deleteFrom('repository').where('owner_id', '=', user.id).execute();
        await trx.deleteFrom('user').where('id', '=', user.id).execute();
      });
    } catch (error) {
      for (const p of parked) await p.restore();
      throw error;
    }
    for (const p of parked) await p.discard();
  }
}
