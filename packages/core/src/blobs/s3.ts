/**
 * Blobs as objects of an S3-compatible storage (Forgejo's `STORAGE_TYPE = minio`). Loaded only when a blob space is
 * configured for object storage (`object.ts` imports it on first use): the AWS SDK is large.
 *
 * Why the AWS SDK (`@aws-sdk/client-s3`, `@aws-sdk/lib-storage`) rather than the `minio` package: its `Upload` streams
 * a multipart upload a few parts at a time and aborts it when anything fails (minio's stream upload leaves the parts
 * for a later call to resume, and would resume another writer's upload of the same key); its HTTP handler has
 * separate connect, answer and idle timeouts and takes an abort signal per request; and it is the most used and
 * maintained S3 client for Node.
 */
import { createHash } from 'node:crypto';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  type BucketLocationConstraint,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { BadGatewayError, RepoHostError } from '../errors.js';
import type { ObjectStorageConfig } from './config.js';
import {
  BlobTooLargeError,
  ObjectStorageUnavailableError,
  assertBlobKey,
  isBlobKey,
  type BlobSource,
  type BlobStorage,
  type ByteRange,
  type ListedBlob,
  type PutBlobOptions,
  type PutBlobResult,
  type StoredBlob,
} from './storage.js';

/** S3's smallest part (all but the last): an upload holds at most this times PARTS_AT_ONCE (plus one) in memory. */
const PART_SIZE = 5 * 1024 * 1024;
/** Parts of one upload sent at once. */
const PARTS_AT_ONCE = 2;
/** How long a presigned URL serves (Forgejo's). */
const PRESIGNED_SECONDS = 5 * 60;
/** Connections kept to the storage per space. */
const MAX_SOCKETS = 64;
/** Attempts of one request (the SDK's default): a connection the storage closed while idle is tried again. */
const MAX_ATTEMPTS = 3;

/**
 * No answer in time: a connection or an answer took longer than its timeout, or the request, its retries included,
 * passed both together. Thrown by `attempt`.
 */
class DeadlineError extends Error {
  constructor(config: ObjectStorageConfig, options: ErrorOptions) {
    super(`no answer within the timeouts (MINIO_CONNECT_TIMEOUT ${config.connectTimeoutMs / 1000} s, MINIO_REQUEST_TIMEOUT ${config.requestTimeoutMs / 1000} s)`, options);
    this.name = 'DeadlineError';
  }
}

export class S3BlobStorage implements BlobStorage {
  private readonly client: S3Client;
  private readonly prefix: string;

  /** `space` names the blob space in errors (`attachments storage is unreachable`). */
  constructor(
    private readonly config: ObjectStorageConfig,
    private readonly space: string,
  ) {
    const host = new URL(`http://${config.endpoint}`).hostname;
    const agentOptions = { keepAlive: true, maxSockets: MAX_SOCKETS };
    this.client = new S3Client({
      endpoint: `${config.useSSL ? 'https' : 'http'}://${config.endpoint}`,
      region: config.location,
      // minio-go's "auto": path-style everywhere but on AWS.
      forcePathStyle: config.bucketLookup === 'path' || (config.bucketLookup === 'auto' && !isAwsHost(host)),
      credentials: config.accessKeyId !== '' ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
      // Checksums only where S3 requires them: many S3-compatible storages refuse the newer checksum headers
      // (Forgejo's MINIO_CHECKSUM_ALGORITHM = default); the bytes are hashed by the callers that need it.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: MAX_ATTEMPTS,
      requestHandler: new NodeHttpHandler({
        connectionTimeout: config.connectTimeoutMs,
        // Until the answer's headers (a part's upload included), then between two reads of its body.
        requestTimeout: config.requestTimeoutMs,
        throwOnRequestTimeout: true,
        socketTimeout: config.requestTimeoutMs,
        httpAgent: new HttpAgent(agentOptions),
        httpsAgent: new HttpsAgent({ ...agentOptions, rejectUnauthorized: !config.insecureSkipVerify }),
      }),
    });
    this.prefix = config.basePath;
  }

  private objectKey(key: string): string {
    assertBlobKey(key);
    return this.prefix + key;
  }

