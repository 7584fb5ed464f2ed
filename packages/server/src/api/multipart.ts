/**
 * The one file field of a `multipart/form-data` request body, streamed: busboy parses the form, and this adapter
 * hands the wanted file's bytes over as they arrive, so an upload is never held in memory (Go's
 * `Request.FormFile` reads it to a temporary file first; a stream gives the same bytes with a bounded footprint).
 * Other fields and files are read past and dropped, within bounds.
 */
import type { Readable } from 'node:stream';
import busboy, { type Busboy, type FileInfo } from 'busboy';
import { BadRequestError, isRepoHostError, trimEnd, type RepoHostError } from '@repohost/core';

/** A file field of the form. */
export interface MultipartFile {
  /** The base name the client gave, as Go's `FileHeader.Filename`. */
  filename: string;
  /** The part's type; busboy's reading: `text/plain` when the part names none. */
  contentType: string;
  /**
   * The file's bytes; read it to the end (it then ends once the rest of the form is read), or stop reading: the
   * request is then left unread. A malformed or truncated form fails it with a BadRequestError.
   */
  stream: AsyncIterable<Uint8Array>;
}

/**
 * Counts of parts busboy reads (Go's `multipartmaxparts` is 1000); the wanted file past them is a 400. Fields are
 * never buffered (no `field` listener: busboy skips their bytes), so `fieldSize` has nothing to bound; their bytes
 * count toward MAX_SKIPPED_BYTES instead. Part headers are bounded by busboy itself (16 KiB, 2000 pairs).
 */
const LIMITS: busboy.Limits = { parts: 1000, fields: 1000, files: 100 };
/** Bytes a kept text field holds at most (busboy truncates longer values). */
const TEXT_FIELD_BYTES = 8 * 1024;
/** Bytes of the body read before the wanted file is found. */
const MAX_SKIPPED_BYTES = 10 * 1024 * 1024;
/** Bytes after the file read and dropped (the closing boundary, fields after it) before the answer goes out. */
const MAX_TRAILING_BYTES = 1024 * 1024;

/**
 * The file field `field` of the body; BadRequestError when the body is not such a form, is malformed, or has no
 * file under that name (Go's "http: no such file"). `textFields`: names of small text fields to keep (at most 8 KiB
 * each) in the given object as the form is read; those before the file are there once it resolves.
 */
export async function readMultipartFile(
  body: AsyncIterable<Uint8Array> | null,
  contentType: string | null,
  field: string,
  textFields?: TextFields,
): Promise<MultipartFile> {
  const file = await readOptionalMultipartFile(body, contentType, field, textFields);
  if (!file) throw new BadRequestError('http: no such file');
  return file;
}

/** Names of small text fields to keep, and the object they are kept in (see readMultipartFile). */
export interface TextFields {
  names: readonly string[];
  values: Record<string, string>;
}

/**
 * As readMultipartFile, for a form whose file may be absent: a form read to its end without it gives undefined
 * (its text fields all kept by then), where readMultipartFile fails with "http: no such file".
 */
export async function readOptionalMultipartFile(
  body: AsyncIterable<Uint8Array> | null,
  contentType: string | null,
  field: string,
  textFields?: TextFields,
): Promise<MultipartFile | undefined> {
  // busboy reads urlencoded forms too; only multipart ones carry files.
  if (!body || !contentType || !/^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) {
    throw new BadRequestError("request Content-Type isn't multipart/form-data");
  }
  let parser: Busboy;
  try {
    const limits = textFields ? { ...LIMITS, fieldSize: TEXT_FIELD_BYTES } : LIMITS;
    parser = busboy({ headers: { 'content-type': contentType }, limits, defParamCharset: 'utf8', preservePath: true });
  } catch (error) {
    throw asBadRequest(error);
  }
  if (textFields) {
    parser.on('field', (name: string, value: string) => {
      if (textFields.names.includes(name) && !(name in textFields.values)) textFields.values[name] = value;
    });
  }
  return new FormReader(body, parser, field).file;
}

