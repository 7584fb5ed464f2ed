/**
 * The delivery worker: takes due tasks from the outbox, sends them through their type's formatter, records every
 * attempt, and retries failures with backoff. Pending tasks survive restarts (they are rows); one worker per host,
 * started when the host serves and stopped by `close()`, leaving no timer behind.
 */
import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { CoreContext } from '../context.js';
import { nowUnix } from '../storage/index.js';
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
  private stopped = true;
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<number>();
  private readonly redeliveries = new Set<number>();
  private matcherCache: HostMatcher | undefined;

  constructor(private readonly ctx: CoreContext) {}

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

  /** The next attempt of this task is a redelivery (asked through the API). */
  markRedelivery(taskId: number): void {
    this.redeliveries.add(taskId);
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

  /** Delivers every task due now, a bounded number at a time; returns how many attempts were made. */
  async deliverDue(): Promise<number> {
    const limit = Math.max(1, this.ctx.settings.webhook.QUEUE_LENGTH);
    const tasks = (await this.store.due(nowUnix(), limit)).filter((t) => !this.inFlight.has(t.id));
    if (tasks.length === 0) return 0;
    const hooks = new Map((await this.store.hooksByIds(tasks.map((t) => t.hook_id))).map((h) => [h.id, h]));
    let next = 0;
    const worker = async () => {
      while (next < tasks.length && !this.stopped) {
        const task = tasks[next++]!;
        const hook = hooks.get(task.hook_id);
        if (!hook) continue;
        this.inFlight.add(task.id);
        try {
          await this.deliver(task, hook);
        } catch (error) {
          // A task that cannot even be sent (its payload or format broken) is not tried again forever.
          console.error(`[repohost] webhook task ${task.id} failed to deliver:`, error);
          await this.store.updateTask(task.id, { is_delivered: 1, attempts: task.attempts + 1 }).catch(() => undefined);
        } finally {
          this.inFlight.delete(task.id);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(POOL_SIZE, tasks.length) }, worker));
    return tasks.length;
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

  /** One attempt of one task. */
  private async deliver(task: HookTask, hook: Webhook): Promise<void> {
    const settings = this.ctx.settings;
    const formatter = formatterOf(hook.type);
    const payload = JSON.parse(task.payload_content) as Record<string, unknown>;
    const meta = parseMeta(hook.meta);
    const wanted = formatter?.filesWanted?.(task.event_type as HookEventName, payload, meta);
    const content = formatter?.format(task.event_type as HookEventName, payload, {
      type: hook.type,
      url: hook.url,
      meta,
      contentType: contentTypeName(hook.content_type),
      files: wanted ? await this.readFiles(task.repo_id, wanted) : undefined,
    });
    if (!content) {
      // The type sends nothing for this event.
      await this.store.updateTask(task.id, { is_delivered: 1 });
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
    const redelivery = this.redeliveries.delete(task.id);
    await this.ctx.transaction(async (tx) => {
      const store = tx.store(WebhooksStore);
      // Deleted with its hook meanwhile: nothing to record.
      if (!(await store.findTask(task.id))) return;
      const row = await store.insertDelivery({
        hook_id: hook.id,
        task_id: task.id,
        is_redelivery: redelivery ? 1 : 0,
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
      const backoff = Math.min(MAX_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2 ** (attempts - 1));
      await store.updateTask(task.id, { attempts, is_delivered: retry ? 0 : 1, next_attempt_unix: retry ? now + backoff : task.next_attempt_unix });
      await store.update(hook.id, { last_status: succeeded ? HookStatus.Succeed : HookStatus.Fail });
      // Now and then, not per delivery: the count stays near the limit at a fraction of the cost.
      if (row.id % PRUNE_EVERY === 0) await store.pruneDeliveries(hook.id, DELIVERIES_KEPT);
    });
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
