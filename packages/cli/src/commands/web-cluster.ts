/**
 * `repohost web --workers N`: N processes serving one HTTP port (and the SSH port), with node:cluster.
 *
 * The primary opens the installation once (migrations, the start-up repairs and their report, a new installation's
 * key file), then starts the workers, each a `repohost web` of its own with its own RepoHost, and serves nothing
 * itself. node:cluster shares the listening sockets: on Linux the primary accepts each connection and hands it to
 * the workers in turn, so a keep-alive connection stays on one worker and the load is spread evenly (the kernel's own
 * spreading over processes accepting on one socket is uneven, and SO_REUSEPORT needs Node 22.12). Across machines, a
 * reverse proxy in front of several servers does the same job.
 *
 * A worker that dies is started again after a pause that grows with each death; when workers keep dying (more than
 * MAX_RESTARTS within RESTART_WINDOW_MS) the primary stops them all and exits 1 saying so, rather than restart
 * forever. SIGINT/SIGTERM to the primary stops every worker as a single server stops: HTTP closed, then the host
 * (running jobs given back, deliveries finished), then the worker exits; the primary exits once all have.
 */
import cluster, { type Worker } from 'node:cluster';
import { rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RepoHost, UnavailableError, type Settings } from '@repohost/core';
import { startServer } from '@repohost/server';
import { cliSettings, openHost, type GlobalOptions } from '../config.js';
import type { CliIo } from '../io.js';
import { WORKER_ENV, listenFailure, reportStorage } from './web.js';

/** What the primary hands a worker through WORKER_ENV (JSON). */
interface WorkerSpec {
  config?: string;
  workPath?: string;
  port?: number;
  /** How many workers share the machine. */
  workers: number;
}

/** What a worker tells the primary. */
type WorkerMessage =
  | { repohost: 'listening'; url: string; rootUrl: string }
  | { repohost: 'failed'; message: string }
  /** A scrape of `/metrics` reached this worker: it asks for the whole cluster's. */
  | { repohost: 'metrics?'; id: number };

/** The primary's answer to `metrics?`. */
type MetricsAnswer = { repohost: 'metrics'; id: number; contentType: string; body: string } | { repohost: 'metrics'; id: number; error: string };

/**
 * prom-client's own messages between a cluster's primary and its workers (its AggregatorRegistry): the primary asks
 * each worker for its registries as JSON and aggregates them (sums, or each metric's own `aggregator`).
 */
const PROM_REQUEST = 'prom-client:getMetricsReq';
const PROM_RESPONSE = 'prom-client:getMetricsRes';
/** How long the primary waits for the workers' metrics; a worker that has not answered by then is left out. */
const METRICS_TIMEOUT_MS = 5000;

type PromClient = typeof import('prom-client');

/** prom-client, loaded when `[metrics] ENABLED` only (a CommonJS module: bundled, its exports are under `default`). */
async function loadPromClient(): Promise<PromClient> {
  const loaded = await import('prom-client');
  return ((loaded as { default?: PromClient }).default ?? loaded) as PromClient;
}

/** More deaths than this within the window is a crash loop: the primary gives up. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
/** The pause before a worker is started again: doubled with each recent death, up to the maximum. */
const RESTART_PAUSE_MS = 250;
const RESTART_PAUSE_MAX_MS = 10_000;
/** How long a stopping worker may take (jobs handed back, deliveries finished) before it is killed. */
const STOP_TIMEOUT_MS = 60_000;

export interface PrimaryOptions {
  settings: Settings;
  global: GlobalOptions;
  /** `--port`, when given. */
  port: number | undefined;
  workers: number;
  pidFile: string | undefined;
  quiet: boolean;
}

/**
 * The file the workers run: the `repohost` binary. Built, it is beside this module's bundle (dist/); run from the
 * TypeScript sources (tests drive the CLI in-process), the built one, since a worker is a plain `node` process
 * without the test runner's loader.
 */
function workerScript(): string {
  const fromSource = import.meta.url.endsWith('.ts');
  return fileURLToPath(new URL(fromSource ? '../../dist/main.js' : './main.js', import.meta.url));
}

function isWorkerMessage(message: unknown): message is WorkerMessage {
  const m = message as { repohost?: unknown } | null;
  return typeof m === 'object' && m !== null && (m.repohost === 'listening' || m.repohost === 'failed' || m.repohost === 'metrics?');
}

