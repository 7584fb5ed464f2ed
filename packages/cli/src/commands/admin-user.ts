import { parseArgs, type ParseArgsConfig } from 'node:util';
import { SYSTEM, ValidationError, randomPassword, type User } from '@repohost/core';
import { withHost, type GlobalOptions } from '../config.js';
import { UsageError, type CliIo } from '../io.js';

export const ADMIN_USER_HELP = `Usage: repohost admin user <command> [options]

Commands:
  create                  Create a new user
      --username NAME         username (required; --name is an older alias)
      --email EMAIL           email address (required)
      --password PASSWORD     password (or --random-password)
      --random-password       generate a random password and print it
      --random-password-length N   length of the generated password (default 12)
      --admin                 make the user a site administrator
      --restricted            make the user restricted
      --fullname NAME         full name
      --must-change-password  require a password change on next sign-in (default: true, except for the first user)
      --access-token          also create an access token and print it
      --access-token-name N   name of that token (default "gitea-admin")
      --access-token-scopes S comma-separated scopes of that token (default "all")
  list                    List users (--admin: administrators only)
  change-password         Change a user's password
      --username, -u NAME   --password, -p PASSWORD   --must-change-password[=false]
  delete                  Delete a user
      --id ID | --username, -u NAME | --email, -e EMAIL   [--purge]
  generate-access-token   Create an access token for a user
      --username, -u NAME   --token-name, -t NAME (default "gitea-admin")   --scopes S (default "all")   --raw
  must-change-password    Set (or with --unset clear) "must change password" for the named users
      [USERNAME...]   --all, -A (every user)   --exclude, -e NAME (repeatable)   --unset
  reset-2fa               Remove a user's two-factor authentication (enrolled or pending)
      --username, -u NAME
  enable-2fa              Enrol a user in two-factor authentication (TOTP): prints the secret and otpauth:// URI;
                          run again with --code (from the authenticator app) to confirm, which prints the scratch code
      --username, -u NAME   --code CODE
`;

export type Values = Record<string, string | boolean | undefined>;

/** Parses flags; booleans also take Gitea's `--flag=true|false` form. */
export function parse(args: string[], options: NonNullable<ParseArgsConfig['options']>): Values {
  return parseWithPositionals(args, options, false).values;
}

function parseWithPositionals(
  args: string[],
  options: NonNullable<ParseArgsConfig['options']>,
  allowPositionals = true,
): { values: Values & Record<string, string | boolean | string[] | undefined>; positionals: string[] } {
  const normalized = args.map((arg) => {
    const m = /^--([\w-]+)=(true|false)$/i.exec(arg);
    if (!m || options[m[1]!]?.type !== 'boolean') return arg;
    return m[2]!.toLowerCase() === 'true' ? `--${m[1]}` : `--no-${m[1]}`;
  });
  try {
    const parsed = parseArgs({ args: normalized, options, strict: true, allowPositionals, allowNegative: true });
    return { values: parsed.values as Values, positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function required(values: Values, name: string, flag = name): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`missing required flag --${flag}`);
  return value;
}

export async function adminUser(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'create':
      return create(rest, global, io);
    case 'list':
      return list(rest, global, io);
    case 'change-password':
      return changePassword(rest, global, io);
    case 'delete':
      return remove(rest, global, io);
    case 'generate-access-token':
      return generateAccessToken(rest, global, io);
    case 'must-change-password':
      return mustChangePassword(rest, global, io);
    case 'reset-2fa':
      return resetTwoFactor(rest, global, io);
    case 'enable-2fa':
      return enableTwoFactor(rest, global, io);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.stdout(ADMIN_USER_HELP);
      return command === undefined ? 1 : 0;
    default:
      throw new UsageError(`unknown command "admin user ${command}"`);
  }
}

