import type { CoreContext } from '../context.js';
import { NotFoundError } from '../errors.js';
import { IssuesPort } from '../issues/index.js';
import { nowUnix } from '../storage/index.js';
import { CommentsPort } from '../timeline/index.js';
import { apiUrl } from '../urls.js';
import { UsersPort } from '../users/index.js';
import type { NodeInfo, NodeInfoUsage } from './schemas.js';

/** How long the usage counts are kept before they are counted again (Forgejo caches them 180 seconds). */
const USAGE_TTL_SECONDS = 180;

/**
 * The NodeInfo 2.1 document (`GET /api/v1/nodeinfo`), served as Forgejo serves it: only with `[federation]
 * ENABLED`, its usage counts only with `SHARE_USER_STATISTICS`, counted in three queries and kept for a while.
 */
export class NodeInfoService {
  private usage?: { at: number; value: Promise<NodeInfoUsage> };

  constructor(private readonly ctx: CoreContext) {}

  get enabled(): boolean {
    return this.ctx.settings.federation.ENABLED;
  }

  /**
   * `GET /.well-known/nodeinfo` (Forgejo's `NodeInfoLinks`): where the NodeInfo document is, which other instances
   * read before they federate; only with `[federation] ENABLED`.
   */
  links(): { links: { href: string; rel: string }[] } {
    if (!this.enabled) throw new NotFoundError();
    return { links: [{ href: apiUrl(this.ctx.settings, '/nodeinfo'), rel: 'http://nodeinfo.diaspora.software/ns/schema/2.1' }] };
  }

  async nodeInfo(): Promise<NodeInfo> {
    if (!this.enabled) throw new NotFoundError();
    const usage: NodeInfoUsage = this.ctx.settings.federation.SHARE_USER_STATISTICS ? await this.countUsage() : { users: {} };
    return {
      version: '2.1',
      software: {
        name: 'forgejo',
        version: this.ctx.settings.repohost.REPORTED_VERSION,
        repository: 'https://codeberg.org/forgejo/forgejo.git',
        homepage: 'https://forgejo.org/',
      },
      protocols: ['activitypub'],
      services: { inbound: [], outbound: ['rss2.0'] },
      // RepoHost has no self-registration: accounts are made by administrators (and external sign-ins).
      openRegistrations: false,
      usage,
      metadata: {},
    };
  }

  private countUsage(): Promise<NodeInfoUsage> {
    const now = nowUnix();
    if (!this.usage || now - this.usage.at >= USAGE_TTL_SECONDS) {
      const value = this.count(now);
      this.usage = { at: now, value };
      // A failed count is not kept.
      value.catch(() => {
        if (this.usage?.value === value) this.usage = undefined;
      });
    }
    return this.usage.value;
  }

  private async count(now: number): Promise<NodeInfoUsage> {
    const monthAgo = monthsBefore(now, 1);
    const halfYearAgo = monthsBefore(now, 6);
    const [users, posts, comments] = await Promise.all([
      this.ctx.port(UsersPort).countIndividuals([monthAgo, halfYearAgo]),
      this.ctx.port(IssuesPort).countAll(),
      this.ctx.port(CommentsPort).countPlain(),
    ]);
    // Go's `omitempty`: a zero count is left out.
    const present = (n: number) => (n > 0 ? n : undefined);
    return strip({
      users: strip({ total: present(users.total), activeMonth: present(users.since[0]!), activeHalfyear: present(users.since[1]!) }),
      localPosts: present(posts),
      localComments: present(comments),
    });
  }
}

/** Go's `time.AddDate(0, -months, 0)` on a UTC date, in Unix seconds. */
function monthsBefore(unix: number, months: number): number {
  const date = new Date(unix * 1000);
  date.setUTCMonth(date.getUTCMonth() - months);
  return Math.floor(date.getTime() / 1000);
}

/** The object without its undefined members, so JSON leaves them out as Go's `omitempty` does. */
function strip<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

