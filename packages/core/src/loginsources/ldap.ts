/**
 * The LDAP side of a sign-in, as Forgejo does it: find the entry (through a bind DN search, or by binding with a DN
 * built from the login name), prove the password by binding as that entry, read its attributes, and test the admin
 * and restricted filters against it. `ldapts` is loaded on first use: most sites never configure a directory.
 */
import { isIP } from 'node:net';
import type { Client, Entry } from 'ldapts';

/** Forgejo's security protocol numbers and names (`ldap.SecurityProtocolNames`). */
export const SECURITY_PROTOCOLS = ['Unencrypted', 'LDAPS', 'StartTLS'] as const;
export type SecurityProtocolName = (typeof SECURITY_PROTOCOLS)[number];

/** An LDAP source's settings as stored in `login_source.cfg` (Forgejo's `ldap.Source` field names). */
export interface LdapConfig {
  Name: string;
  Host: string;
  Port: number;
  /** Index in SECURITY_PROTOCOLS. */
  SecurityProtocol: number;
  SkipVerify: boolean;
  /** Bind DN sources: the account that searches; empty for an anonymous search. */
  BindDN: string;
  /** The bind password, encrypted (security/secrets.ts); empty when there is none. */
  BindPasswordEncrypted: string;
  /** Where accounts are searched (bind DN), or, for simple auth, where the entry is looked up again (optional). */
  UserBase: string;
  /** Simple auth: the entry's DN with `%s` for the login name. */
  UserDN: string;
  AttributeUsername: string;
  AttributeName: string;
  AttributeSurname: string;
  AttributeMail: string;
  /** Read the attributes while bound as the bind DN, before binding as the user. */
  AttributesInBind: boolean;
  AttributeSSHPublicKey: string;
  AttributeAvatar: string;
  SearchPageSize: number;
  /** The user filter, `%s` (or `%[1]s`) standing for the login name. */
  Filter: string;
  AdminFilter: string;
  RestrictedFilter: string;
  AllowDeactivateAll: boolean;
  SkipLocalTwoFA: boolean;
  Enabled: boolean;
}

/** What the directory says of an account that proved its password. */
export interface DirectoryEntry {
  /** The username attribute's value; the login name when the attribute is not configured or empty. */
  username: string;
  firstName: string;
  surname: string;
  email: string;
  /** Whether the admin filter matches the entry; undefined when the source has no admin filter. */
  isAdmin: boolean | undefined;
  /** Whether the restricted filter matches (never for an admin); undefined when the source has none. */
  isRestricted: boolean | undefined;
  sshPublicKeys: string[];
}

/** The directory could not be asked (unreachable, too slow, TLS failure, bind DN refused): not the user's fault. */
export class DirectoryUnavailableError extends Error {
  override name = 'DirectoryUnavailableError';
}

/** A connection that cannot be made within this answers as unreachable. */
const CONNECT_TIMEOUT_MS = 5_000;
/** Each LDAP operation (bind, search) must answer within this. */
const OPERATION_TIMEOUT_MS = 5_000;

type Ldapts = typeof import('ldapts');
let ldaptsModule: Promise<Ldapts> | undefined;
function ldapts(): Promise<Ldapts> {
  return (ldaptsModule ??= import('ldapts'));
}

