/**
 * The S3-compatible server the object storage tests run against (SeaweedFS, which `.ci/run` starts on loopback):
 * its address and keys come from the environment, as PostgreSQL's do. Without them those tests are skipped, saying
 * why. Also a TCP proxy that can stop answering, for the fault tests.
 */
import { randomBytes } from 'node:crypto';
import { createServer, Socket, type Server } from 'node:net';
import { S3Client } from '@aws-sdk/client-s3';

const endpoint = process.env.REPOHOST_TEST_S3_ENDPOINT ?? '';
const accessKey = process.env.REPOHOST_TEST_S3_ACCESS_KEY ?? '';
const secretKey = process.env.REPOHOST_TEST_S3_SECRET_KEY ?? '';

/** Why the tests that need an S3 server do not run here; undefined when they do. */
export const S3_SKIP_REASON = endpoint === '' ? 'no S3 server: REPOHOST_TEST_S3_ENDPOINT is not set (`.ci/run` starts SeaweedFS and sets it)' : undefined;

/** The test server's `host:port` and keys. */
export const TEST_S3 = { endpoint, accessKey, secretKey };

/** The bucket the tests share (each host keeps to a prefix of its own); created by the first host that starts. */
export const TEST_BUCKET = process.env.REPOHOST_TEST_S3_BUCKET || 'repohost-test';

export interface S3StorageOptions {
  endpoint?: string;
  bucket?: string;
  /** Default: a fresh prefix, so tests sharing the bucket never see each other's objects. */
  basePath?: string;
  serveDirect?: boolean;
  connectTimeout?: number;
  requestTimeout?: number;
}

/** `[storage]` settings putting every blob space of a host on the test server. */
export function s3Storage(options: S3StorageOptions = {}) {
  return {
    STORAGE_TYPE: 'minio',
    MINIO_ENDPOINT: options.endpoint ?? endpoint,
    MINIO_ACCESS_KEY_ID: accessKey,
    MINIO_SECRET_ACCESS_KEY: secretKey,
    MINIO_BUCKET: options.bucket ?? TEST_BUCKET,
    MINIO_BASE_PATH: options.basePath ?? `t-${randomBytes(6).toString('hex')}/`,
    SERVE_DIRECT: options.serveDirect ?? false,
    MINIO_CONNECT_TIMEOUT: options.connectTimeout ?? 5,
    MINIO_REQUEST_TIMEOUT: options.requestTimeout ?? 30,
  };
}

/** A client of the test server, to look at what RepoHost stored (`destroy()` it after). */
export function testS3Client(): S3Client {
  return new S3Client({
    endpoint: `http://${endpoint}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: accessKey, secretAccessKey: secretKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** A bucket name no test used yet. */
export function freshBucket(): string {
  return `repohost-t-${randomBytes(5).toString('hex')}`;
}

/**
 * A TCP proxy on 127.0.0.1 in front of `target` (`host:port`), whose behaviour a test switches: `pass` forwards,
 * `refuse` closes its port (connections are refused; those open are cut), `hang` accepts connections and never
 * answers (those open are cut, so that no kept connection still passes).
 */
export class FaultProxy {
  private server: Server;
  private readonly open = new Set<Socket>();
  private mode: 'pass' | 'hang' = 'pass';

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
    server: Server,
  ) {
    this.server = server;
  }

  /** `host:port` to configure as the storage's endpoint. */
  get endpoint(): string {
    return `127.0.0.1:${this.port}`;
  }

  static async start(target: string, port = 0): Promise<FaultProxy> {
    const colon = target.lastIndexOf(':');
    const to = { host: target.slice(0, colon), port: Number(target.slice(colon + 1)) };
    let proxy: FaultProxy | undefined;
    const server = createServer((socket) => proxy!.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    proxy = new FaultProxy(to, (server.address() as { port: number }).port, server);
    return proxy;
  }

  private accept(socket: Socket): void {
    this.open.add(socket);
    socket.on('close', () => this.open.delete(socket));
    socket.on('error', () => {});
    if (this.mode === 'hang') {
      // Read and drop everything; never answer.
      socket.resume();
      return;
    }
    const upstream = new Socket();
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
    upstream.connect(this.target.port, this.target.host, () => {
      socket.pipe(upstream);
      upstream.pipe(socket);
    });
    this.open.add(upstream);
    upstream.on('close', () => this.open.delete(upstream));
  }

  private cutAll(): void {
    for (const socket of this.open) socket.destroy();
    this.open.clear();
  }

  /** Closes the port: nothing listens there any more. */
  async refuse(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Listens again (on the same port) and forwards. */
  async pass(): Promise<void> {
    this.cutAll();
    this.mode = 'pass';
    if (!this.server.listening) await this.relisten();
  }

  /** Accepts connections and never answers them. */
  async hang(): Promise<void> {
    this.cutAll();
    this.mode = 'hang';
    if (!this.server.listening) await this.relisten();
  }

  private async relisten(): Promise<void> {
    this.server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  async close(): Promise<void> {
    this.cutAll();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
