import { Type } from '@sinclair/typebox';

/** `page` and `limit` as every list takes them. */
export const PagingQuery = Type.Object({
  page: Type.Optional(Type.Integer({ description: 'page number of results to return (1-based)' })),
  limit: Type.Optional(Type.Integer({ description: 'page size of results' })),
});

export const ApiErrorSchema = Type.Object(
  { message: Type.String(), url: Type.String() },
  { $id: 'APIError', description: 'APIError is an api error with a message' },
);
