import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { H3 } from 'h3';
import { FastResponse } from 'srvx';
import { toNodeHandler } from 'h3/node';
import { NodeInfoService, NotFoundError, derivedRootUrl, type RepoHost } from '@repohost/core';
import { ApiRouter, H3WithHead, apiResponseHeaders, errorResponse, unroutedErrorResponse } from './api/router.js';
import type { RegisteredRoute } from './api/contract.js';
import { buildOpenApiDocument } from './api/openapi.js';
import { registerRoutes } from './api/routes/index.js';
import { registerSmartHttp } from './git/smart-http.js';
import { registerLfs } from './git/lfs.js';
import { registerAvatars } from './avatars.js';
import { registerOAuth2Provider } from './oauth2-provider.js';
import { registerTwoFactorPages } from './two-factor-pages.js';
import { registerAttachmentDownloads } from './api/routes/attachments.js';
import { registerGenericPackages } from './packages/generic.js';
import { registerNpmPackages } from './packages/npm.js';
import { registerMavenPackages } from './packages/maven.js';
import { registerPypiPackages } from './packages/pypi.js';
import { registerCargoPackages } from './packages/cargo.js';
import { registerContainerPackages } from './packages/container.js';
import { registerGoPackages } from './packages/goproxy.js';
import { registerDebianPackages } from './packages/debian.js';
import { registerComposerPackages } from './packages/composer.js';
import { registerHelmPackages } from './packages/helm.js';
import { registerRunnerProtocol } from './actions/protocol.js';
import { registerArtifactsProtocol } from './actions/artifacts.js';
import { startSshServer, type RunningSshServer } from './ssh/server.js';
import { accessLogOf, requestObserverHook, type RequestObserver } from './access-log.js';
import { bindClientAddresses } from './client-address.js';
import { registerHealthz } from './healthz.js';
import { registerSwaggerUi, registerWebPages } from './web/index.js';
import { closeHighlighter } from './web/highlight.js';
import { ServerMetrics, registerMetrics } from './metrics.js';

export interface RepoHostApp {
  /** The h3 application: mount it, or call `app.fetch(request)` in-process. */
  readonly app: H3;
  /** Every API route, as registered: what the swagger document describes. */
  readonly routes: readonly RegisteredRoute[];
  /** The swagger 2.0 document generated from the routes' schemas (built on first use). */
  openapi(): Record<string, unknown>;
  /**
   * The Prometheus registry and exposition (`metrics.ts`), when `[metrics] ENABLED`; it resolves once prom-client
   * has loaded.
   */
  readonly metrics?: Promise<ServerMetrics>;
  /**
   * Resolves when what the app opens or loads beside the host is ready (the access log's file, the metrics
   * library); rejects with the reason when it cannot be (the log folder cannot be written). `startServer` waits for
   * it before listening.
   */
  ready(): Promise<void>;
  /** Writes out and closes the access log. The host stays open. */
  close(): Promise<void>;
}

