import type { ParseArgsConfig } from 'node:util';
import { SYSTEM, type LdapKind, type LdapSourceOption } from '@repohost/core';
import { withHost, type GlobalOptions } from '../config.js';
import { UsageError, type CliIo } from '../io.js';
import { parse, type Values } from './admin-user.js';

export const ADMIN_AUTH_HELP = `Usage: repohost admin auth <command> [options]

Commands:
  list                    List login sources (--min-width, --tab-width, --padding, --pad-char, --vertical-bars)
  delete --id ID          Delete a login source no account uses
  add-ldap                Add an LDAP source that searches through a bind DN
  update-ldap --id ID     Change an LDAP (via BindDN) source: only the flags given
  add-ldap-simple         Add an LDAP source that binds with the user's DN (simple auth)
  update-ldap-simple --id ID   Change an LDAP (simple auth) source: only the flags given

LDAP flags:
  --name NAME                     name of the source (required to add)
  --active | --not-active         whether sign-ins through it are allowed (default: active)
  --security-protocol NAME        Unencrypted, LDAPS or StartTLS (required to add)
  --skip-tls-verify               do not verify the server's certificate
  --host HOST  --port PORT        where the LDAP server listens (required to add)
  --user-search-base DN           where accounts are searched (required for add-ldap)
  --user-filter FILTER            filter finding the account; %s stands for the login name (required to add)
  --admin-filter FILTER           accounts matching it are site administrators
  --restricted-filter FILTER      accounts matching it are restricted
  --allow-deactivate-all          recorded (directory synchronization is not run yet)
  --username-attribute ATTR       attribute holding the user name (default: the name typed at sign-in)
  --firstname-attribute ATTR  --surname-attribute ATTR
  --email-attribute ATTR          attribute holding the email address (required to add)
  --public-ssh-key-attribute ATTR  --avatar-attribute ATTR   recorded (not synchronized yet)
  --skip-local-2fa                recorded; local two-factor authentication still applies
Bind DN only:
  --bind-dn DN  --bind-password PASSWORD   the account that searches (none: anonymous search)
  --attributes-in-bind            read the attributes as the bind DN
  --synchronize-users | --disable-synchronize-users   recorded (no periodic synchronization yet)
  --page-size N                   search page size
Simple auth only:
  --user-dn DN                    the user's DN, %s standing for the login name (required for add-ldap-simple)
`;

type Options = NonNullable<ParseArgsConfig['options']>;

const COMMON_FLAGS: Options = {
  name: { type: 'string' },
  'not-active': { type: 'boolean' },
  active: { type: 'boolean' },
  'security-protocol': { type: 'string' },
  'skip-tls-verify': { type: 'boolean' },
  host: { type: 'string' },
  port: { type: 'string' },
  'user-search-base': { type: 'string' },
  'user-filter': { type: 'string' },
  'admin-filter': { type: 'string' },
  'restricted-filter': { type: 'string' },
  'allow-deactivate-all': { type: 'boolean' },
  'username-attribute': { type: 'string' },
  'firstname-attribute': { type: 'string' },
  'surname-attribute': { type: 'string' },
  'email-attribute': { type: 'string' },
  'public-ssh-key-attribute': { type: 'string' },
  'skip-local-2fa': { type: 'boolean' },
  'avatar-attribute': { type: 'string' },
};
const BIND_DN_FLAGS: Options = {
  ...COMMON_FLAGS,
  'bind-dn': { type: 'string' },
  'bind-password': { type: 'string' },
  'attributes-in-bind': { type: 'boolean' },
  'synchronize-users': { type: 'boolean' },
  'disable-synchronize-users': { type: 'boolean' },
  'page-size': { type: 'string' },
};
const SIMPLE_FLAGS: Options = { ...COMMON_FLAGS, 'user-dn': { type: 'string' } };

/** Gitea's `argsSet`: each flag given, and not blank. */
function argsSet(values: Values, names: string[]): void {
  for (const name of names) {
    const value = values[name];
    if (value === undefined) throw new UsageError(`${name} is not set`);
    if (typeof value === 'string' && value.trim() === '') throw new UsageError(`${name} is required`);
  }
}

function integerFlag(values: Values, name: string): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value.trim())) throw new UsageError(`invalid value "${String(value)}" for flag --${name}: not a number`);
  return Number(value.trim());
}