/**
 * The primary's side of `/metrics` for a cluster: asks every listening worker for its registry (prom-client's
 * request, answered by the AggregatorRegistry listener each worker sets up) and aggregates what arrives within
 * METRICS_TIMEOUT_MS. prom-client's own `clusterMetrics()` would ask workers still starting (which cannot answer yet)
 * and fail the scrape after its timeout; and its primary-side listener must not be installed beside this one.
 */
class ClusterMetrics {
  private next = 0;
  private readonly pending = new Map<number, { waiting: Set<number>; responses: unknown[][]; done: () => void }>();

  constructor(private readonly prom: PromClient) {}

  /** A worker's message, when it is prom-client's answer to one of our requests. */
  receive(worker: Worker, message: unknown): boolean {
    const m = message as { type?: unknown; requestId?: unknown; metrics?: unknown; error?: unknown } | null;
    if (typeof m !== 'object' || m === null || m.type !== PROM_RESPONSE || typeof m.requestId !== 'number') return false;
    const request = this.pending.get(m.requestId);
    if (!request || !request.waiting.delete(worker.id)) return true;
    if (Array.isArray(m.metrics)) request.responses.push(...(m.metrics as unknown[][]));
    if (request.waiting.size === 0) request.done();
    return true;
  }

  /** A worker is gone: nothing more will come from it. */
  forget(worker: Worker): void {
    for (const request of this.pending.values()) if (request.waiting.delete(worker.id) && request.waiting.size === 0) request.done();
  }

  async collect(workers: Worker[]): Promise<{ contentType: string; body: string }> {
    const requestId = this.next++;
    const responses: unknown[][] = [];
    await new Promise<void>((resolve) => {
      const waiting = new Set<number>();
      const timer = setTimeout(() => finish(), METRICS_TIMEOUT_MS);
      const finish = () => {
        clearTimeout(timer);
        this.pending.delete(requestId);
        resolve();
      };
      this.pending.set(requestId, { waiting, responses, done: finish });
      for (const worker of workers) {
        if (!worker.isConnected()) continue;
        waiting.add(worker.id);
        worker.send({ type: PROM_REQUEST, requestId });
      }
      if (waiting.size === 0) finish();
    });
    const registry = this.prom.AggregatorRegistry.aggregate(responses as Parameters<PromClient['AggregatorRegistry']['aggregate']>[0]);
    return { contentType: registry.contentType, body: await registry.metrics() };
  }
}

function exitText(code: number | null, signal: string | null): string {
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}