  async put(key: string, source: BlobSource, options: PutBlobOptions = {}): Promise<PutBlobResult> {
    const objectKey = this.objectKey(key);
    const limit = options.maxBytes !== undefined && options.maxBytes >= 0 ? options.maxBytes : Infinity;
    const hash = options.sha256 ? createHash('sha256') : undefined;
    let size = 0;
    // What went wrong on the way in (the limit, the client's connection) is the answer, whatever the upload's
    // clean-up then met.
    let sourceFailure: { error: unknown } | undefined;
    async function* measured(): AsyncIterable<Uint8Array> {
      try {
        for await (const chunk of source) {
          size += chunk.byteLength;
          // The rest of the source is not read: leaving the loop ends it.
          if (size > limit) throw new BlobTooLargeError(limit);
          hash?.update(chunk);
          yield chunk;
        }
      } catch (error) {
        sourceFailure = { error };
        throw error;
      }
    }
    const body = Readable.from(measured(), { objectMode: false });
    // One PUT for a blob within a part, else a multipart upload; either way S3 shows the object whole or not at all,
    // and a failed multipart upload is aborted (`leavePartsOnError: false`), its parts freed.
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.config.bucket, Key: objectKey, Body: body, ContentType: 'application/octet-stream' },
      partSize: PART_SIZE,
      queueSize: PARTS_AT_ONCE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      if (sourceFailure) throw sourceFailure.error;
      throw this.failure('store a blob', error);
    } finally {
      body.destroy();
    }
    return hash ? { size, sha256: hash.digest('hex') } : { size };
  }

  async get(key: string, range?: ByteRange): Promise<StoredBlob | undefined> {
    const objectKey = this.objectKey(key);
    return this.request('read a blob', async (signal) => {
      const Range = range ? `bytes=${range.start}-${range.end ?? ''}` : undefined;
      let answer;
      try {
        answer = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: objectKey, Range }), { abortSignal: signal });
      } catch (error) {
        if (isMissingObject(error)) return undefined;
        // A range that starts at or past the end: no bytes, as a file read there gives.
        if (range && statusOf(error) === 416) {
          const head = await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: objectKey }), { abortSignal: signal });
          return { size: head.ContentLength ?? 0, modifiedMs: head.LastModified?.getTime() ?? 0, stream: Readable.from([]) };
        }
        throw error;
      }
      const stream = answer.Body as Readable;
      let size = answer.ContentLength ?? 0;
      if (range) {
        const contentRange = answer.ContentRange ?? '';
        const total = contentRange.startsWith('bytes ') ? Number(contentRange.slice(contentRange.lastIndexOf('/') + 1)) : NaN;
        if (!Number.isSafeInteger(total)) {
          stream.destroy();
          throw new BadGatewayError(`${this.space} storage ignored a byte range`);
        }
        size = total;
      }
      return { size, modifiedMs: answer.LastModified?.getTime() ?? 0, stream };
    });
  }

  async delete(key: string): Promise<void> {
    const objectKey = this.objectKey(key);
    await this.request('delete a blob', (signal) => this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: objectKey }), { abortSignal: signal }));
  }

  async exists(key: string): Promise<boolean> {
    const objectKey = this.objectKey(key);
    return this.request('look up a blob', async (signal) => {
      try {
        await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: objectKey }), { abortSignal: signal });
        return true;
      } catch (error) {
        if (isMissingObject(error)) return false;
        throw error;
      }
    });
  }

  async *list(prefix = ''): AsyncIterable<ListedBlob> {
    if (prefix !== '') assertBlobKey(prefix);
    const start = prefix === '' ? this.prefix : `${this.prefix}${prefix}/`;
    let token: string | undefined;
    do {
      const continuation = token;
      const page = await this.request('list blobs', (signal) =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: start, ContinuationToken: continuation }), { abortSignal: signal }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.prefix.length);
        // Objects no key could name (folder markers, others' files) are not blobs of this space.
        if (key === undefined || !object.Key!.startsWith(this.prefix) || !isBlobKey(key)) continue;
        yield { key, modifiedMs: object.LastModified?.getTime() ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Aborts the multipart uploads under this space's prefix that began more than `olderThanMs` ago (a crash's). */
  async cleanup(options: { olderThanMs?: number } = {}): Promise<number> {
    const before = Date.now() - (options.olderThanMs ?? 0);
    let removed = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const markers = { KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker };
      const page = await this.request('list unfinished uploads', (signal) =>
        this.client.send(new ListMultipartUploadsCommand({ Bucket: this.config.bucket, Prefix: this.prefix, ...markers }), { abortSignal: signal }),
      );
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !upload.Key.startsWith(this.prefix)) continue;
        if ((upload.Initiated?.getTime() ?? 0) > before) continue;
        const { Key, UploadId } = upload;
        await this.request('abort an unfinished upload', async (signal) => {
          try {
            await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.config.bucket, Key, UploadId }), { abortSignal: signal });
          } catch (error) {
            // Finished or aborted meanwhile (another process's sweep).
            if (statusOf(error) !== 404) throw error;
          }
        });
        removed++;
      }
      if (!page.IsTruncated || (page.NextKeyMarker === undefined && page.NextUploadIdMarker === undefined)) return removed;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  /** A presigned GET of the object, offering it as a download named `filename`, when `SERVE_DIRECT` is set. */
  async directUrl(key: string, filename: string): Promise<string | undefined> {
    if (!this.config.serveDirect) return undefined;
    const command = new GetObjectCommand({ Bucket: this.config.bucket, Key: this.objectKey(key), ResponseContentDisposition: contentDisposition(filename) });
    try {
      return await getSignedUrl(this.client, command, { expiresIn: PRESIGNED_SECONDS });
    } catch (error) {
      throw this.failure('sign a download', error);
    }
  }

  /**
   * Makes sure the bucket exists and may be used, creating it when missing (Forgejo's `MakeBucket` at start).
   * Throws an Error whose message is one line saying what is wrong.
   */
  async ensureBucket(): Promise<void> {
    const { bucket, location } = this.config;
    try {
      await this.attempt((signal) => this.client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: signal }));
      return;
    } catch (error) {
      if (statusOf(error) !== 404) throw new Error(describe(error), { cause: error });
    }
    try {
      const configuration = location !== '' && location !== 'us-east-1' ? { LocationConstraint: location as BucketLocationConstraint } : undefined;
      await this.attempt((signal) => this.client.send(new CreateBucketCommand({ Bucket: bucket, CreateBucketConfiguration: configuration }), { abortSignal: signal }));
    } catch (error) {
      // Another process starting at the same time made it first: fine, if it may be used.
      if (nameOf(error) !== 'BucketAlreadyOwnedByYou' && nameOf(error) !== 'BucketAlreadyExists') throw new Error(`cannot create it: ${describe(error)}`, { cause: error });
      try {
        await this.attempt((signal) => this.client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: signal }));
      } catch (again) {
        throw new Error(describe(again), { cause: again });
      }
    }
  }

  /** Closes the connections kept to the storage. */
  close(): void {
    this.client.destroy();
  }

  /** Runs one request (with its retries) within the connect and answer timeouts together. */
  private async attempt<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const ms = this.config.connectTimeoutMs + this.config.requestTimeoutMs;
    const timer = setTimeout(() => controller.abort(), ms);
    try {
      return await run(controller.signal);
    } catch (error) {
      if (controller.signal.aborted || nameOf(error) === 'TimeoutError') throw new DeadlineError(this.config, { cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** `attempt`, with what failed said as the server answers it (`failure`). */
  private async request<T>(action: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    try {
      return await this.attempt(run);
    } catch (error) {
      throw this.failure(action, error);
    }
  }

  /**
   * A failed request as a core error: the storage out of reach, silent past the timeouts, or overloaded (5xx, 429)
   * is a 503 with Retry-After; an answer refusing the request (access denied, no such bucket) is a 502.
   */
  private failure(action: string, error: unknown): Error {
    if (error instanceof RepoHostError) return error;
    const what = `${this.space} storage`;
    const name = nameOf(error);
    if (error instanceof DeadlineError || name === 'TimeoutError') return new ObjectStorageUnavailableError(`${what} did not answer in time`, error);
    const status = statusOf(error);
    if (status !== undefined) {
      if (status >= 500 || status === 429) return new ObjectStorageUnavailableError(`${what} is unavailable (${name ?? `HTTP ${status}`})`, error);
      const refused = new BadGatewayError(`${what} refused to ${action} (${name ?? `HTTP ${status}`})`);
      refused.cause = error;
      return refused;
    }
    if (name === 'CredentialsProviderError') {
      const missing = new BadGatewayError(`${what} has no credentials (set MINIO_ACCESS_KEY_ID and MINIO_SECRET_ACCESS_KEY)`);
      missing.cause = error;
      return missing;
    }
    return new ObjectStorageUnavailableError(`${what} is unreachable (${codeOf(error) ?? name ?? 'no connection'})`, error);
  }
}

function isAwsHost(host: string): boolean {
  return host === 'amazonaws.com' || host.endsWith('.amazonaws.com') || host.endsWith('.amazonaws.com.cn');
}

/** The HTTP status the storage answered with; undefined when it did not answer. */
function statusOf(error: unknown): number | undefined {
  const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
  return typeof status === 'number' && status > 0 ? status : undefined;
}

function nameOf(error: unknown): string | undefined {
  const name = (error as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : undefined;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** No such object (a missing bucket is not that: it is a misconfiguration, answered 502). */
function isMissingObject(error: unknown): boolean {
  const name = nameOf(error);
  return name !== 'NoSuchBucket' && (name === 'NoSuchKey' || name === 'NotFound' || statusOf(error) === 404);
}

/** One line on what went wrong, for start-up messages. */
function describe(error: unknown): string {
  if (error instanceof DeadlineError) return error.message;
  const status = statusOf(error);
  const name = nameOf(error);
  if (status !== undefined) return `${name ?? 'error'} (HTTP ${status})`;
  const text = error instanceof Error ? error.message : String(error);
  const code = codeOf(error);
  return `${code && !text.includes(code) ? `${code}: ` : ''}${text}`.replace(/\s+/g, ' ').trim();
}

/**
 * Forgejo's `attachment; filename="…"`, the name's quotes and backslashes escaped; a name beyond ASCII goes as
 * `filename*` too (RFC 6266), its plain form with those characters replaced, since header values are bytes.
 */
function contentDisposition(filename: string): string {
  const plain = filename.replace(/[^\x20-\x7e]/g, '_').replaceAll('\\', '\\\\').replaceAll('"', '\\"');
  if (plain === filename.replaceAll('\\', '\\\\').replaceAll('"', '\\"')) return `attachment; filename="${plain}"`;
  return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