async function create(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const v = parse(args, {
    username: { type: 'string' },
    name: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    'random-password': { type: 'boolean' },
    'random-password-length': { type: 'string' },
    admin: { type: 'boolean' },
    restricted: { type: 'boolean' },
    fullname: { type: 'string' },
    'must-change-password': { type: 'boolean' },
    'access-token': { type: 'boolean' },
    'access-token-name': { type: 'string' },
    'access-token-scopes': { type: 'string' },
  });
  const username = (v.username as string | undefined) ?? (v.name as string | undefined);
  if (!username) throw new UsageError('missing required flag --username');
  const email = required(v, 'email');
  if (v.password && v['random-password']) throw new UsageError('cannot set both --random-password and --password');
  let password = v.password as string | undefined;
  if (v['random-password']) {
    const length = Number(v['random-password-length'] ?? '12');
    if (!Number.isInteger(length) || length < 1) throw new UsageError('--random-password-length must be a positive integer');
    password = randomPassword(length);
  }
  if (!password) throw new UsageError('must set either --password or --random-password');

  return withHost(global, io, async (host) => {
    // Gitea's rule: everyone must change a generated or admin-set password, except the very first account.
    const mustChange = v['must-change-password'] !== undefined ? Boolean(v['must-change-password']) : (await host.users.count()) > 0;
    const min = host.settings.security.MIN_PASSWORD_LENGTH;
    if ([...password!].length < min) throw new ValidationError('password', `password is too short: at least ${min} characters`);
    const user = await host.userAdmin.create(
      SYSTEM,
      {
        username,
        email,
        password,
        full_name: (v.fullname as string | undefined) ?? '',
        restricted: Boolean(v.restricted),
        must_change_password: mustChange,
      },
      { admin: Boolean(v.admin) },
    );
    if (v['random-password']) io.stdout(`generated random password is '${password}'\n`);
    if (v['access-token']) {
      const created = await host.tokens.create(SYSTEM, user, {
        name: (v['access-token-name'] as string | undefined) ?? 'gitea-admin',
        scopes: ((v['access-token-scopes'] as string | undefined) ?? 'all').split(','),
      });
      io.stdout(`Access token was successfully created... ${created.value}\n`);
    }
    io.stdout(`New user '${user.name}' has been successfully created!\n`);
    return 0;
  });
}

async function list(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const v = parse(args, { admin: { type: 'boolean' } });
  return withHost(global, io, async (host) => {
    const users: User[] = [];
    const limit = host.settings.api.MAX_RESPONSE_ITEMS;
    // Gitea's listing: every individual account by id; with --admin only administrators, without the last two
    // columns.
    for (let page = 1; ; page++) {
      const result = await host.userAdmin.search(SYSTEM, { sort: 'oldest', isAdmin: v.admin ? true : undefined }, { page, limit });
      users.push(...result.items);
      if (users.length >= result.total || result.items.length === 0) break;
    }
    users.sort((a, b) => a.id - b.id);
    const rows = v.admin ? [['ID', 'Username', 'Email', 'IsActive']] : [['ID', 'Username', 'Email', 'IsActive', 'IsAdmin', '2FA']];
    const twoFactor = v.admin ? new Set<number>() : await host.twoFactor.enrolledAmong(users.map((u) => u.id));
    for (const u of users) {
      const row = [String(u.id), u.name, u.email, String(u.is_active === 1)];
      rows.push(v.admin ? row : [...row, String(u.is_admin === 1), String(twoFactor.has(u.id))]);
    }
    io.stdout(table(rows));
    return 0;
  });
}

async function changePassword(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const v = parse(args, {
    username: { type: 'string', short: 'u' },
    password: { type: 'string', short: 'p' },
    'must-change-password': { type: 'boolean' },
  });
  const username = required(v, 'username');
  const password = required(v, 'password');
  return withHost(global, io, async (host) => {
    const user = await host.users.changePassword(SYSTEM, await host.users.resolve(SYSTEM, username), password, {
      mustChangePassword: v['must-change-password'] === undefined ? true : Boolean(v['must-change-password']),
    });
    io.stdout(`${user.name}'s password has been successfully updated!\n`);
    return 0;
  });
}

