import { isRepoHostError } from '@repohost/core';

/** Status and message for an error thrown anywhere below a route. */
export function errorStatus(error: unknown): { status: number; message: string } {
  if (isRepoHostError(error)) {
    switch (error.kind) {
      case 'not_found':
        return { status: 404, message: error.message };
      case 'forbidden':
        return { status: 403, message: error.message };
      case 'unauthorized':
        return { status: 401, message: error.message };
      case 'validation':
        return { status: 422, message: error.message };
      case 'conflict':
        return { status: 409, message: error.message };
      case 'bad_request':
        return { status: 400, message: error.message };
    }
  }
  if (error instanceof HttpError) return { status: error.status, message: error.message };
  return { status: 500, message: 'Internal Server Error' };
}

/** An error with an explicit status, for conditions only the HTTP layer knows (body too large, …). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

