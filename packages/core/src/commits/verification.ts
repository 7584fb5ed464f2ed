/**
 * Commit signature verification, as Forgejo reports it: the signature and signed payload are cut from the raw
 * commit; an OpenPGP signature is checked against the registered key its issuer id names, whoever owns it, if
 * the key is vouched for by one of its owner's verified addresses (or was itself verified).
 */
import type { CoreContext } from '../context.js';
import { GpgKeysService } from '../gpg/service.js';
import { UsersStore } from '../users/store.js';
import type { User } from '../users/tables.js';

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
}

const SIGNATURE_HEADERS = ['gpgsig', 'gpgsig-sha256'];

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

/** Verifies the signatures of some commits: one key lookup per distinct issuer, not per commit. */
export class CommitVerifier {
  private readonly keys = new Map<string, Promise<{ armored: string; owner: User } | undefined>>();

  constructor(private readonly ctx: CoreContext) {}

  async verify(raw: Buffer | undefined): Promise<CommitVerification> {
    const signed = raw && extractSignature(raw);
    if (!signed) return { verified: false, reason: NOT_SIGNED, signature: '', payload: '' };
    const base = { verified: false, signature: signed.signature, payload: signed.payload.toString('utf8') };
    // SSH signatures are not checked yet: no registered key is found for them.
    if (signed.signature.startsWith('-----BEGIN SSH SIGNATURE-----')) return { ...base, reason: NO_KEY_FOUND };
    const { readCommitSignature, signingKeyId } = await loadOpenPgpVerify();
    const parsed = await readCommitSignature(signed.signature);
    if (!parsed) return { ...base, reason: EXTRACT_SIGN };
    const key = parsed.issuer ? await this.keyFor(parsed.issuer) : undefined;
    if (!key) return { ...base, reason: NO_KEY_FOUND };
    const keyId = await signingKeyId(key.armored, signed.payload, parsed.signature);
    if (!keyId) return { ...base, reason: BAD_SIGNATURE };
    return { ...base, verified: true, reason: `${key.owner.name} / ${keyId}`, signer: key.owner };
  }

  /**
   * The registered key an issuer id names, with its owner, if the key can vouch for commits: one of its addresses
   * is a verified address of the owner, or the key itself was verified (Forgejo's rule).
   */
  private keyFor(issuer: string): Promise<{ armored: string; owner: User } | undefined> {
    let found = this.keys.get(issuer);
    if (!found) {
      found = (async () => {
        const gpg = this.ctx.service(GpgKeysService);
        const key = await gpg.findByKeyId(issuer);
        if (!key) return undefined;
        const owner = await this.ctx.store(UsersStore).findById(key.primary.owner_id);
        if (!owner) return undefined;
        if (key.key.verified !== 1 && key.primary.verified !== 1) {
          const verified = await gpg.verifiedEmailsOf(owner);
          const keyEmails = parseEmails(key.primary.emails);
          if (!keyEmails.some((email) => verified.has(email.toLowerCase()))) return undefined;
        }
        return { armored: key.armored, owner };
      })();
      this.keys.set(issuer, found);
    }
    return found;
  }
}

function parseEmails(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((e): e is string => typeof e === 'string') : [];
  } catch {
    return [];
  }
}
