import { Type, type Static } from '@sinclair/typebox';

/** Forgejo's `CreateHookOption`; `type` is checked by the service (an unknown type is a 422, not a 400). */
export const CreateHookOptionSchema = Type.Object(
  {
    // Not an enum here: Forgejo also takes matrix and sourcehut_builds, and answers an unknown type 422 itself.
    type: Type.String({ description: 'forgejo, dingtalk, discord, gitea, gogs, msteams, slack, telegram, feishu, wechatwork, packagist, matrix, sourcehut_builds' }),
    config: Type.Record(Type.String(), Type.String(), {
      description: 'CreateHookOptionConfig has all config options in it\nrequired are "content_type" and "url" Required',
    }),
    events: Type.Optional(Type.Array(Type.String())),
    branch_filter: Type.Optional(Type.String()),
    active: Type.Optional(Type.Boolean({ default: false })),
    authorization_header: Type.Optional(Type.String()),
  },
  { $id: 'CreateHookOption', description: 'CreateHookOption options when create a hook' },
);
export type CreateHookOption = Static<typeof CreateHookOptionSchema>;

export const EditHookOptionSchema = Type.Object(
  {
    config: Type.Optional(Type.Record(Type.String(), Type.String())),
    events: Type.Optional(Type.Array(Type.String())),
    branch_filter: Type.Optional(Type.String()),
    active: Type.Optional(Type.Boolean()),
    authorization_header: Type.Optional(Type.String()),
  },
  { $id: 'EditHookOption', description: 'EditHookOption options when modify one hook' },
);
export type EditHookOption = Static<typeof EditHookOptionSchema>;

export const HookSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64' }),
    type: Type.String(),
    branch_filter: Type.String(),
    url: Type.String(),
    config: Type.Record(Type.String(), Type.String(), { description: 'Deprecated: use Metadata instead' }),
    events: Type.Array(Type.String()),
    authorization_header: Type.String(),
    content_type: Type.String(),
    metadata: Type.Unknown(),
    active: Type.Boolean(),
    updated_at: Type.String({ format: 'date-time' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Hook', description: 'Hook a hook is a web hook when one repository changed' },
);
export type ApiHook = Static<typeof HookSchema>;

/** One delivery attempt, in GitHub's `hook-delivery-item` shape (Forgejo has no deliveries API). */
export const HookDeliveryItemSchema = Type.Object(
  {
    id: Type.Integer({ format: 'int64', description: 'the attempt' }),
    guid: Type.String({ description: 'the delivery (X-Forgejo-Delivery), shared by its attempts' }),
    delivered_at: Type.String({ format: 'date-time' }),
    redelivery: Type.Boolean(),
    duration: Type.Number({ description: 'seconds' }),
    status: Type.String({ description: 'OK, the HTTP status text, or the error' }),
    status_code: Type.Integer(),
    event: Type.String(),
    action: Type.Union([Type.String(), Type.Null()]),
    repository_id: Type.Union([Type.Integer({ format: 'int64' }), Type.Null()]),
    url: Type.String(),
  },
  { $id: 'HookDeliveryItem', description: 'HookDeliveryItem one attempt to deliver a hook task' },
);
export type ApiHookDeliveryItem = Static<typeof HookDeliveryItemSchema>;

const HookMessageSchema = Type.Object({
  headers: Type.Record(Type.String(), Type.String()),
  payload: Type.Union([Type.String(), Type.Null()]),
});

export const HookDeliverySchema = Type.Composite(
  [
    HookDeliveryItemSchema,
    Type.Object({
      request: HookMessageSchema,
      response: HookMessageSchema,
    }),
  ],
  { $id: 'HookDelivery', description: 'HookDelivery one attempt with its request and response (body truncated)' },
);
export type ApiHookDelivery = Static<typeof HookDeliverySchema>;
