/**
 * What file downloads share (attachments, raw files, package files): Go's `url.PathEscape` for `filename*=`, and the
 * status and headers `http.ServeContent` gives a byte range.
 */
import type { H3Event } from 'h3';
import { FastResponse } from 'srvx';
import { BadGatewayError, UnavailableError, type RangeAnswer } from '@repohost/core';
import { errorStatus } from './api/errors.js';

/** srvx sends a Node stream given as the body by piping it into the socket; its types only know web bodies. */
type ResponseBody = ConstructorParameters<typeof FastResponse>[0];

/** A body `http.ServeContent` would send: a Node stream, destroyed when it is not sent. */
interface FileBody {
  destroy(): void;
}

/**
 * Forgejo's answer for a file its storage serves itself (`SERVE_DIRECT`): a 303 to the object's presigned URL, which
 * a client follows with a GET.
 */
export function redirectAnswer(location: string): Response {
  return new FastResponse(null, { status: 303, headers: { location, 'cache-control': 'private, max-age=0, no-cache' } });
}

/**
 * A failure of a storage behind a download or upload (the object storage out of reach or too slow: 503 with
 * `Retry-After`; refusing: 502), in the body `make` gives; undefined for any other error. For the routes that shape
 * their own errors (the package registries), so that a storage outage is never a 500.
 */
export function storageFailureAnswer(error: unknown, make: (status: number, message: string) => Response): Response | undefined {
  if (!(error instanceof UnavailableError) && !(error instanceof BadGatewayError)) return undefined;
  const { status, retryAfterSeconds } = errorStatus(error);
  const answer = make(status, error.message);
  if (retryAfterSeconds !== undefined) answer.headers.set('retry-after', String(retryAfterSeconds));
  return answer;
}

/** Go's `url.PathEscape` of a file name, for `filename*=UTF-8''…`. */
export function pathEscape(name: string): string {
  return encodeURIComponent(name)
    .replace(/%(24|26|2B|3A|3D|40)/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The answer `http.ServeContent` gives for a file of `size` bytes and the request's range, with `headers` (the
 * file's own: type, disposition, dates): 416 for a range it cannot give, otherwise 200 or 206 with the length and
 * range set, no body for HEAD. `beforeBody` runs only when the bytes go out (a download counter); `body` is
 * destroyed whenever they do not.
 */
export async function rangedFileAnswer(
  event: H3Event,
  file: { body: FileBody | undefined; size: number; range: RangeAnswer },
  headers: Record<string, string>,
  beforeBody?: () => Promise<void>,
): Promise<Response> {
  const { body, size, range } = file;
  if (range === 'unsatisfiable' || !body) {
    body?.destroy();
    const text = 'invalid range: failed to overlap\n';
    const refused = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'content-range': `bytes */${size}`, 'content-length': String(Buffer.byteLength(text)) };
    return new FastResponse(text, { status: 416, headers: refused });
  }
  let status = 200;
  headers['content-length'] = String(size);
  if (range) {
    status = 206;
    headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
    headers['content-length'] = String(range.end - range.start + 1);
  }
  if (event.req.method === 'HEAD') {
    body.destroy();
    return new FastResponse(null, { status, headers });
  }
  if (beforeBody) {
    try {
      await beforeBody();
    } catch (error) {
      body.destroy();
      throw error;
    }
  }
  return new FastResponse(body as unknown as ResponseBody, { status, headers });
}
