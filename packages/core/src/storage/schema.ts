import type { Selectable } from 'kysely';

/**
 * Every table of an installation, by name. Each domain's `tables.ts` adds its own by augmenting this interface, so
 * the list needs no central edit. A store whose SQL must join a table another domain owns (a subquery over
 * `team_user`, a count over `issue`) types it as `Pick<Schema, 'issue'>` instead of importing that domain: the
 * database is shared, the domains' code is not. Writes to another domain's table still go through its port.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Schema {}

/** A row of table `T` as a query returns it: how a domain names another's row without importing that domain. */
export type Row<T extends keyof Schema> = Selectable<Schema[T]>;
