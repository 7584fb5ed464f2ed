import {
  ACTIVITY_STREAMS_CONTENT_TYPE,
  APRemoteFollowOptionSchema,
  ActivityPubSchema,
  FederationService,
  type FederationSigner,
  type RepoHost,
} from '@repohost/core';
import type { Static } from '@sinclair/typebox';
import type { H3Event } from 'h3';
import { FastResponse } from 'srvx';
import type { Groups } from '../groups.js';
import { PagingQuery, readBody, type ApiRouter } from '../router.js';
import { EMPTY } from './common.js';

/** An ActivityPub document, as Forgejo answers it: JSON-LD with the ActivityStreams profile. */
function activityResponse(document: unknown, headers: Record<string, string>): Response {
  const body = Buffer.from(JSON.stringify(document));
  const out = { ...headers, 'content-type': ACTIVITY_STREAMS_CONTENT_TYPE, 'content-length': String(body.length) };
  return new FastResponse(new Uint8Array(body.buffer, body.byteOffset, body.length), { status: 200, headers: out });
}

/** A path id as Go's `ParamsInt64` reads it: anything but a number is 0, which names nothing. */
function idParam(text: string): number {
  return /^\d{1,15}$/.test(text) ? Number(text) : 0;
}

/** An inbox body: at most `[federation] MAX_SIZE`, its `Digest` checked against the verified signature. */
async function inboxBody(host: RepoHost, event: H3Event, signer: FederationSigner): Promise<Buffer> {
  const federation = host.service(FederationService);
  const body = await readBody(event, federation.maxDocumentBytes);
  federation.verifyBody(signer, event.req.headers.get('digest'), body);
  return body;
}

const DOCUMENT = { status: 200, description: 'ActivityPub', produces: ['application/json'] } as const;
const OUTBOX = { status: 200, description: 'Outbox', produces: ['application/ld+json'] } as const;

/**
 * Forgejo's federation routes (`[federation] ENABLED`): the instance actor, accounts and repositories as ActivityPub
 * actors with their inboxes and outboxes, every route but the instance actor's document behind a verified HTTP
 * signature; and `POST /user/activitypub/follow`.
 */
