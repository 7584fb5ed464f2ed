/**
 * The delivery worker: takes due tasks from the outbox, sends them through their type's formatter, records every
 * attempt, and retries failures with backoff. Pending tasks survive restarts (they are rows); one worker per host,
 * started when the host serves and stopped by `close()`, leaving no timer behind.
 *
 * Several processes on one database each run one: every attempt is claimed first, as jobs and cron runs are, with
 * one conditional UPDATE that sets a lease (this process as owner, until a time), renewed while the request runs and
 * given up when the attempt is recorded. Only the holder records, so each recorded attempt was made once. A process
 * that dies mid-attempt leaves its lease to expire; then another takes the task and makes the attempt again: delivery
 * is at least once at the HTTP level (a receiver may see an attempt that never got recorded, with the same
 * `X-Forgejo-Delivery` id), and exactly once per recorded attempt.
 */
import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { CoreContext } from '../context.js';
import { UnavailableError } from '../errors.js';
import { newLeaseOwner, nowUnix, renewLease } from '../storage/index.js';
import { FULL_HEX_ID } from '../git/index.js';
import { ReposPort } from '../repos/index.js';
import { repoKey } from '../repos/index.js';
import { UsersPort } from '../users/index.js';
import { redactCredentials } from '../remote/index.js';
import { hostMatcher, type HostMatcher } from '../remote/index.js';
import { contentTypeName, parseMeta } from './convert.js';
import { formatterOf } from './formatter.js';
import type { HookEventName } from './formats/types.js';
import { decryptHeader } from './secrets.js';
import { WebhooksStore } from './store.js';
import { HookStatus, type HookTask, type Webhook } from './tables.js';

/** Deliveries in flight at once. */
const POOL_SIZE = 8;
/** Response bodies are kept up to this many bytes. */
const RESPONSE_BODY_LIMIT = 64 * 1024;
/** Backoff: 5 s, 10 s, 20 s, … capped at an hour. */
const FIRST_RETRY_SECONDS = 5;
const MAX_RETRY_SECONDS = 3600;
/** Deliveries kept per hook (older ones, and the delivered tasks they were of, are dropped). */
const DELIVERIES_KEPT = 100;
const PRUNE_EVERY = 25;
/** When nothing is due, look again after this long (another process may have queued tasks). */
const IDLE_POLL_MS = 5000;

/** The `X-Forgejo-Event` of an event type (Forgejo's `HookEventType.Event()`). */
function eventHeader(event: string): string {
  if (event.startsWith('issue_') && event !== 'issue_comment') return 'issues';
  if (event === 'issue_comment' || event === 'pull_request_comment') return 'issue_comment';
  if (event === 'pull_request_review_approved') return 'pull_request_approved';
  if (event === 'pull_request_review_rejected') return 'pull_request_rejected';
  if (event === 'pull_request_review_comment') return 'pull_request_comment';
  if (event.startsWith('pull_request')) return 'pull_request';
  return event;
}

interface SendResult {
  status: number;
  headers: Record<string, string>;
  body: string;
  error: string;
  /** Refused before sending (host not allowed): no retry. */
  refused: boolean;
}

export class HookDeliverer {
  /** This host as lease owner: host name, pid and a random part (several hosts may share a process). */
  readonly owner = newLeaseOwner();
  private stopped = true;
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  /** Tasks this host holds now: never claimed a second time here, even by an attempt that outlived its lease. */
  private readonly held = new Set<number>();
  private matcherCache: HostMatcher | undefined;

  constructor(private readonly ctx: CoreContext) {}

  /** An attempt's claim lasts this long unless renewed (`[repohost] LEASE_SECONDS`). */
  private get leaseSeconds(): number {
    return this.ctx.settings.repohost.LEASE_SECONDS;
  }

  private get store(): WebhooksStore {
    return this.ctx.store(WebhooksStore);
  }

  private get matcher(): HostMatcher {
    this.matcherCache ??= hostMatcher(this.ctx.settings.webhook.ALLOWED_HOST_LIST);
    return this.matcherCache;
  }

  get isRunning(): boolean {
    return !this.stopped;
  }