function text(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

function flag(values: Values, name: string): boolean | undefined {
  const value = values[name];
  return typeof value === 'boolean' ? value : undefined;
}

/** The flags given, as the service's option (what is absent stays as it is). */
function ldapOption(v: Values): LdapSourceOption {
  const notActive = flag(v, 'not-active');
  const disableSync = flag(v, 'disable-synchronize-users');
  // Gitea applies --not-active, then --active (and --synchronize-users, then its disabling twin): the later wins.
  const active = flag(v, 'active') ?? (notActive === undefined ? undefined : !notActive);
  const synchronize = disableSync === undefined ? flag(v, 'synchronize-users') : !disableSync;
  const option: LdapSourceOption = {
    name: text(v, 'name'),
    active,
    synchronize_users: synchronize,
    security_protocol: text(v, 'security-protocol'),
    skip_tls_verify: flag(v, 'skip-tls-verify'),
    host: text(v, 'host'),
    port: integerFlag(v, 'port'),
    user_search_base: text(v, 'user-search-base'),
    user_filter: text(v, 'user-filter'),
    admin_filter: text(v, 'admin-filter'),
    restricted_filter: text(v, 'restricted-filter'),
    allow_deactivate_all: flag(v, 'allow-deactivate-all'),
    username_attribute: text(v, 'username-attribute'),
    firstname_attribute: text(v, 'firstname-attribute'),
    surname_attribute: text(v, 'surname-attribute'),
    email_attribute: text(v, 'email-attribute'),
    public_ssh_key_attribute: text(v, 'public-ssh-key-attribute'),
    avatar_attribute: text(v, 'avatar-attribute'),
    skip_local_2fa: flag(v, 'skip-local-2fa'),
    bind_dn: text(v, 'bind-dn'),
    bind_password: text(v, 'bind-password'),
    attributes_in_bind: flag(v, 'attributes-in-bind'),
    page_size: integerFlag(v, 'page-size'),
    user_dn: text(v, 'user-dn'),
  };
  return Object.fromEntries(Object.entries(option).filter(([, value]) => value !== undefined)) as LdapSourceOption;
}

export async function adminAuth(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'list':
      return list(rest, global, io);
    case 'delete':
      return remove(rest, global, io);
    case 'add-ldap':
      return add(rest, 'bind_dn', global, io);
    case 'update-ldap':
      return update(rest, 'bind_dn', global, io);
    case 'add-ldap-simple':
      return add(rest, 'simple', global, io);
    case 'update-ldap-simple':
      return update(rest, 'simple', global, io);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.stdout(ADMIN_AUTH_HELP);
      return command === undefined ? 1 : 0;
    default:
      throw new UsageError(`unknown command "admin auth ${command}"`);
  }
}

async function add(args: string[], kind: LdapKind, global: GlobalOptions, io: CliIo): Promise<number> {
  const v = parse(args, kind === 'bind_dn' ? BIND_DN_FLAGS : SIMPLE_FLAGS);
  const where = kind === 'bind_dn' ? 'user-search-base' : 'user-dn';
  argsSet(v, ['name', 'security-protocol', 'host', 'port', where, 'user-filter', 'email-attribute']);
  const option = ldapOption(v);
  // Gitea prints nothing on success; `admin auth list` shows the new source.
  return withHost(global, io, async (host) => {
    await host.loginSources.createLdap(SYSTEM, kind, option);
    return 0;
  });
}

async function update(args: string[], kind: LdapKind, global: GlobalOptions, io: CliIo): Promise<number> {
  const v = parse(args, { id: { type: 'string' }, ...(kind === 'bind_dn' ? BIND_DN_FLAGS : SIMPLE_FLAGS) });
  argsSet(v, ['id']);
  const id = integerFlag(v, 'id')!;
  const option = ldapOption(v);
  return withHost(global, io, async (host) => {
    await host.loginSources.updateLdap(SYSTEM, id, kind, option);
    return 0;
  });
}

async function remove(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const v = parse(args, { id: { type: 'string' } });
  argsSet(v, ['id']);
  const id = integerFlag(v, 'id')!;
  return withHost(global, io, async (host) => {
    await host.loginSources.delete(SYSTEM, id);
    return 0;
  });
}

async function list(args: string[], global: GlobalOptions, io: CliIo): Promise<number> {
  const v = parse(args, {
    'min-width': { type: 'string' },
    'tab-width': { type: 'string' },
    padding: { type: 'string' },
    'pad-char': { type: 'string' },
    'vertical-bars': { type: 'boolean' },
  });
  const layout: TabLayout = {
    minWidth: integerFlag(v, 'min-width') ?? 0,
    tabWidth: integerFlag(v, 'tab-width') ?? 8,
    padding: integerFlag(v, 'padding') ?? 1,
    padChar: (text(v, 'pad-char') ?? '\t').slice(0, 1) || '\t',
    verticalBars: flag(v, 'vertical-bars') ?? false,
  };
  return withHost(global, io, async (host) => {
    const rows = [['ID', 'Name', 'Type', 'Enabled']];
    for (const source of await host.loginSources.list(SYSTEM)) rows.push([String(source.id), source.name, source.typeName, String(source.isActive)]);
    io.stdout(tabulate(rows, layout));
    return 0;
  });
}

interface TabLayout {
  minWidth: number;
  tabWidth: number;
  padding: number;
  padChar: string;
  verticalBars: boolean;
}

/**
 * Columns as Go's tabwriter lays out Gitea's `admin auth list`: each cell but the last padded to its column's
 * width (widest cell plus padding, at least the minimum); with tabs as the padding character, widths round up to
 * whole tab stops and the padding is tabs.
 */
function tabulate(rows: string[][], layout: TabLayout): string {
  const columns = rows[0]!.length;
  const widths: number[] = [];
  for (let i = 0; i < columns - 1; i++) {
    let width = Math.max(layout.minWidth, ...rows.map((row) => [...row[i]!].length + layout.padding));
    if (layout.padChar === '\t' && layout.tabWidth > 0) width = Math.ceil(width / layout.tabWidth) * layout.tabWidth;
    widths.push(width);
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) => {
          if (i === columns - 1) return cell;
          const gap = widths[i]! - [...cell].length;
          const pad = layout.padChar === '\t' && layout.tabWidth > 0 ? '\t'.repeat(Math.ceil(gap / layout.tabWidth)) : layout.padChar.repeat(gap);
          return cell + pad + (layout.verticalBars ? '|' : '');
        })
        .join('') + '\n',
    )
    .join('');
}
