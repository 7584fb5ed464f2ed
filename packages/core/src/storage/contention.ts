/** Driver codes of a write that lost to another transaction or process: PostgreSQL's serialization failure and deadlock. */
const CONTENTION_SQLSTATES: ReadonlySet<string> = new Set(['40001', '40P01']);

/**
 * True when an error says a statement or transaction lost to another one's locks and changed nothing, so trying
 * it again is safe: SQLite busy or locked (SQLITE_BUSY*, SQLITE_LOCKED*), a PostgreSQL serialization failure
 * (40001) or deadlock (40P01). The driver's error is found behind the errors that wrap it (`cause`): the SQLite
 * driver's 503 after its own wait, and the `DatabaseUnavailableError` of PostgreSQL's guarded pool. The one test
 * for every retry on contention.
 */
export function isContention(error: unknown): boolean {
  let current = error;
  // A few wrappers at most; the bound keeps a cycle of causes from looping.
  for (let depth = 0; depth < 8 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || CONTENTION_SQLSTATES.has(code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
