/**
 * Federation as Forgejo has it with `[federation] ENABLED`: the ActivityPub documents of the instance actor, of
 * accounts (with their outbox of public actions) and of repositories (each account, and the instance, with an RSA
 * key pair to sign with, made on first need off the event loop and kept encrypted); HTTP signatures checked on what
 * other instances send (their keys fetched with a signed request and kept with the account or instance they belong
 * to, fetched again when a signature stops verifying); `Like` activities on a repository's inbox taken as stars by
 * the account of the other instance; `Follow`/`Undo` of a local account recorded and accepted; and following an
 * account elsewhere.
 */
import { generateKeyPair, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import type { CoreContext, CoreTransaction } from '../context.js';
import { BadRequestError, NotAcceptableError, NotFoundError, ValidationError } from '../errors.js';
import { AccessService, canSeeUser } from '../access/index.js';
import { ActivityService, opTypeName, type ActivityEntry } from '../activity/index.js';
import { ReposService, type RepoAccess } from '../repos/index.js';
import { checkRemoteAddress, remoteRequest } from '../remote/index.js';
import { SocialService } from '../social/index.js';
import { countRekey, decryptSecret, emptyRekeyCounts, encryptSecret, forEachRowInBatches, rekeySecret, type RekeyCounts, type SecretRekey } from '../security/index.js';
import { isUniqueViolation, nowUnix } from '../storage/index.js';
import { apiUrl, webUrl } from '../urls.js';
import { ANONYMOUS, SYSTEM, UsersPort, Visibility, avatarUrl, isOrganization, signedInUser, userActor, type Actor, type User } from '../users/index.js';
import {
  ACTIVITY_STREAMS_CONTEXT,
  FORGEFED_CONTEXT,
  SECURITY_CONTEXT,
  type APRemoteFollowOption,
  type ActorDocument,
  type ActorPublicKey,
  type ForgeOutbox,
} from './schemas.js';
import { SignatureError, SignatureMismatchError, parseSignatureHeader, publicKeyOf, signRequest, verifyDigest, verifySignature, type SignedRequest } from './signatures.js';
import { FederationStore } from './store.js';
import type { FederatedUser, FederationHost } from './tables.js';

/** The owner of the instance actor's key pair (no account has id 0). */
const INSTANCE_OWNER = 0;
/** The purpose the private keys are encrypted under; never changes. */
const KEY_PURPOSE = 'federation private key';
/** RSA modulus of new key pairs (Mastodon's; generated in libuv's pool, not on the event loop). */
const RSA_BITS = 2048;
/** Forgejo's `UserTypeRemoteUser`: the local account standing for an account of another instance. */
export const REMOTE_USER_TYPE = 5;
/** How long one request to another instance may take. */
const FETCH_TIMEOUT_MS = 10_000;
/** The software other instances may run (Forgejo's known source types). */
const KNOWN_SOFTWARE = new Set(['forgejo', 'gitea', 'mastodon', 'gotosocial']);
/** The longest actor, key or inbox URI kept (the columns' size). */
const MAX_URI_LENGTH = 2048;
/** An account's key is fetched again, when a signature does not verify with it, at most this often. */
const KEY_REFRESH_SECONDS = 300;
/** What Forgejo answers a request whose signature could not be verified (400). */
export const SIGNATURE_FAILED = 'request signature verification failed';

const generateRsa = promisify(generateKeyPair);

/** Who signed a request, once verified: an account of another instance, another instance's actor, or nobody checked. */
export type FederationSigner =
  | { kind: 'user'; keyId: string; federatedUser: FederatedUser }
  | { kind: 'host'; keyId: string; host: FederationHost }
  | { kind: 'unchecked' };

/** The request a signature is checked on: method, target (path and query as sent), headers. */
export type FederationRequest = SignedRequest;

interface Keypair {
  publicPem: string;
  privatePem: string;
}

type Json = Record<string, unknown>;

export class FederationService {
  private readonly generating = new Map<number, Promise<Keypair>>();

  constructor(private readonly ctx: CoreContext) {}

  private get store(): FederationStore {
    return this.ctx.store(FederationStore);
  }

  get enabled(): boolean {
    return this.ctx.settings.federation.ENABLED;
  }

  /** Forgejo mounts no federation route unless `[federation] ENABLED`: 404 as for any unknown route. */
  requireEnabled(): void {
    if (!this.enabled) throw new NotFoundError();
  }

  /** Largest document accepted in an inbox or fetched from elsewhere (`[federation] MAX_SIZE`, MiB). */
  get maxDocumentBytes(): number {
    return Math.max(1, this.ctx.settings.federation.MAX_SIZE) * 1024 * 1024;
  }

  /** An account's events go with it: its key pair, and its record as an account of another instance. */
  subscribe(): void {
    this.ctx.events.withinTransaction('user.deleted', async ({ payload }, tx) => {
      await tx.store(FederationStore).deleteFederatedUserOf(payload.user.id);
      await tx.store(FederationStore).deleteKeypairOf(payload.user.id);
    });
  }

  // ---- identifiers ----

  instanceActorId(): string {
    return apiUrl(this.ctx.settings, '/activitypub/actor');
  }

  personId(user: Pick<User, 'id'>): string {
    return apiUrl(this.ctx.settings, `/activitypub/user-id/${user.id}`);
  }

  repositoryId(repo: { id: number }): string {
    return apiUrl(this.ctx.settings, `/activitypub/repository-id/${repo.id}`);
  }

  // ---- key pairs ----

  /** The owner's key pair, made on first need (off the event loop); two first needs at once keep one pair. */
  private async keypair(ownerId: number): Promise<Keypair> {
    const stored = await this.store.keypair(ownerId);
    if (stored) return this.unsealed(stored.public_pem, stored.private_pem_encrypted);
    let pending = this.generating.get(ownerId);
    if (!pending) {
      pending = this.generate(ownerId).finally(() => this.generating.delete(ownerId));
      this.generating.set(ownerId, pending);
    }
    return pending;
  }

  private async generate(ownerId: number): Promise<Keypair> {
    const { publicKey, privateKey } = await generateRsa('rsa', {
      modulusLength: RSA_BITS,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const sealed = encryptSecret(this.ctx.settings.security.SECRET_KEY, KEY_PURPOSE, privateKey);
    // Another process may have stored one meanwhile: the stored pair wins.
    await this.store.insertKeypair(ownerId, publicKey, sealed, nowUnix());
    const stored = (await this.store.keypair(ownerId))!;
    return this.unsealed(stored.public_pem, stored.private_pem_encrypted);
  }

  private unsealed(publicPem: string, sealed: string): Keypair {
    const privatePem = decryptSecret(this.ctx.settings.security.SECRET_KEY, KEY_PURPOSE, sealed);
    if (privatePem === undefined) throw new Error('a federation private key cannot be decrypted with the configured SECRET_KEY');
    return { publicPem, privatePem };
  }

  /** `repohost admin regenerate secrets`: the private keys move to the current SECRET_KEY. */
  async reencryptSecrets(tx: CoreTransaction, rekey: SecretRekey): Promise<RekeyCounts> {
    const store = tx.store(FederationStore);
    const counts = emptyRekeyCounts();
    await forEachRowInBatches(
      (after, limit) => store.keypairsAfter(after, limit),
      async (row) => {
        const name = row.owner_id === INSTANCE_OWNER ? 'federation key of the instance actor' : `federation key of user ${row.owner_id}`;
        const stored = countRekey(counts, rekeySecret(rekey, KEY_PURPOSE, row.private_pem_encrypted), name);
        if (stored !== undefined) await store.setPrivateKey(row.id, stored);
      },
    );
    return counts;
  }

  // ---- documents ----

  private context(...more: string[]): string[] {
    return [ACTIVITY_STREAMS_CONTEXT, SECURITY_CONTEXT, ...more];
  }

  private publicKey(id: string, publicPem: string): ActorPublicKey {
    return { id: `${id}#main-key`, owner: id, publicKeyPem: publicPem };
  }

  /** `GET /activitypub/actor`: the instance's Application actor, whose key signs what the instance fetches. */
  async instanceActor(): Promise<ActorDocument> {
    this.requireEnabled();
    const id = this.instanceActorId();
    const { publicPem } = await this.keypair(INSTANCE_OWNER);
    return {
      '@context': this.context(),
      id,
      type: 'Application',
      preferredUsername: 'ghost',
      url: this.ctx.settings.server.ROOT_URL,
      inbox: `${id}/inbox`,
      outbox: `${id}/outbox`,
      publicKey: this.publicKey(id, publicPem),
    };
  }

  /** An account others may see (public profile, not an organization, not one standing for another instance), or 404. */
  private async localPerson(userId: number): Promise<User> {
    const user = Number.isSafeInteger(userId) && userId > 0 ? await this.ctx.port(UsersPort).byId(userId) : undefined;
    if (!user || isOrganization(user) || user.type === REMOTE_USER_TYPE || user.visibility !== Visibility.Public || !canSeeUser(ANONYMOUS, user)) throw new NotFoundError();
    return user;
  }

  /** `GET /activitypub/user-id/{id}`: the account's Person, with its public key. */
  async person(userId: number): Promise<ActorDocument> {
    this.requireEnabled();
    const user = await this.localPerson(userId);
    const id = this.personId(user);
    const { publicPem } = await this.keypair(user.id);
    const settings = this.ctx.settings;
    return {
      '@context': this.context(),
      id,
      type: 'Person',
      preferredUsername: user.name,
      name: user.full_name || user.name,
      url: webUrl(settings, encodeURIComponent(user.name)),
      icon: { type: 'Image', mediaType: 'image/png', url: avatarUrl(user, settings) },
      inbox: `${id}/inbox`,
      outbox: `${id}/outbox`,
      publicKey: this.publicKey(id, publicPem),
    };
  }

  /** A repository anyone may see, by id, or 404 (a private one is not exposed). */
  private repositoryAccess(repoId: number): Promise<RepoAccess> {
    return this.ctx.service(ReposService).resolveById(ANONYMOUS, repoId);
  }

  /** `GET /activitypub/repository-id/{id}`: the ForgeFed Repository. */
  async repository(repoId: number): Promise<ActorDocument> {
    this.requireEnabled();
    const { repo, owner } = await this.repositoryAccess(repoId);
    const id = this.repositoryId(repo);
    return {
      '@context': this.context(FORGEFED_CONTEXT),
      id,
      type: 'Repository',
      name: repo.name,
      url: webUrl(this.ctx.settings, `${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}`),
      inbox: `${id}/inbox`,
      outbox: `${id}/outbox`,
    };
  }

  private emptyOutbox(actorId: string, attributedTo?: string): ForgeOutbox {
    return {
      '@context': [ACTIVITY_STREAMS_CONTEXT],
      id: `${actorId}/outbox`,
      type: 'OrderedCollection',
      ...(attributedTo && { attributedTo }),
      totalItems: 0,
      orderedItems: [],
    };
  }

  /** The instance actor's outbox: always empty, as Forgejo's. */
  instanceOutbox(): ForgeOutbox {
    this.requireEnabled();
    return this.emptyOutbox(this.instanceActorId());
  }

  /** A repository's outbox: RepoHost sends no repository activities, so it is empty. */
  async repositoryOutbox(repoId: number): Promise<ForgeOutbox> {
    this.requireEnabled();
    const { repo } = await this.repositoryAccess(repoId);
    return this.emptyOutbox(this.repositoryId(repo));
  }

  /**
   * `GET /activitypub/user-id/{id}/outbox` (Forgejo's `PersonFeed`): what the account did that anyone may see, newest
   * first, each as a `Create` of a `Note`; `total` is every such action (X-Total-Count).
   */
  async personOutbox(userId: number, paging: { page?: number; limit?: number } = {}): Promise<{ outbox: ForgeOutbox; total: number }> {
    this.requireEnabled();
    const user = await this.localPerson(userId);
    const { DEFAULT_PAGING_NUM, MAX_RESPONSE_ITEMS } = this.ctx.settings.api;
    const page = { page: Math.max(1, Math.floor(paging.page ?? 1)), limit: Math.min(MAX_RESPONSE_ITEMS, Math.max(1, Math.floor(paging.limit ?? DEFAULT_PAGING_NUM))) };
    const { items, total } = await this.ctx.service(ActivityService).ownPublicActions(user, page);
    const id = this.personId(user);
    const outbox = this.emptyOutbox(id, id);
    outbox.orderedItems = items.map((entry) => this.userActivity(user, entry));
    outbox.totalItems = total;
    return { outbox, total };
  }

  /**
   * `GET /activitypub/user-id/{id}/activities/{activity-id}[/activity]`: one of those actions, the `Create` or its
   * `Note`; 404 for any other (another account's, a private repository's).
   */
  async personActivity(userId: number, activityId: number, part: 'activity' | 'note'): Promise<Json> {
    this.requireEnabled();
    const user = await this.localPerson(userId);
    const found = activityId > 0 ? (await this.ctx.service(ActivityService).ownPublicActions(user, { page: 1, limit: 1 }, activityId)).items[0] : undefined;
    if (!found) throw new NotFoundError();
    const activity = this.userActivity(user, found);
    return part === 'activity' ? activity : { '@context': activity['@context'], ...(activity.object as Json) };
  }

  /** An action as Forgejo federates it (`ActionToForgeUserActivity`): a public `Create` of a `Note` saying what happened. */
  private userActivity(user: User, { action, repo }: ActivityEntry): Json {
    const personId = this.personId(user);
    const id = `${personId}/activities/${action.id}`;
    const published = new Date(action.created_unix * 1000).toISOString();
    const settings = this.ctx.settings;
    const repoName = `${repo.owner.name}/${repo.repo.name}`;
    const note = {
      type: 'Note',
      id,
      attributedTo: personId,
      content: `${user.name} ${describeOp(opTypeName(action.op_type))} ${repoName}`,
      url: webUrl(settings, `${encodeURIComponent(repo.owner.name)}/${encodeURIComponent(repo.repo.name)}`),
      published,
      to: [PUBLIC],
    };
    return { '@context': [ACTIVITY_STREAMS_CONTEXT], type: 'Create', id: `${id}/activity`, actor: personId, published, to: [PUBLIC], object: note };
  }

  // ---- signatures ----

  /**
   * Forgejo's `ReqHTTPSignature`: the request's signature (`Signature`, or `Authorization: Signature …`) verified
   * with the key its `keyId` names, fetched from the signer's instance the first time. Any failure is
   * BadRequestError "request signature verification failed" (400), as Forgejo answers. With `SIGNATURE_ENFORCED`
   * off, nothing is checked.
   */
  async verifyRequest(request: FederationRequest, options: { hasBody: boolean }): Promise<FederationSigner> {
    this.requireEnabled();
    if (!this.ctx.settings.federation.SIGNATURE_ENFORCED) return { kind: 'unchecked' };
    try {
      const header = request.header('signature') ?? signatureFromAuthorization(request.header('authorization'));
      if (!header) throw new SignatureError('no signature');
      const params = parseSignatureHeader(header);
      const signer = await this.signerOf(params.keyId);
      const pem = signer.kind === 'user' ? signer.federatedUser.public_key : signer.host.public_key;
      const check = { required: options.hasBody ? ['digest'] : [], nowUnix: nowUnix() };
      try {
        verifySignature(request, params, pem, check);
        return signer;
      } catch (error) {
        // An account may have changed its key since it was fetched: fetched again (at most every few minutes), it decides.
        const refreshed = error instanceof SignatureMismatchError && signer.kind === 'user' ? await this.refreshedKey(signer.federatedUser, params.keyId) : undefined;
        if (!refreshed) throw error;
        verifySignature(request, params, refreshed.public_key, check);
        return { kind: 'user', keyId: params.keyId, federatedUser: refreshed };
      }
    } catch (error) {
      if (error instanceof SignatureError || error instanceof FederationFetchError || error instanceof TypeError) throw new BadRequestError(SIGNATURE_FAILED);
      throw error;
    }
  }

  /** Checks a verified request's `Digest` against the body it came with (400 as any signature failure). */
  verifyBody(signer: FederationSigner, digest: string | null | undefined, body: Buffer): void {
    if (signer.kind === 'unchecked') return;
    try {
      verifyDigest(digest, body);
    } catch (error) {
      if (error instanceof SignatureError) throw new BadRequestError(SIGNATURE_FAILED);
      throw error;
    }
  }

  /**
   * An account's key fetched again from its actor document, when the last refetch is long enough ago; undefined
   * when it is not fetched, or unchanged.
   */
  private async refreshedKey(federatedUser: FederatedUser, keyId: string): Promise<FederatedUser | undefined> {
    const now = nowUnix();
    if (!(await this.store.claimKeyRefresh(federatedUser.id, federatedUser.key_refreshed_unix, now - KEY_REFRESH_SECONDS, now))) return undefined;
    const document = await this.fetchDocument(federatedUser.original_url);
    const key = publicKeyIn(document, keyId);
    if (!key || key.owner !== federatedUser.original_url || key.publicKeyPem === federatedUser.public_key) return undefined;
    publicKeyOf(key.publicKeyPem);
    return this.store.setFederatedUserKey(federatedUser.id, key.id, key.publicKeyPem);
  }

  /** The account or instance a key belongs to: known already, or fetched from where its id points. */
  private async signerOf(keyId: string): Promise<Exclude<FederationSigner, { kind: 'unchecked' }>> {
    const known = await this.store.federatedUserByKeyId(keyId);
    if (known) return { kind: 'user', keyId, federatedUser: known };
    const knownHost = await this.store.hostByKeyId(keyId);
    if (knownHost) return { kind: 'host', keyId, host: knownHost };
    if (keyId.length > MAX_URI_LENGTH) throw new SignatureError('keyId too long');
    const documentUrl = withoutFragment(keyId);
    const document = await this.fetchDocument(documentUrl);
    const key = publicKeyIn(document, keyId);
    if (!key || document.id !== documentUrl || key.owner !== documentUrl) throw new SignatureError('the key is not its owner document\'s');
    publicKeyOf(key.publicKeyPem);
    if (document.type === 'Person') {
      let federatedUser = await this.federatedUserFrom(documentUrl, document, key);
      // A known account that names a new key in its own document: the new key is its key now.
      if (federatedUser.key_id !== keyId || federatedUser.public_key !== key.publicKeyPem) {
        federatedUser = (await this.store.setFederatedUserKey(federatedUser.id, keyId, key.publicKeyPem)) ?? federatedUser;
      }
      return { kind: 'user', keyId, federatedUser };
    }
    if (document.type === 'Application' || document.type === 'Service') {
      const host = await this.hostOf(documentUrl);
      await this.store.setHostKey(host.id, keyId, key.publicKeyPem, nowUnix());
      return { kind: 'host', keyId, host: { ...host, key_id: keyId, public_key: key.publicKeyPem } };
    }
    throw new SignatureError('the key belongs to neither a Person nor an instance actor');
  }

  // ---- other instances ----

  /**
   * The instance an actor URI is on (Forgejo's `FindOrCreateFederationHost`): known, or met now by reading its
   * NodeInfo (`/.well-known/nodeinfo`, then the document it links), which must name software RepoHost federates with.
   */
  private async hostOf(actorUri: string): Promise<FederationHost> {
    const url = new URL(actorUri);
    const fqdn = url.hostname.toLowerCase();
    if (fqdn.length > 253) throw new FederationFetchError('host name too long');
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const known = await this.store.hostByAddress(fqdn, port);
    if (known) return known;
    const wellKnown = await this.fetchDocument(`${url.origin}/.well-known/nodeinfo`);
    const links = Array.isArray(wellKnown.links) ? (wellKnown.links as unknown[]) : [];
    const link = links.find((l): l is { href: string } => isObject(l) && typeof l.href === 'string' && typeof l.rel === 'string' && l.rel.startsWith('http://nodeinfo.diaspora.software/ns/schema/2.'));
    if (!link) throw new FederationFetchError('the instance has no NodeInfo');
    const nodeInfo = await this.fetchDocument(link.href);
    const software = isObject(nodeInfo.software) && typeof nodeInfo.software.name === 'string' ? nodeInfo.software.name.toLowerCase() : '';
    if (!KNOWN_SOFTWARE.has(software)) throw new FederationFetchError(`the instance runs software RepoHost does not federate with (${software.slice(0, 64)})`);
    const now = nowUnix();
    return this.store.insertHost({ host_fqdn: fqdn, host_port: port, host_schema: url.protocol.slice(0, -1), software_name: software, created_unix: now, updated_unix: now });
  }

  /** The account of another instance an actor URI names: known, or fetched and given a local account now. */
  private async federatedUserOf(actorUri: string): Promise<FederatedUser> {
    const host = await this.hostOf(actorUri);
    const known = await this.store.federatedUserByExternalId(host.id, externalIdOf(actorUri));
    if (known) return known;
    const document = await this.fetchDocument(actorUri);
    if (document.type !== 'Person' || document.id !== actorUri) throw new FederationFetchError('the actor is no Person');
    const keyId = isObject(document.publicKey) && typeof document.publicKey.id === 'string' ? document.publicKey.id : '';
    const key = publicKeyIn(document, keyId);
    if (!key || key.owner !== actorUri) throw new FederationFetchError('the actor has no public key');
    return this.federatedUserFrom(actorUri, document, key);
  }

  /** Records a fetched Person: the local account standing for it (Forgejo's remote user) and its key. */
  private async federatedUserFrom(actorUri: string, document: Json, key: ActorPublicKey): Promise<FederatedUser> {
    const host = await this.hostOf(actorUri);
    const externalId = externalIdOf(actorUri);
    const known = await this.store.federatedUserByExternalId(host.id, externalId);
    if (known) return known;
    const preferred = typeof document.preferredUsername === 'string' ? document.preferredUsername : '';
    if (!/^[A-Za-z0-9_.-]{1,40}$/.test(preferred)) throw new FederationFetchError('the actor has no usable preferredUsername');
    const defaultPort = host.host_schema === 'https' ? 443 : 80;
    const name = `${preferred}@${host.host_fqdn}${host.host_port === defaultPort ? '' : `:${host.host_port}`}`;
    if (name.length > 255 || actorUri.length > MAX_URI_LENGTH) throw new FederationFetchError('the actor\'s name or address is too long');
    const fullName = typeof document.name === 'string' ? document.name.slice(0, 255) : name;
    const inbox = typeof document.inbox === 'string' && URL.canParse(document.inbox, actorUri) ? new URL(document.inbox, actorUri) : undefined;
    if (!inbox || inbox.origin !== new URL(actorUri).origin || inbox.toString().length > MAX_URI_LENGTH) throw new FederationFetchError('the actor has no inbox on its instance');
    const localHost = new URL(this.ctx.settings.server.ROOT_URL).hostname;
    const email = `f${randomUUID()}@${localHost}`;
    const now = nowUnix();
    try {
      return await this.ctx.transaction(async (tx) => {
        const user = await tx.port(UsersPort).insert({
          lower_name: name.toLowerCase(),
          name,
          full_name: fullName,
          email,
          lower_email: email.toLowerCase(),
          login_name: `${externalId}-${host.host_fqdn}`.slice(0, 255),
          type: REMOTE_USER_TYPE,
          prohibit_login: 1,
          is_active: 1,
          created_unix: now,
          updated_unix: now,
        });
        return tx.store(FederationStore).insertFederatedUser({
          user_id: user.id,
          federation_host_id: host.id,
          external_id: externalId,
          original_url: actorUri,
          inbox_url: inbox.toString(),
          key_id: key.id,
          public_key: key.publicKeyPem,
          created_unix: now,
        });
      });
    } catch (error) {
      // Another request recorded the account meanwhile.
      if (!isUniqueViolation(error)) throw error;
      const raced = await this.store.federatedUserByExternalId(host.id, externalId);
      if (!raced) throw new FederationFetchError('the account name is taken');
      return raced;
    }
  }

  /**
   * A document of another instance, fetched as Forgejo fetches: signed by the instance actor, to an address the
   * `[migrations]` rules allow (`remote/remote.ts`, pinned), redirects refused, at most `MAX_SIZE`, JSON object.
   */
  private async fetchDocument(url: string): Promise<Json> {
    const answer = await this.send('GET', url, INSTANCE_OWNER);
    if (answer.status !== 200) throw new FederationFetchError(`${url} answered ${answer.status}`);
    return parseJsonObject(answer.body, () => new FederationFetchError(`${url} is no JSON object`));
  }

  /** A document of another instance, fetched with the instance actor's signature (FederationFetchError otherwise). */
  async fetchRemote(url: string): Promise<Json> {
    this.requireEnabled();
    return this.fetchDocument(url);
  }

  /**
   * Posts an activity (a document, or the bytes as they are) to an inbox of another instance, signed with `user`'s
   * key; answers the status and body the inbox gave. FederationFetchError when it could not be delivered.
   */
  async deliverAs(user: Pick<User, 'id'>, inboxUrl: string, activity: object | Buffer): Promise<{ status: number; body: Buffer }> {
    this.requireEnabled();
    const body = Buffer.isBuffer(activity) ? activity : Buffer.from(JSON.stringify(activity));
    return this.send('POST', inboxUrl, user.id, body);
  }

  /** One signed request to another instance, as the key pair of `ownerId`. */
  private async send(method: 'GET' | 'POST', url: string, ownerId: number, body?: Buffer): Promise<{ status: number; body: Buffer }> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new FederationFetchError('malformed address');
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new FederationFetchError('not an http(s) address');
    target.hash = '';
    const settings = this.ctx.settings;
    let remote;
    try {
      remote = await checkRemoteAddress(settings, SYSTEM, { address: target.toString() });
    } catch (error) {
      throw new FederationFetchError((error as Error).message);
    }
    const { privatePem } = await this.keypair(ownerId);
    const keyId = `${ownerId === INSTANCE_OWNER ? this.instanceActorId() : this.personId({ id: ownerId })}#main-key`;
    const headers = signRequest({ method, url: target, body, keyId, privateKeyPem: privatePem });
    headers.accept = 'application/activity+json, application/ld+json';
    if (body) headers['content-type'] = 'application/activity+json';
    try {
      const answer = await remoteRequest(settings, remote, target.toString(), { method, headers, body, timeoutMs: FETCH_TIMEOUT_MS, maxBodyBytes: this.maxDocumentBytes + 1 });
      if (answer.body.length > this.maxDocumentBytes) throw new FederationFetchError(`${url} answered more than MAX_SIZE`);
      return answer;
    } catch (error) {
      throw error instanceof FederationFetchError ? error : new FederationFetchError((error as Error).message);
    }
  }

  // ---- inboxes ----

  /**
   * `POST /activitypub/repository-id/{id}/inbox`: a `Like` from an account of another instance stars the
   * repository (Forgejo's `ProcessLikeActivity`); any other activity, or a `Like` that does not hold, is 406.
   */
  async repositoryInbox(signer: FederationSigner, repoId: number, body: Buffer): Promise<void> {
    this.requireEnabled();
    const access = await this.repositoryAccess(repoId);
    const activity = parseJsonObject(body, () => new ValidationError('', 'invalid JSON body'));
    const type = typeof activity.type === 'string' ? activity.type : '';
    if (type !== 'Like') throw new NotAcceptableError(`Unsupported activity: ${type.slice(0, 64)}`);
    await this.like(signer, access, activity);
  }

  private async like(signer: FederationSigner, access: RepoAccess, activity: Json): Promise<void> {
    const actorUri = idOf(activity.actor);
    const objectUri = idOf(activity.object);
    const startTime = typeof activity.startTime === 'string' ? Date.parse(activity.startTime) : Number.NaN;
    if (!actorUri || !objectUri || Number.isNaN(startTime)) throw new NotAcceptableError('Invalid activity: a Like needs an actor, an object and a startTime');
    if (objectUri !== this.repositoryId(access.repo)) throw new NotAcceptableError('Invalid repoId: the Like is of another repository');
    const federatedUser = await this.activityActor(signer, activity);
    const host = await this.store.hostById(federatedUser.federation_host_id);
    const start = Math.floor(startTime / 1000);
    if (!host || start <= host.latest_activity) throw new NotAcceptableError('LatestActivity: activity already processed');
    const user = await this.ctx.port(UsersPort).byId(federatedUser.user_id);
    if (!user) throw new NotAcceptableError('FindOrCreateFederatedUser failed: the account is gone');
    const actor = userActor(user);
    const mine = await this.ctx.service(AccessService).repoAccess(actor, access.repo, access.owner);
    await this.ctx.service(SocialService).star(actor, mine);
    await this.store.advanceLatestActivity(host.id, start, nowUnix());
  }

  /**
   * `POST /activitypub/user-id/{id}/inbox` (Forgejo's `ProcessPersonInbox`): a `Follow` of the account records the
   * follower and sends it an `Accept` (202; 204 when it followed already); an `Undo` of a `Follow` removes it, an
   * `Accept` of a `Follow` is taken and dropped (204); any other activity is 406.
   */
  async personInbox(signer: FederationSigner, userId: number, body: Buffer): Promise<{ status: 202 | 204 }> {
    this.requireEnabled();
    const user = await this.localPerson(userId);
    const activity = parseJsonObject(body, () => new ValidationError('', 'invalid JSON body'));
    const type = typeof activity.type === 'string' ? activity.type : '';
    switch (type) {
      case 'Follow':
        return this.followed(signer, user, activity);
      case 'Undo':
        return this.unfollowed(signer, user, activity);
      case 'Accept':
        if (typeOf(activity.object) !== 'Follow') throw new NotAcceptableError(`invalid object type for Accept activity: ${typeOf(activity.object).slice(0, 64)}`);
        return { status: 204 };
      default:
        throw new NotAcceptableError(`Unsupported activity: ${type.slice(0, 64)}`);
    }
  }

  /** The account of another instance an activity's actor is: who signed it (or, unchecked, fetched), else 406. */
  private async activityActor(signer: FederationSigner, activity: Json): Promise<FederatedUser> {
    const actorUri = idOf(activity.actor);
    if (!actorUri) throw new NotAcceptableError('Invalid activity: no actor');
    if (signer.kind === 'user') {
      if (signer.federatedUser.original_url !== actorUri) throw new NotAcceptableError('Invalid activity: the actor is not who signed it');
      return signer.federatedUser;
    }
    if (signer.kind === 'host') throw new NotAcceptableError('Invalid activity: an instance actor cannot act for an account');
    return this.federatedUserOf(actorUri).catch((error: unknown) => {
      throw error instanceof FederationFetchError ? new NotAcceptableError(`Federated user not found: ${error.message}`) : error;
    });
  }

  private async followed(signer: FederationSigner, user: User, activity: Json): Promise<{ status: 202 | 204 }> {
    const personId = this.personId(user);
    if (idOf(activity.object) !== personId) throw new NotAcceptableError('Invalid follow activity: the object is not this account');
    const follower = await this.activityActor(signer, activity);
    const added = await this.store.addFollower(user.id, follower.id, nowUnix());
    if (!added) return { status: 204 };
    const accept = { '@context': [ACTIVITY_STREAMS_CONTEXT], id: `${personId}#accepts/follow/${added.id}`, type: 'Accept', actor: personId, object: activity };
    // Forgejo queues the Accept; RepoHost sends it once, and the follow stands whatever became of it.
    await this.deliverAs(user, follower.inbox_url, accept).catch((error: unknown) => {
      if (!(error instanceof FederationFetchError)) throw error;
    });
    return { status: 202 };
  }

  private async unfollowed(signer: FederationSigner, user: User, activity: Json): Promise<{ status: 204 }> {
    if (typeOf(activity.object) !== 'Follow') throw new NotAcceptableError(`Invalid object type for Undo activity: ${typeOf(activity.object).slice(0, 64)}`);
    const follower = await this.activityActor(signer, activity);
    await this.store.removeFollower(user.id, follower.id);
    return { status: 204 };
  }

  /** The actor URIs of the accounts of other instances following `user`. */
  async federatedFollowers(user: Pick<User, 'id'>): Promise<string[]> {
    return (await this.store.followersOf(user.id)).map((follower) => follower.original_url);
  }

  /** `POST /activitypub/actor/inbox`: accepted and dropped, as Forgejo does (204). */
  async instanceInbox(): Promise<void> {
    this.requireEnabled();
  }

  // ---- following ----

  /**
   * `POST /user/activitypub/follow`: the signed-in user follows an account of another instance. As Forgejo, the
   * actor is resolved first (its instance's NodeInfo, its document, a local account for it): one that cannot be is
   * 406; then a `Follow` signed with the user's key goes to its inbox (once: RepoHost keeps no delivery queue).
   */
  async follow(actor: Actor, input: APRemoteFollowOption): Promise<void> {
    this.requireEnabled();
    const me = signedInUser(actor);
    const target = (input.target ?? '').trim();
    if (target === '' || target.length > 2048) throw new NotAcceptableError('Invalid target: an actor URI is needed');
    let federatedUser: FederatedUser;
    try {
      const url = new URL(target);
      url.hash = '';
      federatedUser = await this.federatedUserOf(url.toString());
    } catch (error) {
      if (error instanceof FederationFetchError || error instanceof TypeError) throw new NotAcceptableError(`Federated user not found: ${error.message}`);
      throw error;
    }
    const activity = {
      '@context': [ACTIVITY_STREAMS_CONTEXT],
      id: `${this.personId(me)}/follows/${randomUUID()}`,
      type: 'Follow',
      actor: this.personId(me),
      object: federatedUser.original_url,
    };
    // Forgejo queues the delivery and answers at once; what the inbox makes of it does not change the answer.
    await this.deliverAs(me, federatedUser.inbox_url, activity).catch((error: unknown) => {
      if (!(error instanceof FederationFetchError)) throw error;
    });
  }
}

/** A request to another instance that failed (unreachable, refused address, unexpected answer). */
export class FederationFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FederationFetchError';
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJsonObject(body: Buffer, error: () => Error): Json {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw error();
  }
  if (!isObject(value)) throw error();
  return value;
}

/** The `type` of an embedded object (an IRI alone has none). */
function typeOf(value: unknown): string {
  return isObject(value) && typeof value.type === 'string' ? value.type : '';
}

/** The ActivityStreams public collection: addressed to anyone. */
const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

/** What an action's kind reads as in a Note (`create_repo` → `created the repository`). */
function describeOp(name: string): string {
  return OP_PHRASES.get(name) ?? name.replaceAll('_', ' ');
}

const OP_PHRASES = new Map([
  ['create_repo', 'created the repository'],
  ['rename_repo', 'renamed the repository'],
  ['star_repo', 'starred'],
  ['watch_repo', 'watched'],
  ['commit_repo', 'pushed to'],
  ['create_issue', 'opened an issue in'],
  ['create_pull_request', 'opened a pull request in'],
  ['transfer_repo', 'transferred'],
  ['push_tag', 'pushed a tag to'],
  ['comment_issue', 'commented on an issue in'],
  ['merge_pull_request', 'merged a pull request in'],
  ['close_issue', 'closed an issue in'],
  ['reopen_issue', 'reopened an issue in'],
  ['close_pull_request', 'closed a pull request in'],
  ['reopen_pull_request', 'reopened a pull request in'],
  ['delete_tag', 'deleted a tag in'],
  ['delete_branch', 'deleted a branch in'],
  ['publish_release', 'published a release in'],
]);

/** An IRI given as a string or as an object with an `id`. */
function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isObject(value) && typeof value.id === 'string') return value.id;
  return undefined;
}

