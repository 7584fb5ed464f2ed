import type { Readable } from 'node:stream';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../errors.js';
import type { CoreContext } from '../context.js';
import type { Actor } from '../access/actor.js';
import { AccessMode } from '../access/permissions.js';
import type { GitService, ServiceSession } from '../git/backend.js';
import { ReposService, repoKey } from './service.js';

export interface TransferRequest {
  owner: string;
  /** Repository name, with or without a `.git` suffix. */
  name: string;
  service: GitService;
  /** The client's `Git-Protocol` value; anything that is not `key=value` pairs is dropped. */
  protocol?: string;
}

const SAFE_PROTOCOL = /^[A-Za-z0-9=:._-]+$/;

/**
 * Git transfers (clone, fetch, push) over any byte stream: smart HTTP today, SSH later. Decides access with the
 * same question the API asks, and records pushes in the database when they finish.
 */
export class GitTransferService {
  constructor(private readonly ctx: CoreContext) {}

  private get repos(): ReposService {
    return this.ctx.service(ReposService);
  }

  /**
   * Resolves the repository and checks the actor may run `service` on it. Anonymous actors get Unauthorized
   * where credentials could help (pushes, private repositories) so clients know to ask for them.
   */
  private async authorize(actor: Actor, request: TransferRequest) {
    const name = request.name.replace(/\.git$/i, '');
    const needed = request.service === 'receive-pack' ? AccessMode.Write : AccessMode.Read;
    if (request.service === 'receive-pack' && actor.kind === 'anonymous') throw new UnauthorizedError();
    let access;
    try {
      access = await this.repos.resolve(actor, request.owner, name);
    } catch (error) {
      if (error instanceof NotFoundError && actor.kind === 'anonymous') throw new UnauthorizedError();
      if (error instanceof NotFoundError) throw new NotFoundError('Repository not found');
      throw error;
    }
    if (access.mode < needed) throw new ForbiddenError('User permission denied');
    if (request.service === 'receive-pack' && access.repo.is_archived === 1) throw new ForbiddenError('repository is archived');
    const key = repoKey(access.owner, access.repo);
    // A row whose storage is missing (lost, or not restored from a backup) is reported by the storage check.
    if (!(await this.ctx.git.exists(key))) throw new NotFoundError('Repository not found');
    const protocol = request.protocol && SAFE_PROTOCOL.test(request.protocol) ? request.protocol : undefined;
    return { access, key, protocol };
  }

  /** The ref advertisement for `info/refs`. */
  async advertise(actor: Actor, request: TransferRequest): Promise<Buffer> {
    const { key, protocol } = await this.authorize(actor, request);
    return this.ctx.git.advertiseRefs(key, request.service, { protocol });
  }

  /** Runs the service over `input`; `done` settles after the push (if any) is recorded. */
  async run(actor: Actor, request: TransferRequest, input: Readable, options: { stateless: boolean }): Promise<ServiceSession> {
    const { access, key, protocol } = await this.authorize(actor, request);
    const session = this.ctx.git.runService(key, request.service, { input, protocol, stateless: options.stateless });
    const done = session.done.then(async (updates) => {
      await this.repos.recordPush(actor, access, updates);
      return updates;
    });
    done.catch(() => {});
    return { output: session.output, done };
  }
}