async function remove(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const v = parse(args, {
    id: { type: 'string' },
    username: { type: 'string', short: 'u' },
    email: { type: 'string', short: 'e' },
    purge: { type: 'boolean' },
  });
  if (!v.id && !v.username && !v.email) throw new UsageError('you must provide the id, username or email of a user to delete');
  return withHost(global, io, async (host) => {
    let user: User | undefined;
    if (v.id !== undefined) {
      if (!/^\d+$/.test(String(v.id))) throw new UsageError('--id must be a number');
      user = await host.users.findById(Number(v.id));
    } else if (v.username) user = await host.users.findByName(String(v.username));
    else user = await host.users.findByEmail(String(v.email));
    if (!user) throw new UsageError('user not found');
    if (v.username && user.lower_name !== String(v.username).toLowerCase()) throw new UsageError('the user does not match the provided username');
    if (v.email && user.lower_email !== String(v.email).toLowerCase()) throw new UsageError('the user does not match the provided email');
    await host.userAdmin.delete(SYSTEM, user, { purge: Boolean(v.purge) });
    return 0;
  });
}

async function generateAccessToken(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const v = parse(args, {
    username: { type: 'string', short: 'u' },
    'token-name': { type: 'string', short: 't' },
    scopes: { type: 'string' },
    raw: { type: 'boolean' },
  });
  const username = required(v, 'username');
  return withHost(global, io, async (host) => {
    const created = await host.tokens.create(SYSTEM, await host.users.resolve(SYSTEM, username), {
      name: (v['token-name'] as string | undefined) ?? 'gitea-admin',
      scopes: ((v.scopes as string | undefined) ?? 'all').split(','),
    });
    io.stdout(v.raw ? `${created.value}\n` : `Access token was successfully created: ${created.value}\n`);
    return 0;
  });
}

async function mustChangePassword(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const { values: v, positionals } = parseWithPositionals(args, {
    all: { type: 'boolean', short: 'A' },
    exclude: { type: 'string', short: 'e', multiple: true },
    unset: { type: 'boolean' },
  });
  if (positionals.length === 0 && !v.all) throw new UsageError('either usernames or --all must be provided');
  const value = !v.unset;
  return withHost(global, io, async (host) => {
    const updated = await host.userAdmin.setMustChangePassword(
      SYSTEM,
      { all: Boolean(v.all), usernames: positionals, exclude: (v.exclude as string[] | undefined) ?? [] },
      value,
    );
    io.stdout(`Updated ${updated} users setting MustChangePassword to ${value}\n`);
    return 0;
  });
}

async function resetTwoFactor(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const v = parse(args, { username: { type: 'string', short: 'u' } });
  const username = required(v, 'username');
  return withHost(global, io, async (host) => {
    const user = await host.users.findByName(username);
    if (!user) throw new UsageError(`user does not exist [name: ${username}]`);
    if (await host.twoFactor.disable(SYSTEM, user)) io.stdout(`2FA disabled for user "${user.name}"\n`);
    else io.stdout(`${user.name} has no two-factor authentication to reset\n`);
    return 0;
  });
}

/** Not in Forgejo's CLI (its users enrol on the web): the library's enrol and confirm, for sites without a web UI. */
async function enableTwoFactor(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const v = parse(args, { username: { type: 'string', short: 'u' }, code: { type: 'string' } });
  const username = required(v, 'username');
  const code = v.code as string | undefined;
  return withHost(global, io, async (host) => {
    const user = await host.users.findByName(username);
    if (!user) throw new UsageError(`user does not exist [name: ${username}]`);
    if (code === undefined) {
      const { secret, uri } = await host.twoFactor.enrol(SYSTEM, user);
      io.stdout(`Secret: ${secret}\nURI: ${uri}\nConfirm with: repohost admin user enable-2fa --username ${user.name} --code <code from the app>\n`);
      return 0;
    }
    const { scratch } = await host.twoFactor.confirm(SYSTEM, user, code);
    io.stdout(`2FA enabled for user "${user.name}"\nScratch code (signs in once if the device is lost): ${scratch}\n`);
    return 0;
  });
}

/** Columns as Go's tabwriter lays them out for Gitea (minimum width 5, padding 1); the last one unpadded. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(5, ...rows.map((r) => r[i]!.length + 1)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('') + '\n').join('');
}
