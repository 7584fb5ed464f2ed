/**
 * Small helpers shared by the server API tests (not a test file itself).
 */
import { expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import { matchesSchema, RepositorySchema, schemaErrors, type ApiRepository } from '@repohost/core';
import { createToken, createUser, tokenHeader, type TestServer } from '@repohost/test-support';

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

/** A signed-up account of a test server with a token, and the headers that carry it. */
export interface Account {
  name: string;
  token: string;
  h: Record<string, string>;
}

/** A new account (`prefix` + random) on `server`, with an access token. */
export async function account(server: TestServer, prefix: string, options: { admin?: boolean } = {}): Promise<Account> {
  const name = uniq(prefix);
  await createUser(server.host, name, options);
  const token = await createToken(server.host, name);
  return { name, token, h: tokenHeader(token) };
}

/** Asserts a Repository answer against the schema. */
export function checkRepo(value: unknown): ApiRepository {
  expect(matchesSchema(RepositorySchema, value), schemaErrors(RepositorySchema, value).join('\n')).toBe(true);
  return value as ApiRepository;
}
