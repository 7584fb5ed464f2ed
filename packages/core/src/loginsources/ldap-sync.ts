/**
 * Reading every account of a directory, for the periodic synchronization (Forgejo's `SearchEntries`): one
 * search under the user search base with the user filter matching any name, and one search each for the admin
 * and restricted filters (instead of one per entry), all bounded in time like sign-ins.
 */
import type { Client } from 'ldapts';
import { connect, firstValue, unavailable, type LdapConfig } from './ldap.js';

/** One account as the directory lists it. */
export interface DirectoryListing {
  dn: string;
  username: string;
  firstName: string;
  surname: string;
  email: string;
  /** Undefined when the source has no admin (restricted) filter. */
  isAdmin: boolean | undefined;
  isRestricted: boolean | undefined;
}

/** A filter as one term: `uid=x` becomes `(uid=x)`. */
function term(filter: string): string {
  const trimmed = filter.trim();
  return trimmed.startsWith('(') ? trimmed : `(${trimmed})`;
}

export async function listDirectory(config: LdapConfig, bindPassword: string, signal: AbortSignal): Promise<DirectoryListing[]> {
  const client: Client = await connect(config);
  const stop = () => void client.unbind().catch(() => undefined);
  signal.addEventListener('abort', stop, { once: true });
  try {
    if (config.BindDN && bindPassword) {
      try {
        await client.bind(config.BindDN, bindPassword);
      } catch (error) {
        throw unavailable(config, 'the bind DN was refused', error);
      }
    }
    // Every account: the user filter with any name in place of the login name.
    const userFilter = term(config.Filter.replace(/%\[1\]s|%s/g, () => '*'));
    const paged = config.SearchPageSize > 0 ? { paged: { pageSize: config.SearchPageSize } } : {};
    const search = async (filter: string, attributes: string[]) => {
      try {
        return (await client.search(config.UserBase, { scope: 'sub', filter, attributes, ...paged })).searchEntries;
      } catch (error) {
        throw unavailable(config, 'search failed', error);
      }
    };
    const wanted = [config.AttributeUsername, config.AttributeName, config.AttributeSurname, config.AttributeMail].filter((name) => name !== '');
    const entries = await search(userFilter, wanted.length > 0 ? wanted : ['1.1']);
    const matching = async (filter: string): Promise<Set<string> | undefined> =>
      filter.trim() === '' ? undefined : new Set((await search(`(&${userFilter}${term(filter)})`, ['1.1'])).map((entry) => entry.dn.toLowerCase()));
    const admins = await matching(config.AdminFilter);
    const restricted = await matching(config.RestrictedFilter);
    return entries.map((entry) => {
      const dn = entry.dn.toLowerCase();
      const isAdmin = admins?.has(dn);
      return {
        dn: entry.dn,
        username: firstValue(entry, config.AttributeUsername),
        firstName: firstValue(entry, config.AttributeName),
        surname: firstValue(entry, config.AttributeSurname),
        email: firstValue(entry, config.AttributeMail),
        isAdmin,
        // An administrator is never restricted (Forgejo checks the restricted filter only for others).
        isRestricted: restricted === undefined ? undefined : isAdmin ? false : restricted.has(dn),
      };
    });
  } finally {
    signal.removeEventListener('abort', stop);
    await client.unbind().catch(() => undefined);
  }
}
