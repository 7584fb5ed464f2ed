import { SYSTEM, type LdapKind, type LdapSourceOption } from '@repohost/core';
import { withHost, type GlobalOptions } from '../config.js';
import { UsageError, type CliIo } from '../io.js';
import type { Flags, GroupCommand, Parsed, Values } from '../command.js';

type Options = Flags;

const COMMON_FLAGS: Options = {
  name: { type: 'string', value: 'NAME', help: 'name of the source (required to add)' },
  'not-active': { type: 'boolean', help: 'refuse sign-ins through it' },
  active: { type: 'boolean', help: 'allow sign-ins through it (default when adding)' },
  'security-protocol': { type: 'string', value: 'NAME', help: 'Unencrypted, LDAPS or StartTLS (required to add)' },
  'skip-tls-verify': { type: 'boolean', help: "do not verify the server's certificate" },
  host: { type: 'string', value: 'HOST', help: 'where the LDAP server listens (required to add)' },
  port: { type: 'string', value: 'PORT', help: 'its port (required to add)' },
  'user-search-base': { type: 'string', value: 'DN', help: 'where accounts are searched (required for add-ldap)' },
  'user-filter': { type: 'string', value: 'FILTER', help: 'filter finding the account; %s stands for the login name (required to add)' },
  'admin-filter': { type: 'string', value: 'FILTER', help: 'accounts matching it are site administrators' },
  'restricted-filter': { type: 'string', value: 'FILTER', help: 'accounts matching it are restricted' },
  'allow-deactivate-all': { type: 'boolean', help: 'recorded (directory synchronization is not run yet)' },
  'username-attribute': { type: 'string', value: 'ATTR', help: 'attribute holding the user name (default: the name typed at sign-in)' },
  'firstname-attribute': { type: 'string', value: 'ATTR', help: 'attribute holding the first name' },
  'surname-attribute': { type: 'string', value: 'ATTR', help: 'attribute holding the surname' },
  'email-attribute': { type: 'string', value: 'ATTR', help: 'attribute holding the email address (required to add)' },
  'public-ssh-key-attribute': { type: 'string', value: 'ATTR', help: 'recorded (not synchronized yet)' },
  'skip-local-2fa': { type: 'boolean', help: 'recorded; local two-factor authentication still applies' },
  'avatar-attribute': { type: 'string', value: 'ATTR', help: 'recorded (not synchronized yet)' },
};
const BIND_DN_FLAGS: Options = {
  ...COMMON_FLAGS,
  'bind-dn': { type: 'string', value: 'DN', help: 'the account that searches (none: anonymous search)' },
  'bind-password': { type: 'string', value: 'PASSWORD', help: 'its password' },
  'attributes-in-bind': { type: 'boolean', help: 'read the attributes as the bind DN' },
  'synchronize-users': { type: 'boolean', help: 'recorded (no periodic synchronization yet)' },
  'disable-synchronize-users': { type: 'boolean', help: 'recorded' },
  'page-size': { type: 'string', value: 'N', help: 'search page size' },
};
const SIMPLE_FLAGS: Options = { ...COMMON_FLAGS, 'user-dn': { type: 'string', value: 'DN', help: "the user's DN, %s standing for the login name (required for add-ldap-simple)" } };
const ID: Options = { id: { type: 'string', value: 'ID', help: 'the login source (required)' } };

/** `repohost admin auth …`: LDAP login sources, Gitea's verbs and flags. */
export const ADMIN_AUTH: GroupCommand = {
  name: 'auth',
  summary: 'Manage login sources',
  commands: [
    {
      name: 'list',
      summary: 'List login sources',
      flags: {
        'min-width': { type: 'string', value: 'N', help: 'minimal cell width including any padding' },
        'tab-width': { type: 'string', value: 'N', help: 'width of tab characters (default 8)' },
        padding: { type: 'string', value: 'N', help: 'padding added to a cell before computing its width (default 1)' },
        'pad-char': { type: 'string', value: 'C', help: 'ASCII character used for padding (default tab)' },
        'vertical-bars': { type: 'boolean', help: 'vertical bars between columns' },
      },
      run: list,
    },
    { name: 'delete', summary: 'Delete a login source no account uses', flags: ID, run: remove },
    { name: 'add-ldap', summary: 'Add an LDAP source that searches through a bind DN', flags: BIND_DN_FLAGS, run: (input, global, io) => add(input, 'bind_dn', global, io) },
    {
      name: 'update-ldap',
      summary: 'Change an LDAP (via BindDN) source: only the flags given',
      flags: { ...ID, ...BIND_DN_FLAGS },
      run: (input, global, io) => update(input, 'bind_dn', global, io),
    },
    {
      name: 'add-ldap-simple',
      summary: "Add an LDAP source that binds with the user's DN (simple auth)",
      flags: SIMPLE_FLAGS,
      run: (input, global, io) => add(input, 'simple', global, io),
    },
    {
      name: 'update-ldap-simple',
      summary: 'Change an LDAP (simple auth) source: only the flags given',
      flags: { ...ID, ...SIMPLE_FLAGS },
      run: (input, global, io) => update(input, 'simple', global, io),
    },
  ],
};

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

async function add({ values: v }: Parsed, kind: LdapKind, global: GlobalOptions, io: CliIo): Promise<number> {
  const where = kind === 'bind_dn' ? 'user-search-base' : 'user-dn';
  argsSet(v, ['name', 'security-protocol', 'host', 'port', where, 'user-filter', 'email-attribute']);
  const option = ldapOption(v);
  // Gitea prints nothing on success; `admin auth list` shows the new source.
  return withHost(global, io, async (host) => {
    await host.loginSources.createLdap(SYSTEM, kind, option);
    return 0;
  });
}

async function update({ values: v }: Parsed, kind: LdapKind, global: GlobalOptions, io: CliIo): Promise<number> {
  argsSet(v, ['id']);
  const id = integerFlag(v, 'id')!;
  const option = ldapOption(v);
  return withHost(global, io, async (host) => {
    await host.loginSources.updateLdap(SYSTEM, id, kind, option);
    return 0;
  });
}

async function remove({ values: v }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
  argsSet(v, ['id']);
  const id = integerFlag(v, 'id')!;
  return withHost(global, io, async (host) => {
    await host.loginSources.delete(SYSTEM, id);
    return 0;
  });
}

async function list({ values: v }: Parsed, global: GlobalOptions, io: CliIo): Promise<number> {
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