/** Characters that would change an RFC 4515 filter's meaning (Forgejo refuses names holding them). */
const FILTER_UNSAFE = /[\u0000()*\\]/;
/** Characters that would change an RFC 4514 DN's meaning, and edge spaces. */
const DN_UNSAFE = /[\u0000()*\\'"#+;<>,=]|^\s|\s$/;

/** The user filter for `login`, or undefined when the name cannot be put in a filter safely. */
export function userFilterFor(filter: string, login: string): string | undefined {
  if (FILTER_UNSAFE.test(login)) return undefined;
  // One pass, so a `%s` inside the name stays as typed.
  return filter.replace(/%\[1\]s|%s/g, () => login);
}

/** The simple-auth DN of `login`, or undefined when the name cannot be put in a DN safely. */
export function userDnFor(template: string, login: string): string | undefined {
  if (login === '' || DN_UNSAFE.test(login)) return undefined;
  return template.replace(/%s/g, () => login);
}

/** Is `filter` a well-formed LDAP filter (after the login name is put in)? */
export async function isValidFilter(filter: string): Promise<boolean> {
  const { FilterParser } = await ldapts();
  try {
    FilterParser.parseString(userFilterFor(filter, 'x')!);
    return true;
  } catch {
    return false;
  }
}

export async function connect(config: LdapConfig): Promise<Client> {
  const { Client } = await ldapts();
  const host = isIP(config.Host) === 6 ? `[${config.Host}]` : config.Host;
  const tlsOptions = { rejectUnauthorized: !config.SkipVerify, ...(isIP(config.Host) ? {} : { servername: config.Host }) };
  const protocol = SECURITY_PROTOCOLS[config.SecurityProtocol] ?? 'Unencrypted';
  const client = new Client({
    url: `${protocol === 'LDAPS' ? 'ldaps' : 'ldap'}://${host}:${config.Port}`,
    connectTimeout: CONNECT_TIMEOUT_MS,
    timeout: OPERATION_TIMEOUT_MS,
    // ldapts speaks TLS from the start whenever it is given TLS options: only LDAPS gets them here.
    ...(protocol === 'LDAPS' ? { tlsOptions } : {}),
    strictDN: false,
  });
  if (protocol === 'StartTLS') {
    try {
      await client.startTLS(tlsOptions);
    } catch (error) {
      await client.unbind().catch(() => undefined);
      throw unavailable(config, 'StartTLS failed', error);
    }
  }
  return client;
}

export function unavailable(config: LdapConfig, what: string, error: unknown): DirectoryUnavailableError {
  const reason = error instanceof Error ? error.message : String(error);
  return new DirectoryUnavailableError(`LDAP login source "${config.Name}" (${config.Host}:${config.Port}): ${what}: ${reason}`);
}

/**
 * Checks `password` for `login` against the directory and returns what it holds of the account, or null when the
 * name is unknown there, the password is wrong, or a filter leaves the account out. `directBind` is simple auth
 * (Forgejo's DLDAP): the user's own DN is built from the template instead of searched for. Throws
 * DirectoryUnavailableError when the directory cannot be asked; every operation is bounded in time.
 */
export async function authenticateEntry(config: LdapConfig, bindPassword: string, login: string, password: string, directBind: boolean): Promise<DirectoryEntry | null> {
  // An empty password would be an anonymous bind, which directories accept: never a sign-in.
  if (password === '') return null;
  const userFilter = userFilterFor(config.Filter, login);
  if (userFilter === undefined) return null;
  const lib = await ldapts();
  const client = await connect(config);
  try {
    /** Binds as the user: false when the directory refuses the password (or the DN). */
    const bindUser = async (dn: string): Promise<boolean> => {
      try {
        await client.bind(dn, password);
        return true;
      } catch (error) {
        if (error instanceof lib.ResultCodeError) return false;
        throw unavailable(config, 'bind failed', error);
      }
    };
    /** Searches, answering null when the directory says the search itself is wrong (no such base, bad filter). */
    const search = async (base: string, scope: 'base' | 'sub', filter: string, attributes: string[]): Promise<Entry[] | null> => {
      try {
        return (await client.search(base, { scope, filter, attributes, sizeLimit: scope === 'base' ? 1 : 2 })).searchEntries;
      } catch (error) {
        if (error instanceof lib.ResultCodeError && !(error instanceof lib.SizeLimitExceededError)) return null;
        if (error instanceof lib.SizeLimitExceededError) return [];
        throw unavailable(config, 'search failed', error);
      }
    };

    let userDn: string;
    if (directBind) {
      const dn = userDnFor(config.UserDN, login);
      if (dn === undefined || !(await bindUser(dn))) return null;
      userDn = dn;
      if (config.UserBase) {
        // The entry's real DN may differ from the template's (another RDN attribute): look it up under the base.
        const found = await search(config.UserBase, 'sub', userFilter, ['1.1']);
        if (!found || found.length !== 1) return null;
        userDn = found[0]!.dn;
      }
    } else {
      if (config.BindDN) {
        try {
          await client.bind(config.BindDN, bindPassword);
        } catch (error) {
          throw unavailable(config, 'the bind DN was refused', error);
        }
      }
      const found = await search(config.UserBase, 'sub', userFilter, ['1.1']);
      // Zero entries: unknown here; more than one: ambiguous, so nobody signs in by it.
      if (!found || found.length !== 1) return null;
      userDn = found[0]!.dn;
      if (!config.AttributesInBind && !(await bindUser(userDn))) return null;
    }

    const wanted = [config.AttributeUsername, config.AttributeName, config.AttributeSurname, config.AttributeMail, config.AttributeSSHPublicKey].filter(
      (name) => name !== '',
    );
    const entries = await search(userDn, 'base', userFilter, wanted.length > 0 ? wanted : ['1.1']);
    // The user filter leaves this entry out (simple auth checks it here, after the bind).
    if (!entries || entries.length !== 1) return null;
    const entry = entries[0]!;
    const matches = async (filter: string) => (filter === '' ? undefined : ((await search(userDn, 'base', filter, ['1.1'])) ?? []).length > 0);
    const isAdmin = await matches(config.AdminFilter);
    const isRestricted = isAdmin ? false : await matches(config.RestrictedFilter);
    if (!directBind && config.AttributesInBind && !(await bindUser(userDn))) return null;

    const username = firstValue(entry, config.AttributeUsername) || login;
    return {
      username,
      firstName: firstValue(entry, config.AttributeName),
      surname: firstValue(entry, config.AttributeSurname),
      email: firstValue(entry, config.AttributeMail),
      isAdmin,
      isRestricted,
      sshPublicKeys: allValues(entry, config.AttributeSSHPublicKey),
    };
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/** Attribute names are case-insensitive; servers answer with their own spelling. */
export function allValues(entry: Entry, attribute: string): string[] {
  if (!attribute) return [];
  const key = Object.keys(entry).find((name) => name.toLowerCase() === attribute.toLowerCase());
  const value = key === undefined || key === 'dn' ? undefined : entry[key];
  if (value === undefined) return [];
  const values = Array.isArray(value) ? value : [value];
  return values.map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : v)).filter((v) => v !== '');
}

export function firstValue(entry: Entry, attribute: string): string {
  return allValues(entry, attribute)[0]?.trim() ?? '';
}
