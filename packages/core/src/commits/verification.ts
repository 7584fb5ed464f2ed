/**
 * Commit (and tag) signature verification, as Forgejo reports it: the signature and signed payload are cut from
 * the raw object; an OpenPGP signature is checked against the registered key its issuer id names, whoever owns
 * it, if the key is vouched for by one of its owner's verified addresses (or was itself verified), then against
 * the committer's own keys; an SSH signature against the committer's verified SSH keys.
 */
import type { CoreContext } from '../context.js';
import { GpgKeysService } from '../gpg/index.js';
import { UsersPort } from '../users/index.js';
import { isOrganization, type User } from '../users/index.js';
import { noReplyAddress } from '../users/index.js';
import { GpgPort } from '../gpg/index.js';
import { KeysPort } from '../keys/index.js';
import { keyBlobOf, verifySshSignature } from '../keys/index.js';

type OpenPgpVerify = typeof import('./openpgp-verify.js');
let openpgpVerify: Promise<OpenPgpVerify> | undefined;
/** openpgp.js is large: loaded when the first signed commit is checked. */
function loadOpenPgpVerify(): Promise<OpenPgpVerify> {
  return (openpgpVerify ??= import('./openpgp-verify.js'));
}

/** The reasons Forgejo gives (translation keys), or `<signer> / <key id>` when verified. */
export const NOT_SIGNED = 'gpg.error.not_signed_commit';
export const NO_KEY_FOUND = 'gpg.error.no_gpg_keys_found';
export const BAD_SIGNATURE = 'gpg.error.probable_bad_signature';
export const EXTRACT_SIGN = 'gpg.error.extract_sign';

/** The verification of a commit without a signature. */
export function notSigned(): CommitVerification {
  return { verified: false, reason: NOT_SIGNED, signature: '', payload: '' };
}

export interface CommitSignature {
  /** The armored signature, as the commit holds it. */
  signature: string;
  /** The commit object without its signature header: what was signed. */
  payload: Buffer;
}

export interface CommitVerification {
  verified: boolean;
  reason: string;
  signature: string;
  payload: string;
  /** The account whose key made a verified signature. */
  signer?: User;
  /** The address the signature vouches for, when it is the committer's (Forgejo's signing email). */
  signerEmail?: string;
}

const SIGNATURE_HEADERS = ['gpgsig', 'gpgsig-sha256'];
/** A committer's GPG keys tried against a signature that names no registered key: far more than anyone has. */
const MAX_COMMITTER_GPG_KEYS = 50;

/** Cuts the signature header (and its continuation lines) out of a raw commit; undefined when unsigned. */
export function extractSignature(raw: Buffer): CommitSignature | undefined {
  const headerEnd = raw.indexOf('\n\n');
  const headers = raw.subarray(0, headerEnd < 0 ? raw.length : headerEnd).toString('utf8');
  const lines = headers.split('\n');
  const kept: string[] = [];
  let signature: string[] | undefined;
  // Continuation lines of the signature header being skipped; only the first signature is reported.
  let skipping: string[] | undefined;
  for (const line of lines) {
    if (skipping && line.startsWith(' ')) {
      skipping.push(line.slice(1));
      continue;
    }
    skipping = undefined;
    const space = line.indexOf(' ');
    const name = space < 0 ? line : line.slice(0, space);
    if (SIGNATURE_HEADERS.includes(name)) {
      skipping = [line.slice(space + 1)];
      signature ??= skipping;
      continue;
    }
    kept.push(line);
  }
  if (!signature) return undefined;
  const body = headerEnd < 0 ? Buffer.alloc(0) : raw.subarray(headerEnd);
  return { signature: `${signature.join('\n')}\n`, payload: Buffer.concat([Buffer.from(kept.join('\n')), body]) };
}

/** A committer's account and what may vouch for the objects they sign. */
interface CommitterKeys {
  user: User;
  /** The address the object names is one of the account's activated addresses (or its no-reply one). */
  activated: boolean;
  /** Their verified SSH keys (Forgejo trusts only those for signatures). */
  sshKeys: { blob: Buffer; fingerprint: string }[];
  /** Their GPG keys the address vouches for, loaded when a GPG signature needs them. */
  gpgKeys(): Promise<string[]>;
}

/**
 * Verifies the signatures of some commits (or annotated tags): one key lookup per distinct issuer and one account
 * lookup per distinct committer address, not per object.
 */
export class CommitVerifier {
  private readonly keys = new Map<string, Promise<{ armored: string; owner: User; vouched: boolean } | undefined>>();
  private readonly committers = new Map<string, Promise<CommitterKeys | undefined>>();

  constructor(private readonly ctx: CoreContext) {}

