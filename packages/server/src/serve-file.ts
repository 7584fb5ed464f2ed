/**
 * What file downloads share (attachments, raw files, package files): Go's `url.PathEscape` for `filename*=`, and the
 * status and headers `http.ServeContent` gives a byte range.
 */
import type { H3Event } from 'h3';
import { FastResponse } from 'srvx';
import type { RangeAnswer } from '@repohost/core';

/** srvx sends a Node stream given as the body by piping it into the socket; its types only know web bodies. */
type ResponseBody = ConstructorParameters<typeof FastResponse>[0];

/** A body `http.ServeContent` would send: a Node stream, destroyed when it is not sent. */
interface FileBody {
  destroy(): void;
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
