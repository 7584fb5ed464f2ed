import { Type } from '@sinclair/typebox';

export const ApiErrorSchema = Type.Object(
  { message: Type.String(), url: Type.String() },
  { $id: 'APIError', description: 'APIError is an api error with a message' },
);