/** Builds the HTTP application (API v1, swagger document, git smart HTTP) over a RepoHost. */
export function createApp(host: RepoHost): RepoHostApp {
  // `[log] ENABLE_ACCESS_LOG` and `[metrics] ENABLED`: each request served by Node is followed to its response's end.
  const accessLog = accessLogOf(host);
  const metrics = host.settings.metrics.ENABLED ? ServerMetrics.create(host, { accessLog: accessLog?.writer }) : undefined;
  let loadedMetrics: ServerMetrics | undefined;
  void metrics?.then((loaded) => (loadedMetrics = loaded), () => undefined);
  const observers: RequestObserver[] = [];
  if (accessLog) observers.push(accessLog.observe);
  if (metrics) observers.push((outcome) => loadedMetrics?.observe(outcome));
  const onRequest = observers.length > 0 ? requestObserverHook(observers, { countBody: accessLog !== undefined }) : undefined;
  // HEAD on every GET route; what h3 refuses before any route runs (a malformed path) in the API's error format.
  const app = new H3WithHead({
    onError: (error, event) => {
      // A malformed path is refused before `onRequest` runs: it is followed (logged, counted) from here.
      onRequest?.(event);
      return unroutedErrorResponse(host, error, event);
    },
    ...(onRequest && { onRequest }),
  });
  // Client addresses as the trusted proxies report them (`[security] REVERSE_PROXY_*`).
  bindClientAddresses(app, host);
  const router = new ApiRouter(app, host);
  registerRoutes(router);
  // Built when first asked for: nothing at start-up needs it.
  let openapi: Record<string, unknown> | undefined;
  let openapiJson: string | undefined;
  let openapiLength = '';
  const document = () => (openapi ??= buildOpenApiDocument(router.routes, { version: host.settings.repohost.REPORTED_VERSION }));
  if (host.settings.api.ENABLE_SWAGGER) {
    app.get('/swagger.v1.json', () => {
      if (openapiJson === undefined) {
        openapiJson = JSON.stringify(document());
        openapiLength = String(Buffer.byteLength(openapiJson));
      }
      return new FastResponse(openapiJson, { headers: { 'content-type': 'application/json;charset=utf-8', 'content-length': openapiLength } });
    });
  }
  registerHealthz(app, host);
  // `/api/swagger`: Swagger UI over the document above (`[api] ENABLE_SWAGGER`).
  registerSwaggerUi(app, host);
  // Where the NodeInfo document is (Forgejo's web route, mounted with `[federation] ENABLED` only): other instances
  // read it before they federate.
  if (host.settings.federation.ENABLED) {
    app.get('/.well-known/nodeinfo', () => {
      const body = JSON.stringify(host.service(NodeInfoService).links());
      return new FastResponse(body, { headers: { 'content-type': 'application/json;charset=utf-8', 'content-length': String(Buffer.byteLength(body)) } });
    });
  }
  // Anything else under /api answers in the API's JSON error format.
  app.all('/api/**', () => errorResponse(host, new NotFoundError(), apiResponseHeaders()));
  registerSmartHttp(app, host);
  registerLfs(app, host);
  registerAvatars(app, host);
  registerOAuth2Provider(app, host);
  registerTwoFactorPages(app, host);
  registerAttachmentDownloads(app, host);
  registerGenericPackages(app, host);
  registerNpmPackages(app, host);
  registerMavenPackages(app, host);
  registerPypiPackages(app, host);
  registerCargoPackages(app, host);
  registerContainerPackages(app, host);
  registerGoPackages(app, host);
  registerDebianPackages(app, host);
  registerComposerPackages(app, host);
  registerHelmPackages(app, host);
  registerRunnerProtocol(app, host);
  registerArtifactsProtocol(app, host);
  if (metrics) registerMetrics(app, host, metrics);
  // The read-only pages behind `html_url`s (`/{owner}`, `/{owner}/{repo}/…`): their parameters match only what no
  // route above names.
  registerWebPages(app, host);
  app.all('/**', () => errorResponse(host, new NotFoundError()));
  return {
    app,
    routes: router.routes,
    openapi: document,
    ...(metrics && { metrics }),
    ready: async () => {
      await Promise.all([accessLog?.writer.open(), metrics]);
    },
    close: async () => {
      await accessLog?.writer.close();
      // The pages' highlight thread, if a page started one.
      await closeHighlighter(host);
    },
  };
}

export interface ListenOptions {
  /** Port to listen on; 0 picks a free one. Defaults to `[server] HTTP_PORT`. */
  port?: number;
  /** Address to listen on. Defaults to `[server] HTTP_ADDR`. */
  hostname?: string;
}

export interface RunningServer {
  readonly server: Server;
  /** Every API route the server registered. */
  readonly routes: readonly RegisteredRoute[];
  /** The address actually listened on, e.g. `http://127.0.0.1:3000/`. */
  readonly url: string;
  /** The built-in SSH server, when `[server] START_SSH_SERVER` is on (and `DISABLE_SSH` off). */
  readonly ssh?: RunningSshServer;
  /** The Prometheus registry behind `/metrics`, when `[metrics] ENABLED` (for a cluster worker to hand to prom-client's AggregatorRegistry). */
  readonly metrics?: ServerMetrics;
  close(): Promise<void>;
}

