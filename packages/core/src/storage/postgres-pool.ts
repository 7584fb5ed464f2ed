/**
 * PostgreSQL going away under load (a restart, `pg_terminate_backend`, a failover, too many clients): requests fail
 * with a `DatabaseUnavailableError` (503, try again) instead of a 500 or a hang, the process lives on, and the pool
 * opens new connections once the server is back, with no restart of RepoHost.
 *
 * How a lost connection surfaces through `pg` and Kysely:
 * - the statement running on it fails with the server's error (57P01 `terminating connection due to administrator
 *   command`) or node-postgres's own (`Connection terminated unexpectedly`, a socket error); a connection asked for
 *   while the server is down fails to open (ECONNREFUSED, 57P03 `the database system is starting up`);
 * - the client then emits `error`. pg-pool listens while the client is idle (it drops the client and re-emits the
 *   error on the pool), but not while Kysely holds it, and an `error` event nobody listens to ends the process: the
 *   pool and every client it opens get a listener here;
 * - Kysely releases the client after the failed statement (or rollback); a client whose connection failed is
 *   released as broken, so the pool drops it instead of handing it to the next request.
 */
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type { Pool, PoolClient } from 'pg';
import { DatabaseUnavailableError } from '../errors.js';
import { isContention } from './contention.js';

/**
 * SQLSTATEs that say "not now" rather than "wrong": the server shut the connection (57P01 admin shutdown, 57P02
 * crash shutdown), is starting or stopping (57P03), has no room (53300), or ended the transaction for a retry
 * (40001 serialization failure, 40P01 deadlock). Class 08, connection exceptions, is matched as a whole.
 */
const TRANSIENT_SQLSTATES: ReadonlySet<string> = new Set(['57P01', '57P02', '57P03', '53300', '40001', '40P01']);
/** Node's socket errors for a server that cannot be reached or went away. */
const SOCKET_ERRORS: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN', 'EAI_AGAIN']);
/** node-postgres's own words for a connection that ended, or could not be had in time. */
const DRIVER_MESSAGES = ['Connection terminated', 'is not queryable', 'timeout exceeded when trying to connect'];

/** Whether a driver error means the database could not answer now (see `TRANSIENT_SQLSTATES`), not that the query was wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (!error || typeof error !== 'object') return false;
  // Node reports a refused connection to every address of a name as one AggregateError.
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || TRANSIENT_SQLSTATES.has(code) || SOCKET_ERRORS.has(code))) return true;
  return typeof message === 'string' && DRIVER_MESSAGES.some((words) => message.includes(words));
}

/** The error to throw for a driver error: a DatabaseUnavailableError when the database could not answer, else itself. */
function translated(error: unknown): unknown {
  return isDatabaseUnavailable(error) && !(error instanceof DatabaseUnavailableError) ? new DatabaseUnavailableError(error) : error;
}

/** Connection losses are logged at most this often (a restart fails every connection at once). */
const REPORT_EVERY_MS = 10_000;

/**
 * The pool Kysely is given: connections and statements that fail because the database went away throw a
 * DatabaseUnavailableError; every client has an `error` listener; a client whose connection failed goes back to
 * pg-pool as broken (it is closed, and the next request gets a new connection).
 */
export function guardedPool(pool: Pool, log: (message: string) => void = (message) => console.error(message)): PostgresPool {
  let lastReport = 0;
  let unreported = 0;
  const report = (error: Error) => {
    const now = Date.now();
    if (now - lastReport < REPORT_EVERY_MS) {
      unreported++;
      return;
    }
    const more = unreported > 0 ? ` (and ${unreported} more since the last report)` : '';
    lastReport = now;
    unreported = 0;
    log(`[repohost] database connection lost: ${error.message}${more}; new connections are opened as requests need them`);
  };
  // An idle client's connection failed: pg-pool has dropped it already and re-emits the error here.
  pool.on('error', report);
  // A client Kysely holds has no pool listener: without one of its own, its `error` event would end the process.
  // The statement running on it fails with the same error, which is what the request sees.
  pool.on('connect', (client) => client.on('error', report));
  const clients = new WeakMap<PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      let client: PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw translated(error);
      }
      let guarded = clients.get(client);
      if (!guarded) clients.set(client, (guarded = guardedClient(client)));
      return guarded;
    },
    end: () => pool.end(),
  };
}

function guardedClient(client: PoolClient): PostgresPoolClient {
  // Set when a statement failed for want of a connection, until the client goes back to the pool (as broken).
  let broken = false;
  const query = (text: string | PostgresCursor<unknown>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<unknown>> | PostgresCursor<unknown> => {
    // Kysely streams through a cursor object, which reports its own errors as it is read.
    if (typeof text !== 'string') return client.query(text as never) as unknown as PostgresCursor<unknown>;
    return (client.query(text, parameters as unknown[]) as unknown as Promise<PostgresQueryResult<unknown>>).catch((error: unknown) => {
      const thrown = translated(error);
      // A serialization failure or deadlock ended the transaction, not the connection: it goes back to the pool.
      if (thrown instanceof DatabaseUnavailableError && !isContention(error)) broken = true;
      throw thrown;
    });
  };
  return {
    query: query as PostgresPoolClient['query'],
    release() {
      // pg-pool sets `release` anew each time it hands the client out: the current one is called. A truthy argument
      // makes the pool close the client and forget it.
      const destroy = broken;
      broken = false;
      client.release(destroy || undefined);
    },
  };
}
