/**
 * Sign-in through an external directory (LDAP), as the users domain asks it. The login sources domain implements
 * it and provides it as `users.directory`: it sits above this one because it creates accounts.
 */

/** What a directory holds of an account, as far as sign-in and auto-registration read it. */
export interface DirectoryAccount {
  /** The username attribute's value; the login name when the attribute is not configured or empty. */
  username: string;
  firstName: string;
  surname: string;
  email: string;
  /** Whether the admin filter matches the entry; undefined when the source has no admin filter. */
  isAdmin: boolean | undefined;
  /** Whether the restricted filter matches (never for an admin); undefined when the source has none. */
  isRestricted: boolean | undefined;
}

/** A directory's answer for a sign-in: the source that answered and what it holds of the account. */
export interface DirectorySignIn<Source extends { id: number } = { id: number }, Entry extends DirectoryAccount = DirectoryAccount> {
  source: Source;
  entry: Entry;
}

export interface DirectoryAuth {
  /**
   * A sign-in by a name no account has: the first active directory that knows the name and accepts the password,
   * or null. Throws UnavailableError when none does and one of them could not be asked.
   */
  discover(login: string, password: string): Promise<DirectorySignIn | null>;
  /**
   * The password check of an account bound to source `sourceId`: the directory's answer (`entry` null when it
   * refuses), or null when there is no directory to ask (the source is gone, inactive, or not a directory).
   */
  verify(sourceId: number, loginName: string, password: string): Promise<{ entry: DirectoryAccount | null } | null>;
  /** Does a login source with this id exist (what `source_id` on the admin user options must name)? */
  exists(id: number): Promise<boolean>;
}

declare module '../context.js' {
  interface CoreProviders {
    'users.directory': DirectoryAuth;
  }
}