  /** Starts delivering: what is pending now (left by an earlier run too), then whatever is queued. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.wake();
  }

  /** Stops taking tasks and waits for the deliveries in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** New tasks were queued: deliver what is due now. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.loop().finally(() => {
      this.running = undefined;
      if (this.again && !this.stopped) this.wake();
    });
  }

  private async loop(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.deliverDue();
      } while (this.again && !this.stopped);
      if (this.stopped) return;
      const next = await this.store.nextDue();
      const wait = next === undefined ? IDLE_POLL_MS : Math.min(IDLE_POLL_MS, Math.max(0, next * 1000 - Date.now()) + 50);
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.wake();
      }, wait);
      this.timer.unref();
    } catch (error) {
      if (this.stopped) return;
      console.error('[repohost] webhook delivery round failed:', error);
      this.timer = setTimeout(() => this.wake(), IDLE_POLL_MS);
      this.timer.unref();
    }
  }

  /**
   * Claims and delivers the tasks due now, `POOL_SIZE` at a time and at most `[webhook] QUEUE_LENGTH` in one round
   * (another round follows at once when more were due); returns how many were claimed. Tasks other processes hold
   * are left to them.
   */
  async deliverDue(): Promise<number> {
    const next = await this.store.nextDue();
    if (next === undefined || next > nowUnix()) return 0;
    const limit = Math.max(1, this.ctx.settings.webhook.QUEUE_LENGTH);
    const attempts = new Set<Promise<void>>();
    let claimed = 0;
    try {
      while (!this.stopped && claimed < limit) {
        // Claims are made for half the pool at a time, not for each attempt that ends.
        if (attempts.size > POOL_SIZE / 2) {
          await Promise.race(attempts);
          continue;
        }
        const now = nowUnix();
        // As many as the pool has room for (and the round allows) in one statement: one write per claim was most
        // of a delivery's database cost.
        const room = Math.min(POOL_SIZE - attempts.size, limit - claimed);
        const tasks = await this.store.claimDue({ owner: this.owner, now, leaseUntil: now + this.leaseSeconds }, room, [...this.held]);
        if (tasks.length === 0) break;
        claimed += tasks.length;
        for (const task of tasks) {
          const attempt: Promise<void> = this.attempt(task, now).finally(() => attempts.delete(attempt));
          attempts.add(attempt);
        }
      }
    } finally {
      // A claim that failed (the database went away) ends the round, not the attempts already under way.
      await Promise.all(attempts);
    }
    if (claimed >= limit) this.again = true;
    return claimed;
  }

  /** One claimed attempt (claimed at `claimedUnix`), its lease renewed while it runs. */
  private async attempt(task: HookTask, claimedUnix: number): Promise<void> {
    this.held.add(task.id);
    const stopRenewing = renewLease(claimedUnix, this.leaseSeconds, (leaseUntil) => {
      this.store.renewLease(task.id, this.owner, leaseUntil).catch(() => undefined);
    });
    try {
      const hook = await this.store.findById(task.hook_id);
      // Its hook's deletion takes its tasks too: nothing is left to deliver (or to try again).
      if (!hook) await this.store.finishAttempt(task.id, this.owner, { delivered: true, nextAttemptUnix: task.next_attempt_unix, counted: false });
      else await this.deliver(task, hook);
    } catch (error) {
      // The database failed under the attempt (the outcome is not recorded): the lease expires and the attempt is
      // made again, by whichever process claims it then.
      console.error(`[repohost] webhook task ${task.id} delivery ${task.uuid}: attempt not recorded:`, error);
    } finally {
      stopRenewing();
      this.held.delete(task.id);
    }
  }

  /**
   * The files a hook type reads from the repository at the pushed commit (SourceHut builds: its manifest), at most
   * 1 MiB each; a path missing there (or a repository gone) is left out, and the formatter reports it.
   */
  private async readFiles(repoId: number, wanted: { commit: string; paths: string[] }): Promise<Record<string, string>> {
    const files: Record<string, string> = {};
    const repo = await this.ctx.port(ReposPort).byId(repoId);
    const owner = repo && (await this.ctx.port(UsersPort).byId(repo.owner_id));
    if (!repo || !owner || !FULL_HEX_ID.test(wanted.commit)) return files;
    const key = repoKey(owner, repo);
    const objects = await this.ctx.git.readObjects(key, wanted.paths.map((path) => `${wanted.commit}:${path}`), { maxBytes: 1 << 20 });
    wanted.paths.forEach((path, i) => {
      const object = objects[i];
      if (object && object.type === 'blob' && !object.truncated) files[path] = object.content.toString('utf8');
    });
    return files;
  }

  /** What a task's hook type makes of it: undefined when the type sends nothing for its event. */
  private async format(task: HookTask, hook: Webhook) {
    const formatter = formatterOf(hook.type);
    const payload = JSON.parse(task.payload_content) as Record<string, unknown>;
    const meta = parseMeta(hook.meta);
    const wanted = formatter?.filesWanted?.(task.event_type as HookEventName, payload, meta);
    return formatter?.format(task.event_type as HookEventName, payload, {
      type: hook.type,
      url: hook.url,
      meta,
      contentType: contentTypeName(hook.content_type),
      files: wanted ? await this.readFiles(task.repo_id, wanted) : undefined,
    });
  }

