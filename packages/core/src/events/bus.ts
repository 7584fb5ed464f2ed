/**
 * Payloads by event type. Each domain declares its own events next to its code, by augmenting this interface
 * (`declare module '../events/bus.js' { interface DomainEventMap { 'repo.created': … } }`), so the bus never
 * imports a domain.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface DomainEventMap {}

export type DomainEventType = keyof DomainEventMap & string;

export interface DomainEvent<K extends DomainEventType = DomainEventType> {
  readonly type: K;
  readonly payload: DomainEventMap[K];
  /** Unix seconds at emission. */
  readonly occurredUnix: number;
}

/** Any one event, discriminated by `type`. */
export type AnyDomainEvent = { [K in DomainEventType]: DomainEvent<K> }[DomainEventType];
type AnyEvent = AnyDomainEvent;
type Handler<E> = (event: E) => void | Promise<void>;
type TransactionHandler<E, Tx> = (event: E, tx: Tx) => Promise<void>;

/**
 * The in-process event channel. Services emit inside a transaction; events reach two kinds of subscribers:
 * - `on`: after the transaction commits, asynchronously; a failing handler is reported, never undoes the change.
 *   For consumers that may lose an event when the process dies (caches, in-process notifications, tests).
 * - `withinTransaction`: before commit, inside the same transaction, with its stores; a failure rolls the change
 *   back. For consumers that must not lose an event: they write an outbox row here (webhook deliveries, mirror
 *   syncs, action runs) and a worker delivers it afterwards.
 * Events of a transaction that rolls back reach nobody.
 */
export class DomainEvents<Tx> {
  private readonly handlers = new Map<string, Handler<AnyEvent>[]>();
  private readonly transactionHandlers = new Map<string, TransactionHandler<AnyEvent, Tx>[]>();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly reportError: (error: unknown, event: AnyEvent) => void = defaultReport) {}

  /** Calls `handler` after each committed `type` event (`'*'`: every event). Returns an unsubscribe function. */
  on<K extends DomainEventType>(type: K, handler: Handler<DomainEvent<K>>): () => void;
  on(type: '*', handler: Handler<AnyEvent>): () => void;
  on(type: string, handler: Handler<never>): () => void {
    return add(this.handlers, type, handler as Handler<AnyEvent>);
  }

  /** Calls `handler` inside the emitting transaction, just before it commits (`'*'`: every event). */
  withinTransaction<K extends DomainEventType>(type: K, handler: TransactionHandler<DomainEvent<K>, Tx>): () => void;
  withinTransaction(type: '*', handler: TransactionHandler<AnyEvent, Tx>): () => void;
  withinTransaction(type: string, handler: TransactionHandler<never, Tx>): () => void {
    return add(this.transactionHandlers, type, handler as TransactionHandler<AnyEvent, Tx>);
  }

  /** Resolves once every after-commit handler started so far has finished (tests, orderly shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** @internal Runs the in-transaction handlers of a transaction's events, in emission order. */
  async beforeCommit(events: readonly AnyEvent[], tx: Tx): Promise<void> {
    if (this.transactionHandlers.size === 0) return;
    for (const event of events) {
      for (const handler of handlersOf(this.transactionHandlers, event.type)) await handler(event, tx);
    }
  }

  /** @internal Hands a committed transaction's events to the after-commit handlers. */
  afterCommit(events: readonly AnyEvent[]): void {
    if (this.handlers.size === 0 || events.length === 0) return;
    const run = (async () => {
      // Not in the caller's turn: a handler must not delay the response to the change that caused it.
      await Promise.resolve();
      for (const event of events) {
        for (const handler of handlersOf(this.handlers, event.type)) {
          try {
            await handler(event);
          } catch (error) {
            this.reportError(error, event);
          }
        }
      }
    })();
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }
}

function add<H>(map: Map<string, H[]>, type: string, handler: H): () => void {
  const list = map.get(type) ?? [];
  map.set(type, [...list, handler]);
  return () => {
    const next = (map.get(type) ?? []).filter((h) => h !== handler);
    if (next.length > 0) map.set(type, next);
    else map.delete(type);
  };
}

function handlersOf<H>(map: Map<string, H[]>, type: string): H[] {
  const specific = map.get(type);
  const any = map.get('*');
  if (!any) return specific ?? [];
  return specific ? [...specific, ...any] : any;
}

function defaultReport(error: unknown, event: { type: string }): void {
  console.error(`[repohost] a handler of ${event.type} failed:`, error);
}
