/**
 * Small helpers shared by the server API tests (not a test file itself).
 */
import { expect } from 'vitest';
import { randomBytes } from 'node:crypto';

/** A name nobody else in the run uses: `prefix` + 6 hex characters (valid as user and repository name). */
export function uniq(prefix = 'u'): string {
  return `${prefix}${randomBytes(3).toString('hex')}`;
}

/** Reads a JSON body, failing with the raw text if it is not JSON. */
export async function json<T = any>(res: Response): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`expected a JSON body (status ${res.status}), got: ${text.slice(0, 200)}`);
  }
}

/** Asserts the status and the Forgejo error body `{message, url}`; returns the message. */
export async function expectApiError(res: Response, status: number, baseUrl: string): Promise<string> {
  const body = await json<{ message: unknown; url: unknown }>(res);
  expect(res.status, `status (body: ${JSON.stringify(body)})`).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(typeof body.message).toBe('string');
  expect(body.url).toBe(`${baseUrl}api/swagger`);
  return body.message as string;
}