export function registerFederationRoutes(_router: ApiRouter, { activitypub, activitypubSigned: signed, myFederation }: Groups): void {
  activitypub.add({
    method: 'GET',
    path: '/actor',
    operationId: 'activitypubInstanceActor',
    summary: "Returns the instance's Actor",
    reply: DOCUMENT,
    errors: ['not_found'],
    handler: async ({ host, responseHeaders }) => activityResponse(await host.service(FederationService).instanceActor(), responseHeaders),
  });

  signed.add({
    method: 'POST',
    path: '/actor/inbox',
    operationId: 'activitypubInstanceActorInbox',
    summary: 'Send to the inbox',
    reply: EMPTY,
    errors: ['bad_request', 'not_found', 'payload_too_large'],
    handler: async ({ host, event, signer }) => {
      await inboxBody(host, event, signer);
      await host.service(FederationService).instanceInbox();
    },
  });
  signed.add({
    method: 'POST',
    path: '/actor/outbox',
    operationId: 'activitypubInstanceActorOutbox',
    summary: 'Display the outbox (always empty)',
    reply: OUTBOX,
    errors: ['bad_request', 'not_found'],
    handler: async ({ host, responseHeaders }) => activityResponse(host.service(FederationService).instanceOutbox(), responseHeaders),
  });

  signed.add({
    method: 'GET',
    path: '/repository-id/{repository-id}',
    operationId: 'activitypubRepository',
    summary: 'Returns the Repository actor for a repo',
    reply: DOCUMENT,
    errors: ['bad_request', 'not_found'],
    handler: async ({ host, params, responseHeaders }) =>
      activityResponse(await host.service(FederationService).repository(idParam(params['repository-id'])), responseHeaders),
  });
  signed.add({
    method: 'POST',
    path: '/repository-id/{repository-id}/inbox',
    operationId: 'activitypubRepositoryInbox',
    summary: 'Send to the inbox',
    reply: EMPTY,
    errors: ['bad_request', 'forbidden', 'not_found', 'not_acceptable', 'payload_too_large', 'validation'],
    handler: async ({ host, event, params, signer }) => {
      const body = await inboxBody(host, event, signer);
      await host.service(FederationService).repositoryInbox(signer, idParam(params['repository-id']), body);
    },
  });
  signed.add({
    method: 'POST',
    path: '/repository-id/{repository-id}/outbox',
    operationId: 'activitypubRepositoryOutbox',
    summary: 'Display the outbox',
    reply: OUTBOX,
    errors: ['bad_request', 'not_found'],
    handler: async ({ host, params, responseHeaders }) =>
      activityResponse(await host.service(FederationService).repositoryOutbox(idParam(params['repository-id'])), responseHeaders),
  });

  signed.add({
    method: 'GET',
    path: '/user-id/{user-id}',
    operationId: 'activitypubPerson',
    summary: 'Returns the Person actor for a user',
    reply: DOCUMENT,
    errors: ['bad_request', 'not_found'],
    handler: async ({ host, params, responseHeaders }) => activityResponse(await host.service(FederationService).person(idParam(params['user-id'])), responseHeaders),
  });
  signed.add({
    method: 'GET',
    path: '/user-id/{user-id}/activities/{activity-id}',
    operationId: 'activitypubPersonActivityNote',
    summary: 'Get a specific activity object of the user',
    reply: DOCUMENT,
    errors: ['bad_request', 'not_found'],
    handler: async ({ host, params, responseHeaders }) =>
      activityResponse(await host.service(FederationService).personActivity(idParam(params['user-id']), idParam(params['activity-id']), 'note'), responseHeaders),
  });
  signed.add({
    method: 'GET',
    path: '/user-id/{user-id}/activities/{activity-id}/activity',
    operationId: 'activitypubPersonActivity',
    summary: 'Get a specific activity of the user',
    reply: DOCUMENT,
    errors: ['bad_request', 'not_found'],
    handler: async ({ host, params, responseHeaders }) =>
      activityResponse(await host.service(FederationService).personActivity(idParam(params['user-id']), idParam(params['activity-id']), 'activity'), responseHeaders),
  });
  signed.add({
    method: 'POST',
    path: '/user-id/{user-id}/inbox',
    operationId: 'activitypubPersonInbox',
    summary: 'Send to the inbox',
    reply: { status: 202, description: 'APIEmpty is an empty response', schema: ActivityPubSchema },
    errors: ['bad_request', 'not_found', 'not_acceptable', 'payload_too_large', 'validation'],
    handler: async ({ host, event, params, signer, responseHeaders }) => {
      const body = await inboxBody(host, event, signer);
      const { status } = await host.service(FederationService).personInbox(signer, idParam(params['user-id']), body);
      // Forgejo's answers: 202 with `{"status":"Accepted"}` for a new follower, 204 for what changed nothing more.
      const text = status === 202 ? '{"status":"Accepted"}' : null;
      const headers = text ? { ...responseHeaders, 'content-type': ACTIVITY_STREAMS_CONTENT_TYPE, 'content-length': String(text.length) } : { ...responseHeaders, 'content-type': '' };
      if (!text) delete (headers as Record<string, string>)['content-type'];
      return new FastResponse(text, { status, headers }) as unknown as Static<typeof ActivityPubSchema>;
    },
  });
  signed.add({
    method: 'GET',
    path: '/user-id/{user-id}/outbox',
    operationId: 'activitypubPersonFeed',
    summary: "List the user's recorded activity",
    query: PagingQuery,
    reply: OUTBOX,
    errors: ['bad_request', 'forbidden', 'not_found'],
    handler: async ({ host, params, query, responseHeaders }) => {
      const { outbox, total } = await host.service(FederationService).personOutbox(idParam(params['user-id']), query);
      return activityResponse(outbox, { ...responseHeaders, 'x-total-count': String(total) });
    },
  });

  myFederation.add({
    method: 'POST',
    path: '/follow',
    operationId: 'userCurrentActivityPubFollow',
    summary: 'Follow a remote activitypub account',
    body: APRemoteFollowOptionSchema,
    reply: EMPTY,
    errors: ['unauthorized', 'forbidden', 'not_found', 'not_acceptable'],
    handler: async ({ host, actor, body }) => host.service(FederationService).follow(actor, body),
  });
}
