/**
 * Forgejo's federation routes (`/activitypub/…`, `POST /user/activitypub/follow`): absent (404) unless `[federation]
 * ENABLED`; then the instance actor's document unsigned, every other route behind a verified HTTP signature
 * (draft-cavage: the key fetched from the signer's instance, `Digest` checked against the body, `Date` recent); the
 * Person and Repository documents (nothing private shown); a `Like` from an account of a second RepoHost stars the
 * repository; replays, other activities, malformed and oversized bodies refused with Forgejo's statuses. A third,
 * hand-written instance (a plain HTTP server whose key the test holds) signs what a RepoHost would not send.
 */
import { createHash, createPublicKey, generateKeyPairSync, sign as rsaSign, verify as rsaVerify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FederationService, SIGNATURE_FAILED, parseSignatureHeader, type User } from '@repohost/core';
import { createToken, createUser, jsonInit, startTestServer, tokenHeader, type TestServer } from '@repohost/test-support';
import { account, expectApiError, json, uniq } from './helpers';

const AS = 'https://www.w3.org/ns/activitystreams';
const ENABLED = { federation: { ENABLED: true }, migrations: { ALLOW_LOCALNETWORKS: true } };

const api = (s: TestServer, path: string) => `${s.url}api/v1${path}`;

/** What the third instance was sent. */
interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A minimal instance: NodeInfo, one Person (`/users/7`) with a key the test holds, an inbox that records. */
interface Third {
  base: string;
  actorId: string;
  keyId: string;
  privatePem: string;
  received: Received[];
  /** A new key pair for the account: its document shows the new public key from now on. */
  rotate(): void;
  close(): Promise<void>;
}

const rsaPair = () => generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

