/**
 * `RepoHostClient`: the generated operations bound to one transport, grouped by tag (`client.repos.get(owner,
 * repo)`, `client.issues.listIssues(owner, repo, { state })`).
 */
import { groups } from './generated.js';
import { createTransport, type CallRequest, type ClientOptions, type Transport } from './transport.js';

/** An operation with its transport bound: the same parameters after the transport. */
export type Bound<F> = F extends (transport: Transport, ...args: infer A) => infer R ? (...args: A) => R : never;

/** A group of operations (`typeof repos`) as the client offers it. */
export type BoundGroup<G> = { readonly [K in keyof G]: Bound<G[K]> };

type Groups = typeof groups;

export interface RepoHostClient extends Readonly<{ [G in keyof Groups]: BoundGroup<Groups[G]> }> {}

/**
 * A client of one RepoHost (or Forgejo, Gitea) server. Every operation of the API is a method of its tag's group;
 * `request` sends anything else.
 *
 * ```ts
 * const client = new RepoHostClient({ url: 'http://localhost:3000', auth: { token } });
 * const repo = await client.repos.createCurrentUserRepo({ name: 'demo', auto_init: true });
 * for await (const issue of client.issues.listIssues('alice', 'demo', { state: 'open' })) console.log(issue.title);
 * ```
 */
export class RepoHostClient {
  readonly transport: Transport;
  readonly options: ClientOptions;

  constructor(options: ClientOptions) {
    this.options = options;
    this.transport = createTransport(options);
    // Each group is bound on first use. Done here rather than on the prototype at load, so that the module has no
    // side effects and a bundle importing only some operations (`repoGet`) leaves the others out.
    for (const [name, group] of Object.entries(groups)) {
      Object.defineProperty(this, name, {
        configurable: true,
        enumerable: true,
        get: () => {
          const bound = bindGroup(group, this.transport);
          Object.defineProperty(this, name, { value: bound, enumerable: true });
          return bound;
        },
      });
    }
  }

  /** The same client acting as another user (`Sudo`; the credentials must be a site administrator's). */
  sudo(username: string): RepoHostClient {
    return new RepoHostClient({ ...this.options, sudo: username });
  }

  /** Any call, answered as its response (after the status check: an `ApiError` for 400 and more). */
  request(request: CallRequest): Promise<Response> {
    return this.transport.send(request);
  }
}

/** A group's operations with their transport bound. */
function bindGroup(group: object, transport: Transport): object {
  const bound: Record<string, unknown> = {};
  for (const [method, operation] of Object.entries(group)) {
    bound[method] = (...args: unknown[]) => (operation as (t: Transport, ...a: unknown[]) => unknown)(transport, ...args);
  }
  return Object.freeze(bound);
}
