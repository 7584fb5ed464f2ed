import type { Settings } from './config/settings.js';
import type { Storage, DialectName } from './storage/database.js';
import { StoreScope, type StoreClass, type PortClass } from './storage/store.js';
import type { GitBackend } from './git/backend.js';
import { DomainEvents, type AnyDomainEvent, type DomainEventMap, type DomainEventType } from './events/bus.js';
import { nowUnix } from './storage/database.js';

/** A service class: built once per host, from the context, the first time anything asks for it. */
export type ServiceClass<S> = new (ctx: CoreContext) => S;

/**
 * Interfaces a lower domain declares and a higher one implements, so the lower one calls up without importing it:
 * the lower domain augments this map (`declare module '../context.js' { interface CoreProviders { 'x.y': Y } }`)
 * and the higher one registers the implementation in its record's `provide` (`domain.ts`). Unlike an event, the
 * call is synchronous and may run inside the caller's transaction (the caller passes its `tx`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface CoreProviders {}

/** What a transaction gives the code that runs inside it. */
export interface CoreTransaction {
  /** A store bound to this transaction. */
  store<S>(cls: StoreClass<S>): S;
  /** Another domain's port (its `port.ts`) bound to this transaction: what that domain lets others read and write. */
  port<P>(cls: PortClass<P>): P;
  /** Queues an event: in-transaction subscribers run before commit, the others after it; none if it rolls back. */
  emit<K extends DomainEventType>(type: K, payload: DomainEventMap[K]): void;
}

/**
 * What every domain service is built over: settings, git, storage and the event channel. One per RepoHost
 * instance; nothing here is global. Services and stores are found by class and built lazily, so adding a domain
 * never means editing a construction order.
 */
export class CoreContext {
  readonly events = new DomainEvents<CoreTransaction>();
  private readonly root: StoreScope;
  private readonly services = new Map<Function, unknown>();
  private readonly building = new Set<Function>();
  private readonly providers = new Map<string, unknown>();

  constructor(
    readonly settings: Settings,
    private readonly storage: Storage,
    readonly git: GitBackend,
  ) {
    this.root = new StoreScope(storage, storage.db, settings.repohost.LEASE_SECONDS);
  }

  get dialect(): DialectName {
    return this.storage.dialect;
  }

  /** A store outside any transaction: each statement commits on its own. */
  store<S>(cls: StoreClass<S>): S {
    return this.root.store(cls);
  }

  /** Another domain's port (its `port.ts`) outside any transaction: what that domain lets others read and write. */
  port<P>(cls: PortClass<P>): P {
    return this.root.store(cls);
  }

  /** Registers the implementation of a provider interface (see `CoreProviders`); once per key. */
  provide<K extends keyof CoreProviders & string>(key: K, implementation: CoreProviders[K]): void {
    if (this.providers.has(key)) throw new Error(`provider ${key} is registered twice`);
    this.providers.set(key, implementation);
  }

  /** The registered implementation of a provider interface; a missing one is a wiring error, not a user's. */
  provider<K extends keyof CoreProviders & string>(key: K): CoreProviders[K] {
    const implementation = this.providers.get(key);
    if (implementation === undefined) throw new Error(`no domain provides ${key}: is its record listed in domains.ts?`);
    return implementation as CoreProviders[K];
  }

  /** The host's one instance of a service. */
  service<S>(cls: ServiceClass<S>): S {
    let service = this.services.get(cls) as S | undefined;
    if (service) return service;
    // A constructor that asks for a service whose constructor asks back would recurse forever: say so instead.
    if (this.building.has(cls)) throw new Error(`service ${cls.name} depends on itself while being built; ask for it lazily`);
    this.building.add(cls);
    try {
      service = new cls(this);
    } finally {
      this.building.delete(cls);
    }
    this.services.set(cls, service);
    return service;
  }

  /** Runs `work` in one database transaction; its events go out after commit. */
  async transaction<T>(work: (tx: CoreTransaction) => Promise<T>): Promise<T> {
    const events: AnyDomainEvent[] = [];
    const result = await this.storage.db.transaction().execute(async (trx) => {
      const scope = new StoreScope(this.storage, trx, this.settings.repohost.LEASE_SECONDS);
      const tx: CoreTransaction = {
        store: (cls) => scope.store(cls),
        port: (cls) => scope.store(cls),
        emit: (type, payload) => {
          events.push({ type, payload, occurredUnix: nowUnix() } as AnyDomainEvent);
        },
      };
      const value = await work(tx);
      await this.events.beforeCommit(events, tx);
      return value;
    });
    this.events.afterCommit(events);
    return result;
  }
}
