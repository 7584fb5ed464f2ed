import type { Selectable } from 'kysely';

/** One counter of failed sign-ins: for a login name (`account:…`) or a client address (`address:…`). */
export interface SignInFailureTable {
  key: string;
  /** When the counter's window began: its first failure since the previous window ended. */
  window_start_unix: number;
  failures: number;
}

/** The tables the security domain owns. */
export interface SecurityTables {
  sign_in_failure: SignInFailureTable;
}

export type SignInFailure = Selectable<SignInFailureTable>;