/** The document's `publicKey` (or one of them) whose id is `keyId`. */
function publicKeyIn(document: Json, keyId: string): ActorPublicKey | undefined {
  const keys = Array.isArray(document.publicKey) ? (document.publicKey as unknown[]) : [document.publicKey];
  for (const key of keys) {
    if (isObject(key) && key.id === keyId && typeof key.owner === 'string' && typeof key.publicKeyPem === 'string') {
      return { id: key.id, owner: key.owner, publicKeyPem: key.publicKeyPem };
    }
  }
  return undefined;
}

function withoutFragment(uri: string): string {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new SignatureError('keyId is no URI');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SignatureError('keyId is no http(s) URI');
  url.hash = '';
  return url.toString();
}

/** The id of an account on its instance: its actor URI's last path segment (Forgejo's `PersonID`). */
function externalIdOf(actorUri: string): string {
  const path = new URL(actorUri).pathname;
  const segment = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(segment).slice(0, 255);
  } catch {
    return segment.slice(0, 255);
  }
}

/** `Authorization: Signature keyId=…` carries the same parameters as a `Signature` header. */
function signatureFromAuthorization(value: string | null | undefined): string | undefined {
  if (!value || !value.startsWith('Signature ')) return undefined;
  return value.slice('Signature '.length);
}
