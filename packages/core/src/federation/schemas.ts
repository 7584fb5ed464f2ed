import { Type, type Static } from '@sinclair/typebox';

/** The media type Forgejo answers ActivityPub documents with. */
export const ACTIVITY_STREAMS_CONTENT_TYPE = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
export const ACTIVITY_STREAMS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
export const SECURITY_CONTEXT = 'https://w3id.org/security/v1';
export const FORGEFED_CONTEXT = 'https://forgefed.org/ns';

/** Any ActivityPub document (Forgejo's `ActivityPub` definition: only its context is named). */
export const ActivityPubSchema = Type.Object(
  { '@context': Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])) },
  { $id: 'ActivityPub', description: 'ActivityPub type', additionalProperties: true },
);
export type ActivityPub = Static<typeof ActivityPubSchema>;

/** A `Like` of a repository (a star), as another instance sends it to the repository's inbox. */
export const ForgeLikeSchema = Type.Object(
  {
    type: Type.Optional(Type.String()),
    actor: Type.Optional(Type.Unknown()),
    object: Type.Optional(Type.Unknown()),
    startTime: Type.Optional(Type.String()),
  },
  { $id: 'ForgeLike', description: 'ForgeLike activity data type', additionalProperties: true },
);
export type ForgeLike = Static<typeof ForgeLikeSchema>;

/** An ActivityStreams OrderedCollection of activities (an outbox). */
export const ForgeOutboxSchema = Type.Object(
  {
    '@context': Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
    id: Type.String(),
    type: Type.Literal('OrderedCollection'),
    totalItems: Type.Integer(),
    orderedItems: Type.Array(Type.Unknown()),
  },
  { $id: 'ForgeOutbox', description: 'ActivityStream OrderedCollection of activities', additionalProperties: true },
);
export type ForgeOutbox = Static<typeof ForgeOutboxSchema>;

/** `POST /user/activitypub/follow`: the actor URI of the account of another instance to follow. */
export const APRemoteFollowOptionSchema = Type.Object({ target: Type.Optional(Type.String()) }, { $id: 'APRemoteFollowOption' });
export type APRemoteFollowOption = Static<typeof APRemoteFollowOptionSchema>;

/** A public key as an actor document carries it. */
export interface ActorPublicKey {
  id: string;
  owner: string;
  publicKeyPem: string;
}

/** A Person, Application or Repository document as RepoHost serves it. */
export interface ActorDocument {
  '@context': string[];
  id: string;
  type: 'Person' | 'Application' | 'Repository';
  [field: string]: unknown;
}