  /** One attempt of one task this host holds. */
  private async deliver(task: HookTask, hook: Webhook): Promise<void> {
    const settings = this.ctx.settings;
    const done = { delivered: true, nextAttemptUnix: task.next_attempt_unix, counted: false };
    let content: Awaited<ReturnType<HookDeliverer['format']>>;
    try {
      content = await this.format(task, hook);
    } catch (error) {
      // The database (read for the files a type wants) failed: not the task's fault, the attempt is made again.
      if (error instanceof UnavailableError) throw error;
      // A task that cannot even be sent (its payload or format broken) is not tried again forever.
      console.error(`[repohost] webhook task ${task.id} cannot be delivered:`, error);
      await this.store.finishAttempt(task.id, this.owner, { ...done, counted: true });
      return;
    }
    if (!content) {
      // The type sends nothing for this event.
      await this.store.finishAttempt(task.id, this.owner, done);
      return;
    }
    const url = content.url ?? hook.url;
    const method = content.method ?? (hook.http_method || 'POST');
    const event = eventHeader(task.event_type);
    const headers: Record<string, string> = {
      'User-Agent': 'GiteaServer',
      ...content.headers,
      'Content-Type': content.contentType,
      'X-Forgejo-Delivery': task.uuid,
      'X-Forgejo-Event': event,
      'X-Forgejo-Event-Type': task.event_type,
      'X-Gitea-Delivery': task.uuid,
      'X-Gitea-Event': event,
      'X-Gitea-Event-Type': task.event_type,
      'X-Gogs-Delivery': task.uuid,
      'X-Gogs-Event': event,
      'X-Gogs-Event-Type': task.event_type,
      'X-GitHub-Delivery': task.uuid,
      'X-GitHub-Event': event,
      'X-GitHub-Event-Type': task.event_type,
    };
    if (hook.secret !== '') {
      const sha256 = createHmac('sha256', hook.secret).update(content.body).digest('hex');
      const sha1 = createHmac('sha1', hook.secret).update(content.body).digest('hex');
      headers['X-Forgejo-Signature'] = sha256;
      headers['X-Gitea-Signature'] = sha256;
      headers['X-Gogs-Signature'] = sha256;
      headers['X-Hub-Signature'] = `sha1=${sha1}`;
      headers['X-Hub-Signature-256'] = `sha256=${sha256}`;
    }
    // Delivery records never hold a credential: the hook's header, or one a type adds itself (Matrix's token).
    const recorded = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, name.toLowerCase() === 'authorization' ? '******' : value]));
    const authorization = decryptHeader(settings.security.SECRET_KEY, hook.header_authorization_encrypted);
    let result: SendResult;
    const started = performance.now();
    if (authorization === undefined) {
      result = { status: 0, headers: {}, body: '', error: 'the authorization header cannot be decrypted ([security] SECRET_KEY changed?)', refused: true };
    } else {
      if (authorization !== '') {
        for (const name of Object.keys(headers)) if (name.toLowerCase() === 'authorization') delete headers[name];
        headers['Authorization'] = authorization;
        recorded['Authorization'] = '******';
      }
      result = await this.send(url, method, headers, content.body);
    }
    const duration = Math.round(performance.now() - started);
    // Never sent and never retried: the delivery record below and this line are all an operator will see of it.
    if (result.refused) console.warn(redactCredentials(`[repohost] webhook ${hook.id} delivery ${task.uuid} (${task.event_type}) to ${url} refused: ${result.error}`));
    const succeeded = result.error === '' && result.status >= 200 && result.status < 300;
    const attempts = task.attempts + 1;
    const retry = !succeeded && !result.refused && attempts < Math.max(1, settings.webhook.MAX_ATTEMPTS);
    const now = nowUnix();
    const backoff = Math.min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** (attempts - 1));
    const kept = await this.ctx.transaction(async (tx) => {
      const store = tx.store(WebhooksStore);
      // The hook's lock first, as its deletion and pruning take it: they wait for this record or it for them.
      await store.lockHooks([hook.id]);
      // Only while this host still holds the task: otherwise it was taken over after the lease expired (the other
      // process records its own attempt), asked for again, or deleted with its hook. Nothing is recorded then.
      const held = await store.finishAttempt(task.id, this.owner, { delivered: !retry, nextAttemptUnix: retry ? now + backoff : task.next_attempt_unix, counted: true });
      if (!held) return false;
      const row = await store.insertDelivery({
        hook_id: hook.id,
        task_id: task.id,
        is_redelivery: task.is_redelivery === 1 ? 1 : 0,
        is_succeed: succeeded ? 1 : 0,
        request_url: url,
        request_method: method,
        request_headers: JSON.stringify(recorded),
        request_body: content.body,
        response_status: result.status,
        response_headers: JSON.stringify(result.headers),
        response_body: result.body,
        duration_ms: duration,
        error: result.error,
        delivered_unix: now,
      });
      await store.update(hook.id, { last_status: succeeded ? HookStatus.Succeed : HookStatus.Fail });
      return row.id;
    });
    if (kept === false) {
      console.warn(`[repohost] webhook ${hook.id} delivery ${task.uuid}: the attempt was not recorded (the task was taken over, asked for again or deleted meanwhile)`);
      return;
    }
    // Forgejo's "Unable to deliver webhook task": the receiver may have had the request (a reply that came too late),
    // and gets it again, with the same delivery id, at the next attempt.
    if (result.error !== '' && !result.refused) {
      console.warn(redactCredentials(`[repohost] webhook ${hook.id} delivery ${task.uuid}: unable to deliver (${result.error})${retry ? `; next attempt in ${backoff} s` : ''}`));
    }
    // Now and then, not per delivery: the count stays near the limit at a fraction of the cost. After the record, in
    // a transaction of its own (a pruning that fails loses no record), under the hook's lock: two processes never
    // prune one hook at once, and a deletion of the hook waits for it.
    if (kept % PRUNE_EVERY === 0) {
      await this.ctx
        .transaction(async (tx) => {
          const store = tx.store(WebhooksStore);
          await store.lockHooks([hook.id]);
          await store.pruneDeliveries(hook.id, DELIVERIES_KEPT);
        })
        .catch((error: unknown) => console.error(`[repohost] webhook ${hook.id}: old deliveries not pruned (the next pruning will):`, error));
    }
  }

  /** Sends one request to an allowed address, within `[webhook] DELIVER_TIMEOUT`. */
  private async send(rawUrl: string, method: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const failed = (error: string, refused = false): SendResult => ({ status: 0, headers: {}, body: '', error, refused });
    let target: URL;
    try {
      target = new URL(rawUrl);
    } catch {
      return failed(`invalid URL: ${rawUrl}`, true);
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return failed(`unsupported URL scheme ${target.protocol}`, true);
    const hostname = target.hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: { address: string; family: number }[];
    try {
      addresses = isIP(hostname) ? [{ address: hostname, family: isIP(hostname) }] : await lookup(hostname, { all: true });
    } catch (error) {
      return failed(`cannot resolve ${hostname}: ${(error as Error).message}`);
    }
    const matcher = this.matcher;
    const chosen = matcher.allowsName(hostname) ? addresses[0] : addresses.find((a) => matcher.allowsAddress(a.address));
    if (!chosen) {
      const denied = addresses.map((a) => a.address).join(', ');
      return failed(`webhook can only call allowed HTTP servers (check your webhook.ALLOWED_HOST_LIST setting), deny '${hostname}(${denied})'`, true);
    }
    const timeoutMs = Math.max(1, this.ctx.settings.webhook.DELIVER_TIMEOUT) * 1000;
    const client = target.protocol === 'https:' ? https : http;
    return new Promise<SendResult>((resolve) => {
      // Headers node refuses (characters outside Latin-1) end the attempt as a failure, not as a thrown error.
      for (const [name, value] of Object.entries(headers)) {
        try {
          http.validateHeaderName(name);
          http.validateHeaderValue(name, value);
        } catch (error) {
          resolve(failed(`invalid header ${name}: ${(error as Error).message}`, true));
          return;
        }
      }
      let settled = false;
      const finish = (result: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const request = client.request(
        target,
        {
          method,
          headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
          // Connect to the address that was checked, not to whatever the name resolves to next.
          lookup: (_host, options, callback) => {
            if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [chosen]);
            else (callback as (e: null, a: string, f: number) => void)(null, chosen.address, chosen.family);
          },
          rejectUnauthorized: !this.ctx.settings.webhook.SKIP_TLS_VERIFY,
          agent: false,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk.subarray(0, RESPONSE_BODY_LIMIT - size));
            size += chunk.length;
          });
          response.on('end', () => {
            const responseHeaders: Record<string, string> = {};
            for (const [name, value] of Object.entries(response.headers)) {
              if (value !== undefined) responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
            }
            finish({ status: response.statusCode ?? 0, headers: responseHeaders, body: Buffer.concat(chunks).toString('utf8'), error: '', refused: false });
          });
          response.on('error', (error) => finish(failed(error.message)));
        },
      );
      const timer = setTimeout(() => {
        request.destroy(new Error(`timed out after ${timeoutMs / 1000} s`));
      }, timeoutMs);
      request.on('error', (error) => finish(failed(error.message)));
      request.end(body);
    });
  }
}
