import type { Selectable } from 'kysely';

/**
 * One counter of sign-in attempts that failed (or are being checked: a slot is taken before the check): for an
 * account from one address (`pair:…`), for a client address (`address:…`), or for an account from addresses it
 * never signed in from (`account:…`).
 */
export interface SignInFailureTable {
  key: string;
  /** When the counter's window began: its first failure since the previous window ended. */
  window_start_unix: number;
  failures: number;
}

/** A client network an account signed in from (`key` is a digest of both), and when it last did. */
export interface SignInKnownTable {
  key: string;
  signed_in_unix: number;
}

/** The tables the security domain owns. */
export interface SecurityTables {
  sign_in_failure: SignInFailureTable;
  sign_in_known: SignInKnownTable;
}

export type SignInFailure = Selectable<SignInFailureTable>;

declare module '../storage/schema.js' {
  interface Schema extends SecurityTables {}
}