  async verify(raw: Buffer | undefined): Promise<CommitVerification> {
    const signed = raw && extractSignature(raw);
    if (!signed) return notSigned();
    const base = { verified: false, signature: signed.signature, payload: signed.payload.toString('utf8') };
    const email = signerEmail(signed.payload);
    if (signed.signature.startsWith('-----BEGIN SSH SIGNATURE-----')) {
      // Forgejo's rule: a verified SSH key of the committer's account, the committer's address being theirs.
      const committer = email === undefined ? undefined : await this.committerFor(email);
      if (committer?.activated) {
        for (const key of committer.sshKeys) {
          if (verifySshSignature(signed.payload, signed.signature, key.blob, 'git')) {
            return { ...base, verified: true, reason: `${committer.user.name} / ${key.fingerprint}`, signer: committer.user, signerEmail: email };
          }
        }
      }
      return { ...base, reason: NO_KEY_FOUND };
    }
    const { readCommitSignature, signingKeyId } = await loadOpenPgpVerify();
    const parsed = await readCommitSignature(signed.signature);
    if (!parsed) return { ...base, reason: EXTRACT_SIGN };
    let reason = NO_KEY_FOUND;
    const key = parsed.issuer ? await this.keyFor(parsed.issuer) : undefined;
    if (key) {
      const keyId = key.vouched ? await signingKeyId(key.armored, signed.payload, parsed.signature) : undefined;
      if (keyId) return { ...base, verified: true, reason: `${key.owner.name} / ${keyId}`, signer: key.owner };
      // Forgejo's word for a registered issuer whose key did not verify it, or may not vouch for anything.
      reason = BAD_SIGNATURE;
    }
    // Then, as Forgejo does, the committer's own keys that their address vouches for (a signature naming no
    // issuer, or one made by a subkey not registered on its own).
    const committer = email === undefined ? undefined : await this.committerFor(email);
    if (committer) {
      for (const armored of await committer.gpgKeys()) {
        const keyId = await signingKeyId(armored, signed.payload, parsed.signature);
        if (keyId) return { ...base, verified: true, reason: `${committer.user.name} / ${keyId}`, signer: committer.user, signerEmail: email };
      }
    }
    return { ...base, reason };
  }

  /**
   * The registered key an issuer id names, with its owner and whether the key can vouch for commits: one of its
   * addresses is a verified address of the owner, or the key itself was verified (Forgejo's rule).
   */
  private keyFor(issuer: string): Promise<{ armored: string; owner: User; vouched: boolean } | undefined> {
    let found = this.keys.get(issuer);
    if (!found) {
      found = (async () => {
        const gpg = this.ctx.service(GpgKeysService);
        const key = await gpg.findByKeyId(issuer);
        if (!key) return undefined;
        const owner = await this.ctx.port(UsersPort).byId(key.primary.owner_id);
        if (!owner) return undefined;
        let vouched = key.key.verified === 1 || key.primary.verified === 1;
        if (!vouched) {
          const verified = await gpg.verifiedEmailsOf(owner);
          vouched = parseEmails(key.primary.emails).some((email) => verified.has(email.toLowerCase()));
        }
        return { armored: key.armored, owner, vouched };
      })();
      this.keys.set(issuer, found);
    }
    return found;
  }

  /** The account a committer address belongs to (an activated address, or its no-reply one), with its keys. */
  private committerFor(email: string): Promise<CommitterKeys | undefined> {
    const lower = email.toLowerCase();
    let found = this.committers.get(lower);
    if (!found) {
      found = (async () => {
        const users = this.ctx.port(UsersPort);
        const noReplySuffix = `@noreply.${this.ctx.settings.server.DOMAIN.toLowerCase()}`;
        const user = lower.endsWith(noReplySuffix)
          ? await users.byName(lower.slice(0, -noReplySuffix.length))
          : (await users.byEmails([lower])).get(lower);
        if (!user || isOrganization(user)) return undefined;
        const gpg = this.ctx.service(GpgKeysService);
        const verifiedEmails = await gpg.verifiedEmailsOf(user);
        const activated = verifiedEmails.has(lower) || lower === noReplyAddress(user, this.ctx.settings).toLowerCase();
        const sshKeys = (await this.ctx.port(KeysPort).signingKeysOf(user.id)).flatMap((key) => {
          const blob = key.verified === 1 ? keyBlobOf(key.content) : undefined;
          return blob ? [{ blob, fingerprint: key.fingerprint }] : [];
        });
        let gpgKeys: Promise<string[]> | undefined;
        const loadGpgKeys = async (): Promise<string[]> => {
          const gpg = this.ctx.port(GpgPort);
          const { items } = await gpg.keysOf(user.id, { page: 1, limit: MAX_COMMITTER_GPG_KEYS });
          // A key vouches when it was verified and the address is the account's, or when it lists the address.
          const listsAddress = (key: { emails: string }) => verifiedEmails.has(lower) && parseEmails(key.emails).some((e) => e.toLowerCase() === lower);
          const usable = items.filter(({ key }) => (key.verified === 1 && activated) || listsAddress(key));
          const armored = await Promise.all(usable.map(({ key }) => gpg.importOf(key.key_id)));
          return armored.flatMap((row) => (row ? [row.content] : []));
        };
        return { user, activated, sshKeys, gpgKeys: () => (gpgKeys ??= loadGpgKeys()) };
      })();
      this.committers.set(lower, found);
    }
    return found;
  }
}

/** The address of the `committer` (commit) or `tagger` (tag) header of an object's headers; undefined if none. */
export function signerEmail(payload: Buffer): string | undefined {
  const headerEnd = payload.indexOf('\n\n');
  const headers = payload.subarray(0, headerEnd < 0 ? payload.length : headerEnd).toString('utf8');
  for (const line of headers.split('\n')) {
    if (!line.startsWith('committer ') && !line.startsWith('tagger ')) continue;
    const match = /<([^<>]*)>/.exec(line);
    return match ? match[1] : undefined;
  }
  return undefined;
}

function parseEmails(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((e): e is string => typeof e === 'string') : [];
  } catch {
    return [];
  }
}
