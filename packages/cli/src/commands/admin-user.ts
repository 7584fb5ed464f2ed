import { SYSTEM, ValidationError, randomPassword, type User } from '@repohost/core';
import { withHost, type GlobalOptions } from '../config.js';
import { UsageError, type CliIo } from '../io.js';
import type { Flags, GroupCommand, Parsed, Values } from '../command.js';

export function required(values: Values, name: string, flag = name): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`missing required flag --${flag}`);
  return value;
}

const USERNAME: Flags = { username: { type: 'string', short: 'u', value: 'NAME', help: 'the user' } };

const RESET_2FA = {
  summary: "Remove a user's two-factor authentication (enrolled or pending)",
  flags: USERNAME,
  run: resetTwoFactor,
};

/** `repohost admin user …`, Gitea's verbs and flags. */
export const ADMIN_USER: GroupCommand = {
  name: 'user',
  summary: 'Manage users',
  commands: [
    {
      name: 'create',
      summary: 'Create a new user',
      flags: {
        username: { type: 'string', value: 'NAME', help: 'username (required)' },
        name: { type: 'string', value: 'NAME', help: 'older alias of --username' },
        email: { type: 'string', value: 'EMAIL', help: 'email address (required)' },
        password: { type: 'string', value: 'PASSWORD', help: 'password (or --random-password)' },
        'random-password': { type: 'boolean', help: 'generate a random password and print it' },
        'random-password-length': { type: 'string', value: 'N', help: 'length of the generated password (default 12)' },
        admin: { type: 'boolean', help: 'make the user a site administrator' },
        restricted: { type: 'boolean', help: 'make the user restricted' },
        fullname: { type: 'string', value: 'NAME', help: 'full name' },
        'must-change-password': { type: 'boolean', help: 'require a password change on next sign-in\n(default: true, except for the first user)' },
        'access-token': { type: 'boolean', help: 'also create an access token and print it' },
        'access-token-name': { type: 'string', value: 'NAME', help: 'name of that token (default "gitea-admin")' },
        'access-token-scopes': { type: 'string', value: 'SCOPES', help: 'comma-separated scopes of that token (default "all")' },
      },
      run: create,
    },
    {
      name: 'list',
      summary: 'List users',
      flags: { admin: { type: 'boolean', help: 'administrators only' } },
      run: list,
    },
    {
      name: 'change-password',
      summary: "Change a user's password",
      flags: {
        ...USERNAME,
        password: { type: 'string', short: 'p', value: 'PASSWORD', help: 'the new password (required)' },
        'must-change-password': { type: 'boolean', help: 'require a change on next sign-in (default: true; =false to not)' },
      },
      run: changePassword,
    },
    {
      name: 'delete',
      summary: 'Delete a user',
      flags: {
        id: { type: 'string', value: 'ID', help: 'the user\'s id' },
        ...USERNAME,
        email: { type: 'string', short: 'e', value: 'EMAIL', help: 'the user\'s email address' },
        purge: { type: 'boolean', help: 'also delete what the user owns (repositories, …)' },
      },
      run: remove,
    },
    {
      name: 'generate-access-token',
      summary: 'Create an access token for a user',
      flags: {
        ...USERNAME,
        'token-name': { type: 'string', short: 't', value: 'NAME', help: 'name of the token (default "gitea-admin")' },
        scopes: { type: 'string', value: 'SCOPES', help: 'comma-separated scopes (default "all")' },
        raw: { type: 'boolean', help: 'print the token alone' },
      },
      run: generateAccessToken,
    },
    {
      name: 'must-change-password',
      summary: 'Set (or with --unset clear) "must change password" for the named users',
      args: '[USERNAME...]',
      flags: {
        all: { type: 'boolean', short: 'A', help: 'every user' },
        exclude: { type: 'string', short: 'e', multiple: true, value: 'NAME', help: 'leave this user out (repeatable)' },
        unset: { type: 'boolean', help: 'clear instead of set' },
      },
      run: mustChangePassword,
    },
    // Gitea's name, and Forgejo's (`reset-mfa`) for the same command.
    { name: 'reset-2fa', ...RESET_2FA },
    { name: 'reset-mfa', ...RESET_2FA },
    {
      name: 'enable-2fa',
      summary: 'Enrol a user in two-factor authentication (TOTP)',
      description:
        'Enrols a user in two-factor authentication (TOTP): prints the secret and otpauth:// URI; run again with\n--code (from the authenticator app) to confirm, which prints the scratch code. Not in Forgejo\'s CLI\n(its users enrol on the web).\n',
      flags: { ...USERNAME, code: { type: 'string', value: 'CODE', help: 'the code the authenticator app shows' } },
      run: enableTwoFactor,
    },
  ],
};

async function create({ values: v }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
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

async function list({ values: v }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
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

async function changePassword({ values: v }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
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

async function remove({ values: v }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
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
    await host.accounts.adminDeleteUser(SYSTEM, user, { purge: Boolean(v.purge) });
    return 0;
  });
}

async function generateAccessToken({ values: v }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
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

async function mustChangePassword({ values: v, positionals }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
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

async function resetTwoFactor({ values: v }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
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
async function enableTwoFactor({ values: v }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
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