async function startThird(): Promise<Third> {
  let { publicKey, privateKey } = rsaPair();
  const received: Received[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/activity+json' });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      const path = req.url ?? '/';
      if (req.method === 'POST') {
        received.push({ method: req.method, path, headers: req.headers, body: Buffer.concat(chunks) });
        return send(202);
      }
      if (path === '/.well-known/nodeinfo') return send(200, { links: [{ rel: 'http://nodeinfo.diaspora.software/ns/schema/2.1', href: `${base}nodeinfo` }] });
      if (path === '/nodeinfo') return send(200, { version: '2.1', software: { name: 'forgejo', version: '11.0.0' }, protocols: ['activitypub'] });
      if (path === '/users/7') {
        const id = `${base}users/7`;
        return send(200, { '@context': [AS], id, type: 'Person', preferredUsername: 'carol', inbox: `${id}/inbox`, outbox: `${id}/outbox`, publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: publicKey } });
      }
      send(404);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const third: Third = {
    base,
    actorId: `${base}users/7`,
    keyId: `${base}users/7#main-key`,
    privatePem: privateKey,
    received,
    rotate: () => {
      ({ publicKey, privateKey } = rsaPair());
      third.privatePem = privateKey;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return third;
}

interface SignOptions {
  body?: Buffer;
  keyId?: string;
  privatePem?: string;
  date?: Date;
  /** The Digest header sent (by default the body's). */
  digest?: string;
  /** The signed headers (by default `(request-target) host date`, and `digest` with a body). */
  signed?: string[];
  algorithm?: string;
}

/** A request signed as the third instance's account (or as told), built here independently of RepoHost's signer. */
function signedInit(third: Third, method: string, url: string, options: SignOptions = {}): RequestInit {
  const target = new URL(url);
  const headers: Record<string, string> = { date: (options.date ?? new Date()).toUTCString(), host: target.host };
  if (options.body) headers.digest = options.digest ?? `SHA-256=${createHash('sha256').update(options.body).digest('base64')}`;
  const names = options.signed ?? ['(request-target)', 'host', 'date', ...(options.body ? ['digest'] : [])];
  const lines = names.map((name) => (name === '(request-target)' ? `(request-target): ${method.toLowerCase()} ${target.pathname}${target.search}` : `${name}: ${headers[name]}`));
  const signature = rsaSign('sha256', Buffer.from(lines.join('\n')), options.privatePem ?? third.privatePem).toString('base64');
  const sent: Record<string, string> = {
    date: headers.date!,
    signature: `keyId="${options.keyId ?? third.keyId}",algorithm="${options.algorithm ?? 'rsa-sha256'}",headers="${names.join(' ')}",signature="${signature}"`,
    'content-type': 'application/activity+json',
  };
  if (headers.digest) sent.digest = headers.digest;
  return { method, headers: sent, body: options.body };
}

/** Checks a request RepoHost sent against a public key, independently of RepoHost's verifier. */
function verifiedWith(request: Received, publicKeyPem: string): boolean {
  const params = parseSignatureHeader(String(request.headers.signature));
  const lines = params.headers.map((name) => (name === '(request-target)' ? `(request-target): ${request.method.toLowerCase()} ${request.path}` : `${name}: ${String(request.headers[name])}`));
  const digest = `SHA-256=${createHash('sha256').update(request.body).digest('base64')}`;
  return params.headers.includes('digest') && request.headers.digest === digest && rsaVerify('sha256', Buffer.from(lines.join('\n')), publicKeyPem, params.signature);
}

let off: TestServer;
let a: TestServer;
let b: TestServer;
let third: Third;

beforeAll(async () => {
  [off, a, b, third] = await Promise.all([startTestServer(), startTestServer(ENABLED), startTestServer(ENABLED), startThird()]);
});
afterAll(async () => {
  await Promise.all([off?.cleanup(), a?.cleanup(), b?.cleanup(), third?.close()]);
});

const ROUTES: [string, string][] = [
  ['GET', '/activitypub/actor'],
  ['POST', '/activitypub/actor/inbox'],
  ['POST', '/activitypub/actor/outbox'],
  ['GET', '/activitypub/repository-id/1'],
  ['POST', '/activitypub/repository-id/1/inbox'],
  ['POST', '/activitypub/repository-id/1/outbox'],
  ['GET', '/activitypub/user-id/1'],
  ['GET', '/activitypub/user-id/1/activities/1'],
  ['GET', '/activitypub/user-id/1/activities/1/activity'],
  ['POST', '/activitypub/user-id/1/inbox'],
  ['GET', '/activitypub/user-id/1/outbox'],
  ['POST', '/user/activitypub/follow'],
];

describe('federation disabled', () => {
  test('every route answers 404, as Forgejo mounts none', async () => {
    const me = await account(off, 'off');
    for (const [method, path] of ROUTES) {
      const res = await off.fetch(`/api/v1${path}`, jsonInit(method, method === 'POST' ? { type: 'Like' } : undefined, me.h));
      expect(res.status, `${method} ${path}`).toBe(404);
      await res.arrayBuffer();
    }
    expect((await off.fetch('/.well-known/nodeinfo')).status).toBe(404);
  });
});

describe('federation enabled', () => {
  let owner: User;
  let repoId: number;
  let repoName: string;
  let privateRepoId: number;
  let liker: User;

  beforeAll(async () => {
    const me = await account(a, 'own');
    owner = (await a.host.users.findByName(me.name))!;
    repoName = uniq('r');
    const made = await a.fetch('/api/v1/user/repos', jsonInit('POST', { name: repoName }, me.h));
    repoId = (await json(made)).id;
    const hidden = await a.fetch('/api/v1/user/repos', jsonInit('POST', { name: uniq('p'), private: true }, me.h));
    privateRepoId = (await json(hidden)).id;
    liker = await createUser(b.host, uniq('lk'));
  });

  test("the instance actor: unsigned, an Application with the instance's key; NodeInfo is found", async () => {
    const res = await a.fetch('/api/v1/activitypub/actor');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/ld+json; profile="https://www.w3.org/ns/activitystreams"');
    const actor = await json(res);
    const id = api(a, '/activitypub/actor');
    expect(actor).toMatchObject({ id, type: 'Application', inbox: `${id}/inbox`, outbox: `${id}/outbox`, publicKey: { id: `${id}#main-key`, owner: id } });
    expect(actor['@context']).toContain(AS);
    expect(createPublicKey(actor.publicKey.publicKeyPem).asymmetricKeyType).toBe('rsa');
    const links = await json(await a.fetch('/.well-known/nodeinfo'));
    expect(links.links[0].href).toBe(api(a, '/nodeinfo'));
  });

  test('Person and Repository, fetched by another RepoHost with a signed request; private ones are not shown', async () => {
    const federation = b.host.service(FederationService);
    const personUrl = api(a, `/activitypub/user-id/${owner.id}`);
    const person = await federation.fetchRemote(personUrl);
    expect(person).toMatchObject({ id: personUrl, type: 'Person', preferredUsername: owner.name, inbox: `${personUrl}/inbox`, outbox: `${personUrl}/outbox` });
    expect(person['@context']).toEqual([AS, 'https://w3id.org/security/v1']);
    const key = person.publicKey as { id: string; owner: string; publicKeyPem: string };
    expect(key).toMatchObject({ id: `${personUrl}#main-key`, owner: personUrl });

    // The key is the one A signs with: a Follow A sends for its user verifies with it.
    const follow = await a.fetch('/api/v1/user/activitypub/follow', jsonInit('POST', { target: third.actorId }, (await tokenFor(a, owner)).h));
    expect(follow.status).toBe(204);
    const sent = third.received.find((r) => r.path === '/users/7/inbox' && JSON.parse(r.body.toString()).actor === personUrl)!;
    expect(JSON.parse(sent.body.toString())).toMatchObject({ type: 'Follow', actor: personUrl, object: third.actorId });
    expect(verifiedWith(sent, key.publicKeyPem)).toBe(true);

    const repoUrl = api(a, `/activitypub/repository-id/${repoId}`);
    const repo = await federation.fetchRemote(repoUrl);
    expect(repo).toMatchObject({ id: repoUrl, type: 'Repository', name: repoName });
    expect(repo['@context']).toContain('https://forgefed.org/ns');

    const hiddenUser = await createUser(a.host, uniq('hid'), { visibility: 'private' });
    for (const path of [`/activitypub/user-id/${hiddenUser.id}`, `/activitypub/repository-id/${privateRepoId}`, '/activitypub/user-id/999999', '/activitypub/repository-id/abc']) {
      await expect(federation.fetchRemote(api(a, path)), path).rejects.toThrow(/answered 404/);
    }
    // The outbox: what the account did that anyone may see (the public repository's creation, not the private one's).
    const outbox = await federation.fetchRemote(api(a, `/activitypub/user-id/${owner.id}/outbox`));
    expect(outbox).toMatchObject({ type: 'OrderedCollection', id: `${personUrl}/outbox`, attributedTo: personUrl, totalItems: 1 });
    const [created] = outbox.orderedItems as any[];
    expect(created).toMatchObject({ type: 'Create', actor: personUrl, to: ['https://www.w3.org/ns/activitystreams#Public'], object: { type: 'Note', attributedTo: personUrl } });
    expect(created.object.content).toBe(`${owner.name} created the repository ${owner.name}/${repoName}`);
    expect(created.id).toBe(`${created.object.id}/activity`);
    expect(await federation.fetchRemote(created.id)).toMatchObject({ type: 'Create', id: created.id, object: { id: created.object.id } });
    expect(await federation.fetchRemote(created.object.id)).toMatchObject({ type: 'Note', id: created.object.id, content: created.object.content });
    const actionId = Number(created.object.id.slice(created.object.id.lastIndexOf('/') + 1));
    for (const path of [`/activitypub/user-id/${hiddenUser.id}/activities/${actionId}`, `/activitypub/user-id/${owner.id}/activities/${actionId + 1000}/activity`, `/activitypub/user-id/${owner.id}/activities/x`]) {
      await expect(federation.fetchRemote(api(a, path)), path).rejects.toThrow(/answered 404/);
    }
  });

  test("a Like from an account of another RepoHost stars the repository; a replay or someone else's Like is refused", async () => {
    const federation = b.host.service(FederationService);
    const inbox = api(a, `/activitypub/repository-id/${repoId}/inbox`);
    const like = (startTime: Date, extra: Record<string, unknown> = {}) => ({
      '@context': [AS],
      type: 'Like',
      actor: api(b, `/activitypub/user-id/${liker.id}`),
      object: api(a, `/activitypub/repository-id/${repoId}`),
      startTime: startTime.toISOString(),
      ...extra,
    });
    const first = new Date(Date.now() - 5000);
    expect((await federation.deliverAs(liker, inbox, like(first))).status).toBe(204);
    const stargazers = await json(await a.fetch(`/api/v1/repos/${owner.name}/${repoName}/stargazers`));
    const bPort = new URL(b.url).port;
    expect(stargazers.map((u: { login: string }) => u.login)).toEqual([`${liker.name}@127.0.0.1:${bPort}`]);

    const refused = async (body: object | Buffer, status: number, target = inbox) => {
      const answer = await federation.deliverAs(liker, target, body);
      expect(answer.status, answer.body.toString()).toBe(status);
      return JSON.parse(answer.body.toString()).message as string;
    };
    expect(await refused(like(first), 406)).toMatch(/already processed/);
    expect(await refused(like(new Date(), { object: api(a, `/activitypub/repository-id/${repoId + 1000}`) }), 406)).toMatch(/repo/i);
    expect(await refused(like(new Date(), { actor: third.actorId }), 406)).toMatch(/actor/);
    expect(await refused(like(new Date(), { startTime: undefined }), 406)).toMatch(/Invalid activity/);
    expect(await refused({ ...like(new Date()), type: 'Follow' }, 406)).toMatch(/Unsupported activity: Follow/);
    expect(await refused(Buffer.from('{"type": "Like", '), 422)).toMatch(/invalid JSON/);
    expect(await refused(Buffer.from('[1, 2]'), 422)).toMatch(/invalid JSON/);
    await refused(like(new Date(), { object: api(a, `/activitypub/repository-id/${privateRepoId}`) }), 404, api(a, `/activitypub/repository-id/${privateRepoId}/inbox`));

    // A later Like of a starred repository changes nothing.
    expect((await federation.deliverAs(liker, inbox, like(new Date()))).status).toBe(204);
    const repo = await json(await a.fetch(`/api/v1/repos/${owner.name}/${repoName}`));
    expect(repo.stars_count).toBe(1);
  });

  test("following across RepoHosts: B's account follows A's through B's API, A records it and accepts; an Undo ends it", async () => {
    const federation = b.host.service(FederationService);
    const ownerUrl = api(a, `/activitypub/user-id/${owner.id}`);
    const likerUrl = api(b, `/activitypub/user-id/${liker.id}`);
    const personInbox = `${ownerUrl}/inbox`;
    const res = await b.fetch('/api/v1/user/activitypub/follow', jsonInit('POST', { target: ownerUrl }, (await tokenFor(b, liker)).h));
    expect(res.status).toBe(204);
    expect(await a.host.service(FederationService).federatedFollowers(owner)).toEqual([likerUrl]);

    // Following again changes nothing (204); an Undo of the Follow ends it.
    const follow = { '@context': [AS], type: 'Follow', actor: likerUrl, object: ownerUrl };
    expect((await federation.deliverAs(liker, personInbox, follow)).status).toBe(204);
    expect((await federation.deliverAs(liker, personInbox, { type: 'Undo', actor: likerUrl, object: follow })).status).toBe(204);
    expect(await a.host.service(FederationService).federatedFollowers(owner)).toEqual([]);
    const again = await federation.deliverAs(liker, personInbox, follow);
    expect(again.status).toBe(202);
    expect(JSON.parse(again.body.toString())).toEqual({ status: 'Accepted' });

    const refused = async (activity: object, status: number, pattern: RegExp) => {
      const answer = await federation.deliverAs(liker, personInbox, activity);
      expect(answer.status, answer.body.toString()).toBe(status);
      expect(JSON.parse(answer.body.toString()).message).toMatch(pattern);
    };
    await refused({ type: 'Create', actor: likerUrl, object: { type: 'Note', content: 'hi' } }, 406, /Unsupported activity: Create/);
    await refused({ type: 'Accept', actor: likerUrl, object: { type: 'Like' } }, 406, /Accept/);
    await refused({ type: 'Undo', actor: likerUrl, object: { type: 'Like' } }, 406, /Undo/);
    await refused({ ...follow, object: api(a, `/activitypub/user-id/${owner.id + 1000}`) }, 406, /object/);
    await refused({ ...follow, actor: third.actorId }, 406, /actor/);
  });

  test('unsigned, badly signed, stale and tampered requests are refused with 400; an oversized body with 413', async () => {
    const personUrl = api(a, `/activitypub/user-id/${owner.id}`);
    const inbox = api(a, `/activitypub/repository-id/${repoId}/inbox`);
    const fail = async (res: Response, what: string) => {
      expect(await expectApiError(res, 400, a.url), what).toBe(SIGNATURE_FAILED);
    };
    await fail(await fetch(personUrl), 'unsigned GET');
    await fail(await fetch(inbox, { method: 'POST', body: '{}' }), 'unsigned POST');
    await fail(await fetch(personUrl, { headers: { signature: 'keyId="x' } }), 'malformed Signature');
    await fail(await fetch(personUrl, { headers: { signature: 'a'.repeat(9000) } }), 'oversized Signature');
    // The third instance's own key verifies (the key is fetched from it): the checks below fail only for their reason.
    const good = await fetch(personUrl, signedInit(third, 'GET', personUrl));
    expect(good.status).toBe(200);
    await good.arrayBuffer();
    // A rotated key: the signature does not verify with the stored one, so the account's document is read again
    // (at most every few minutes: the old key, tried next, is not worth another read).
    const old = third.privatePem;
    third.rotate();
    const rotated = await fetch(personUrl, signedInit(third, 'GET', personUrl));
    expect(rotated.status).toBe(200);
    await rotated.arrayBuffer();
    await fail(await fetch(personUrl, signedInit(third, 'GET', personUrl, { privatePem: old })), 'the key it rotated away from');

    const other = rsaPair();
    await fail(await fetch(personUrl, signedInit(third, 'GET', personUrl, { privatePem: other.privateKey })), 'signed with another key');
    await fail(await fetch(personUrl, signedInit(third, 'GET', personUrl, { keyId: 'http://127.0.0.1:1/users/1#main-key' })), 'unreachable key');
    await fail(await fetch(personUrl, signedInit(third, 'GET', personUrl, { keyId: `${third.base}users/8#main-key` })), 'unknown key');
    await fail(await fetch(personUrl, signedInit(third, 'GET', personUrl, { date: new Date(Date.now() - 24 * 3600 * 1000) })), 'stale Date');
    await fail(await fetch(personUrl, signedInit(third, 'GET', personUrl, { algorithm: 'ed25519' })), 'unknown algorithm');
    await fail(await fetch(personUrl, signedInit(third, 'GET', personUrl, { signed: ['host', 'date'] })), '(request-target) unsigned');
    const body = Buffer.from(JSON.stringify({ type: 'Like' }));
    await fail(await fetch(inbox, signedInit(third, 'POST', inbox, { body, signed: ['(request-target)', 'host', 'date'] })), 'Digest unsigned');
    await fail(await fetch(inbox, signedInit(third, 'POST', inbox, { body, digest: `SHA-256=${createHash('sha256').update('other').digest('base64')}` })), 'Digest of another body');
    await fail(await fetch(inbox, signedInit(third, 'POST', api(a, `/activitypub/repository-id/${repoId}/outbox`), { body })), 'signed for another path');

    // hs2019 with an RSA key is rsa-sha256; the signed Like of the third instance's account is taken.
    const like = { type: 'Like', actor: third.actorId, object: api(a, `/activitypub/repository-id/${repoId}`), startTime: new Date().toISOString() };
    const res = await fetch(inbox, signedInit(third, 'POST', inbox, { body: Buffer.from(JSON.stringify(like)), algorithm: 'hs2019' }));
    expect(res.status, await res.text()).toBe(204);

    const big = Buffer.alloc(4 * 1024 * 1024 + 1, 0x20);
    const tooLarge = await fetch(inbox, signedInit(third, 'POST', inbox, { body: big }));
    expect(tooLarge.status).toBe(413);
    await tooLarge.arrayBuffer();
  });

  test('following: an unreachable or empty target is 406; signing in is needed', async () => {
    const me = await tokenFor(a, owner);
    for (const target of ['http://127.0.0.1:1/users/1', '', 'not a url']) {
      expect(await expectApiError(await a.fetch('/api/v1/user/activitypub/follow', jsonInit('POST', { target }, me.h)), 406, a.url), target).toMatch(/./);
    }
    expect((await a.fetch('/api/v1/user/activitypub/follow', jsonInit('POST', { target: third.actorId }))).status).toBe(401);
  });
});

async function tokenFor(s: TestServer, user: User): Promise<{ h: Record<string, string> }> {
  return { h: tokenHeader(await createToken(s.host, user.name)) };
}