/** Runs the primary until SIGINT/SIGTERM (or `io.signal`); returns the exit code. */
export async function runPrimary(options: PrimaryOptions, io: CliIo): Promise<number> {
  const { settings, workers: count } = options;
  // Everything that must happen once, before any worker opens the database: migrations, repairs, the key file.
  let host: RepoHost | undefined = await openHost(settings, io, { announce: true });
  const closeHost = async () => {
    const open = host;
    host = undefined;
    await open?.close();
  };
  const spec: WorkerSpec = {
    config: options.global.config === undefined ? undefined : path.resolve(io.cwd, options.global.config),
    workPath: options.global.workPath === undefined ? undefined : path.resolve(io.cwd, options.global.workPath),
    port: options.port,
    workers: count,
  };
  // `/metrics` of a cluster: the worker a scrape reaches asks here, and answers with the whole cluster's.
  const clusterMetrics = settings.metrics.ENABLED ? new ClusterMetrics(await loadPromClient()) : undefined;
  const script = workerScript();
  cluster.setupPrimary({
    exec: script,
    args: ['web'],
    cwd: io.cwd,
    // From the sources the test runner's own flags are not the binary's.
    ...(import.meta.url.endsWith('.ts') ? { execArgv: [] } : {}),
  });

  /** Live workers by cluster id, and those that said they listen. */
  const live = new Map<number, Worker>();
  const listening = new Set<number>();
  /** When workers died since the cluster served (within the window). */
  const deaths: number[] = [];
  /** Set once all `count` workers first listened: from then on a death is restarted, before it fails the start. */
  let serving = false;
  let stopping = false;
  let first: Extract<WorkerMessage, { repohost: 'listening' }> | undefined;
  const failures = new Set<string>();
  /** Replacements waiting for their pause to end. */
  const restarts = new Set<NodeJS.Timeout>();

  let settle!: (code: number) => void;
  const done = new Promise<number>((resolve) => (settle = resolve));
  let exitCode = 0;
  let ready!: () => void;
  const allListening = new Promise<void>((resolve) => (ready = resolve));

  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    if (live.size === 0) settle(exitCode);
    for (const worker of live.values()) stopWorker(worker);
  };

  const stopWorker = (worker: Worker) => {
    // SIGTERM, not a message: it reaches a worker whose channel is gone too. A worker that does not finish in time
    // is killed.
    worker.process.kill('SIGTERM');
    const timer = setTimeout(() => {
      io.stderr(`worker ${worker.process.pid} did not stop within ${STOP_TIMEOUT_MS / 1000} s: killing it\n`);
      worker.process.kill('SIGKILL');
    }, STOP_TIMEOUT_MS);
    timer.unref();
    worker.process.once('exit', () => clearTimeout(timer));
  };

  const start = () => {
    const worker = cluster.fork({ ...io.env, [WORKER_ENV]: JSON.stringify(spec) });
    live.set(worker.id, worker);
    worker.on('message', (message: unknown) => {
      if (clusterMetrics?.receive(worker, message)) return;
      if (!isWorkerMessage(message)) return;
      if (message.repohost === 'metrics?') {
        const { id } = message;
        const answer = (reply: MetricsAnswer) => {
          if (worker.isConnected()) worker.send(reply);
        };
        if (!clusterMetrics) answer({ repohost: 'metrics', id, error: '[metrics] is not enabled' });
        else {
          const serving = [...live.values()].filter((w) => listening.has(w.id));
          clusterMetrics.collect(serving).then(
            ({ contentType, body }) => answer({ repohost: 'metrics', id, contentType, body }),
            (error: unknown) => answer({ repohost: 'metrics', id, error: (error as Error).message }),
          );
        }
        return;
      }
      if (message.repohost === 'failed') {
        // One that fails before the cluster serves fails the start, as a single server's failure does; a
        // replacement that fails exits, which counts as a death.
        if (serving) io.stderr(`worker ${worker.process.pid} could not start: ${message.message}\n`);
        else {
          failures.add(message.message);
          stopAll(1);
        }
        return;
      }
      listening.add(worker.id);
      first ??= message;
      if (!serving && listening.size === count) {
        serving = true;
        ready();
      }
    });
    worker.on('exit', (code, signal) => {
      live.delete(worker.id);
      listening.delete(worker.id);
      clusterMetrics?.forget(worker);
      if (stopping) {
        if (live.size === 0) settle(exitCode);
        return;
      }
      if (!serving) {
        if (failures.size === 0) failures.add(`a worker exited during start-up (${exitText(code, signal)}); see the errors above`);
        stopAll(1);
        return;
      }
      const now = Date.now();
      deaths.push(now);
      while (deaths.length > 0 && deaths[0]! <= now - RESTART_WINDOW_MS) deaths.shift();
      if (deaths.length > MAX_RESTARTS) {
        io.stderr(
          `Error: workers exited ${deaths.length} times within ${RESTART_WINDOW_MS / 1000} s (the last: ${exitText(code, signal)}); not starting them again: see the errors above. Stopping.\n`,
        );
        stopAll(1);
        return;
      }
      const pause = Math.min(RESTART_PAUSE_MAX_MS, RESTART_PAUSE_MS * 2 ** (deaths.length - 1));
      io.stderr(`worker ${worker.process.pid} exited (${exitText(code, signal)}); starting another in ${pause} ms\n`);
      // Not unref'd: with every worker dead, this timer is what keeps the primary alive.
      const timer = setTimeout(() => {
        restarts.delete(timer);
        start();
      }, pause);
      restarts.add(timer);
    });
  };

  let wrotePidFile = false;
  const onSignal = () => stopAll(exitCode);
  io.signal?.addEventListener('abort', onSignal, { once: true });
  if (!io.signal) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  try {
    for (let i = 0; i < count; i++) start();
    const started = await Promise.race([allListening.then(() => true), done.then(() => false)]);
    if (!started) {
      for (const message of failures) io.stderr(`Error: ${message}\n`);
      await closeHost();
      return exitCode;
    }
    if (options.pidFile) {
      await writeFile(options.pidFile, `${process.pid}\n`);
      wrotePidFile = true;
    }
    const shown = first!;
    if (!options.quiet) io.stdout(`RepoHost listening on ${shown.url} (ROOT_URL ${shown.rootUrl}, database ${settings.database.DB_TYPE}, ${count} workers)\n`);
    io.onListening?.(shown.url);
    // What start-up repaired, as a single server says it; storage is compared in the background, then the primary's
    // own host is closed: it serves nothing.
    const storageCheck = reportStorage(host!, io, () => void closeHost());
    const code = await done;
    clearTimeout(storageCheck);
    return code;
  } finally {
    io.signal?.removeEventListener('abort', onSignal);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await closeHost();
    if (wrotePidFile) await rm(options.pidFile!, { force: true });
  }
}