/** Go's `filepath.Base` of a client's file name (on Linux: only `/` separates). */
function baseName(name: string): string {
  const trimmed = trimEnd(name, '/');
  if (trimmed === '') return '/';
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** busboy's errors ("Unexpected end of form", "Malformed part header", …) as 400s; ours pass as they are. */
function asBadRequest(error: unknown): RepoHostError {
  if (isRepoHostError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new BadRequestError(`multipart: ${message.replace(/^multipart:\s*/i, '').toLowerCase()}`);
}

/** One form being read: the body pumped into busboy, the wanted file handed out, the rest dropped. */
class FormReader {
  /** Settles once the wanted file's part starts, or the form ends without it (undefined), or with the 400 that ends the form first. */
  readonly file: Promise<MultipartFile | undefined>;
  /** Settles once the form is read to its end (or as far as MAX_TRAILING_BYTES), or with what broke it. */
  private readonly rest: Promise<void>;
  private settleFile!: { resolve: (file: MultipartFile | undefined) => void; reject: (error: RepoHostError) => void };
  private settleRest!: { resolve: () => void; reject: (error: RepoHostError) => void };
  private found = false;
  private fileEnded = false;
  /** No more of the body is read: the form failed, or the file's reader gave up (the request is left unread). */
  private stopped = false;

  constructor(
    private readonly body: AsyncIterable<Uint8Array>,
    private readonly parser: Busboy,
    private readonly field: string,
  ) {
    this.file = new Promise((resolve, reject) => (this.settleFile = { resolve, reject }));
    this.rest = new Promise((resolve, reject) => (this.settleRest = { resolve, reject }));
    // Awaited only when the file is read to its end; a failure before that is the file's.
    this.rest.catch(() => {});
    parser.on('file', (name: string, stream: Readable, info: FileInfo) => this.onFile(name, stream, info));
    const tooMany = () => {
      if (!this.found) this.fail(new BadRequestError('multipart: too many parts before the file'));
    };
    parser.on('partsLimit', tooMany).on('filesLimit', tooMany).on('fieldsLimit', tooMany);
    parser.on('error', (error: unknown) => this.fail(asBadRequest(error)));
    parser.on('close', () => {
      if (!this.found) {
        this.stopped = true;
        this.settleFile.resolve(undefined);
      }
      this.settleRest.resolve();
    });
    void this.pump();
  }

  private onFile(name: string, stream: Readable, info: FileInfo): void {
    // A failed form destroys its file streams with the error; the reader learns it from its read, or from `file`.
    stream.on('error', () => {});
    if (this.found || name !== this.field || !info.filename) {
      // Not the wanted file (or a second one under its name, which Go's FormFile ignores as well): dropped.
      stream.resume();
      return;
    }
    this.found = true;
    stream.once('end', () => (this.fileEnded = true));
    this.settleFile.resolve({ filename: baseName(info.filename), contentType: info.mimeType, stream: this.content(stream) });
  }

  /** The file's bytes; at their end, the rest of the form, so the answer does not go out over an unread body. */
  private async *content(stream: Readable): AsyncIterable<Uint8Array> {
    let finished = false;
    try {
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) yield chunk;
      } catch (error) {
        throw asBadRequest(error);
      }
      await this.rest;
      finished = true;
    } finally {
      // Abandoned (too large, a failed write): stop reading, leaving the rest of the request unread.
      if (!finished) this.stop();
    }
  }

  /**
   * Writes the body into busboy as busboy takes it: the file's reader holds busboy back, and busboy the body, so
   * at most a few chunks are in memory. The body is never cancelled: on Node that would destroy the socket the
   * answer is to use. A client that stops sending leaves this waiting until the server's idle timeout ends the
   * connection, which fails the body's read.
   */
  private async pump(): Promise<void> {
    const source = this.body[Symbol.asyncIterator]();
    let skipped = 0;
    let trailing = 0;
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await source.next();
      } catch {
        // The client went away mid-body: nobody reads the answer, but it is no server failure.
        this.fail(new BadRequestError('request body incomplete'));
        return;
      }
      if (this.stopped || this.parser.destroyed) return;
      if (next.done) {
        this.parser.end();
        return;
      }
      if (!this.found) {
        skipped += next.value.byteLength;
        if (skipped > MAX_SKIPPED_BYTES) {
          this.fail(new BadRequestError('multipart: form too large before the file'));
          return;
        }
      } else if (this.fileEnded) {
        trailing += next.value.byteLength;
        if (trailing > MAX_TRAILING_BYTES) {
          // Enough was read past the file; the upload stands, the rest of the request is left unread.
          this.settleRest.resolve();
          this.stop();
          return;
        }
      }
      if (!this.parser.write(next.value)) await writable(this.parser);
    }
  }

  private fail(error: RepoHostError): void {
    this.settleFile.reject(error);
    this.settleRest.reject(error);
    this.stopped = true;
    // Fails the file's stream too, when it is being read.
    if (!this.parser.destroyed) this.parser.destroy(error);
  }

  private stop(): void {
    this.stopped = true;
    if (!this.parser.destroyed) this.parser.destroy();
  }
}

/** Resolves when busboy takes writes again, or is gone. */
function writable(parser: Busboy): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      parser.off('drain', done).off('close', done);
      resolve();
    };
    parser.on('drain', done).on('close', done);
  });
}