/**
 * A ROOT_URL derived from `[server] HTTP_PORT` names the port actually listened on (port 0, or another `port`
 * given to startServer), so `clone_url` and every absolute URL are reachable. A ROOT_URL given explicitly
 * (app.ini, environment, or an embedder's overrides) is left as it is: a proxy may stand in front.
 */
function followListeningPort(settings: RepoHost['settings'], port: number): void {
  const { server } = settings;
  if (port === server.HTTP_PORT || server.ROOT_URL !== derivedRootUrl(settings)) return;
  server.HTTP_PORT = port;
  server.ROOT_URL = derivedRootUrl(settings);
}

/** How often Node looks for connections past the headers deadline (30 s by default, too coarse for it). */
const CONNECTIONS_CHECKING_INTERVAL_MS = 1000;

/**
 * Timeouts against clients that hold connections without using them: the headers must arrive within
 * `[repohost] HTTP_HEADERS_TIMEOUT`, and a connection on which nothing is received or sent for `HTTP_IDLE_TIMEOUT`
 * is closed (a fetch whose pack git writes to the socket itself is watched through git's writes instead: see
 * smart-http.ts). There is no overall deadline, so long pushes and clones keep working while bytes flow. Call it
 * before `listen()`: Node reads the checking interval when listening starts (a server already listening checks
 * headers at its old interval).
 */
export function configureHttpServer(server: Server, settings: RepoHost['settings']): void {
  const { HTTP_HEADERS_TIMEOUT, HTTP_IDLE_TIMEOUT } = settings.repohost;
  server.requestTimeout = 0;
  server.headersTimeout = Math.max(0, HTTP_HEADERS_TIMEOUT) * 1000;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = CONNECTIONS_CHECKING_INTERVAL_MS;
  // Socket inactivity in either direction; with no 'timeout' listener Node destroys the socket.
  server.timeout = Math.max(0, HTTP_IDLE_TIMEOUT) * 1000;
}

/** Starts a Node HTTP server for `host`. Closing it does not close the host. */
export async function startServer(host: RepoHost, options: ListenOptions = {}): Promise<RunningServer> {
  const built = createApp(host);
  const { app, routes } = built;
  // The access log's file opens (or the start fails, saying why) before anything is served.
  try {
    await built.ready();
  } catch (error) {
    await built.close();
    throw error;
  }
  const metrics = await built.metrics;
  const server = createServer(toNodeHandler(app));
  configureHttpServer(server, host.settings);
  const hostname = options.hostname ?? host.settings.server.HTTP_ADDR;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? host.settings.server.HTTP_PORT, hostname, () => resolve());
    });
  } catch (error) {
    await built.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  followListeningPort(host.settings, address.port);
  const closeHttp = () =>
    new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    });
  const { START_SSH_SERVER, DISABLE_SSH } = host.settings.server;
  let ssh: RunningSshServer | undefined;
  if (START_SSH_SERVER && !DISABLE_SSH) {
    try {
      ssh = await startSshServer(host);
    } catch (error) {
      await closeHttp();
      await built.close();
      throw error;
    }
  }
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // A serving host delivers webhooks (pending ones from earlier runs first); `host.close()` stops it.
  host.webhooks.delivery.start();
  // Durable jobs queued earlier (or interrupted) resume; `host.close()` stops the worker.
  host.jobs.start();
  // Recurring tasks (`[cron.*]`) follow their stored schedules.
  host.cron.start();
  return {
    server,
    routes,
    url: `http://${shownHost}:${address.port}/`,
    ssh,
    ...(metrics && { metrics }),
    close: async () => {
      await Promise.all([closeHttp(), ssh?.close()]);
      await built.close();
    },
  };
}