/**
 * A worker: the `repohost web` the primary started, told what to serve by WORKER_ENV. It opens its own host
 * without migrating or repairing (the primary did), serves until SIGINT/SIGTERM or until the primary is gone,
 * then stops as a single server does.
 */
export async function runWorker(io: CliIo): Promise<number> {
  try {
    return await serveAsWorker(io);
  } finally {
    // The channel to the primary would keep this process alive.
    if (process.connected) process.disconnect();
  }
}

/** Sends `message` to the primary; resolves once it is written (or at once without a channel). */
function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

async function serveAsWorker(io: CliIo): Promise<number> {
  let spec: WorkerSpec;
  try {
    spec = JSON.parse(io.env[WORKER_ENV] ?? '') as WorkerSpec;
  } catch {
    throw new Error(`${WORKER_ENV} is set for the workers of \`repohost web --workers\` only`);
  }
  // Not for the processes this one starts (git and its hooks).
  delete process.env[WORKER_ENV];
  // Until stopped: by the primary (SIGTERM), the terminal (SIGINT reaches the whole process group), or the
  // primary's death (the channel closes).
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);

  const settings = cliSettings({ config: spec.config, workPath: spec.workPath }, io, spec.port === undefined ? undefined : { server: { HTTP_PORT: spec.port } });
  shareMachine(settings, spec.workers);
  let host: RepoHost;
  try {
    host = await RepoHost.open({ settings, migrate: false, reconcile: false, noSecretKey: 'refuse' });
  } catch (error) {
    await send({ repohost: 'failed', message: (error as Error).message });
    return 1;
  }
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(host, { port: settings.server.HTTP_PORT });
  } catch (error) {
    await host.close();
    await send({ repohost: 'failed', message: listenFailure(error, settings.server.HTTP_PORT) ?? (error as Error).message });
    return 1;
  }
  if (server.metrics) await reportClusterMetrics(server.metrics);
  await send({ repohost: 'listening', url: server.url, rootUrl: settings.server.ROOT_URL });
  await stopped;
  await server.close();
  await host.close();
  return 0;
}

/**
 * The limits a single server sizes from the machine's CPUs when left at 0 (git service processes, markdown render
 * threads) are the machine's: with N workers each takes its share, so N workers together start what one would.
 * A limit set explicitly is each process's, as its documentation says.
 */
function shareMachine(settings: Settings, workers: number): void {
  const cpus = availableParallelism();
  if (settings.repohost.GIT_MAX_SERVICES === 0) settings.repohost.GIT_MAX_SERVICES = Math.max(1, Math.ceil((4 * cpus) / workers));
  if (settings.markdown.RENDER_WORKERS === 0) settings.markdown.RENDER_WORKERS = Math.max(1, Math.floor((cpus - 1) / workers));
}

/** What a worker's `/metrics` needs of the server's registry (`RunningServer.metrics`). */
interface WorkerMetrics {
  readonly registry: import('prom-client').Registry;
  expose: () => Promise<{ contentType: string; body: string }>;
}

/**
 * A worker's `/metrics` answers with the whole cluster's: it hands its registry to prom-client's cluster listener
 * (which answers the primary's requests), and a scrape asks the primary, which asks every worker (this one too).
 */
async function reportClusterMetrics(metrics: WorkerMetrics): Promise<void> {
  const prom = await loadPromClient();
  // Constructing one installs the worker's listener for the primary's requests.
  new prom.AggregatorRegistry();
  prom.AggregatorRegistry.setRegistries(metrics.registry);
  let next = 0;
  const waiting = new Map<number, (answer: MetricsAnswer) => void>();
  process.on('message', (message: unknown) => {
    const m = message as Partial<MetricsAnswer> | null;
    if (typeof m !== 'object' || m === null || m.repohost !== 'metrics' || typeof m.id !== 'number') return;
    waiting.get(m.id)?.(m as MetricsAnswer);
  });
  metrics.expose = () =>
    new Promise((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new UnavailableError('the other workers did not report their metrics in time', 5));
      }, METRICS_TIMEOUT_MS * 2);
      waiting.set(id, (answer) => {
        clearTimeout(timer);
        waiting.delete(id);
        if ('error' in answer) reject(new UnavailableError(`the cluster's metrics could not be collected: ${answer.error}`, 5));
        else resolve({ contentType: answer.contentType, body: answer.body });
      });
      void send({ repohost: 'metrics?', id });
    });
}
