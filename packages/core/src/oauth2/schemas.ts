import { Type, type Static } from '@sinclair/typebox';

/**
 * Forgejo's `CreateOAuth2ApplicationOptions`, for creating and for updating (an update replaces all three
 * fields). `name` and `redirect_uris` are required and may not be empty; `confidential_client` absent is false.
 */
export const CreateOAuth2ApplicationOptionsSchema = Type.Object(
  {
    name: Type.String({ maxLength: 255 }),
    confidential_client: Type.Optional(Type.Boolean()),
    redirect_uris: Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 64 }),
  },
  { $id: 'CreateOAuth2ApplicationOptions', description: 'CreateOAuth2ApplicationOptions holds options to create an oauth2 application' },
);
export type CreateOAuth2ApplicationOptions = Static<typeof CreateOAuth2ApplicationOptionsSchema>;

/** The API `OAuth2Application`: `client_secret` is filled only in the responses that generated it (create, update). */
export const OAuth2ApplicationSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    name: Type.String(),
    client_id: Type.String(),
    client_secret: Type.String(),
    confidential_client: Type.Boolean(),
    redirect_uris: Type.Array(Type.String()),
    created: Type.String({ format: 'date-time' }),
  },
  { $id: 'OAuth2Application', title: 'OAuth2Application represents an OAuth2 application.' },
);
export type ApiOAuth2Application = Static<typeof OAuth2ApplicationSchema>;
