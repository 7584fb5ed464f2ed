import { apiUrl } from '../urls.js';
import type { Settings } from '../config/index.js';
import type { RepoAccess } from '../repos/index.js';
import { repoWebPath } from '../repos/index.js';
import type { GitRefEntry, GitTreeEntry, LoggedCommit } from '../git/index.js';
import { hasLineTerminator, identTail } from '../git/index.js';
import type { ApiAnnotatedTag, ApiCommitUser, ApiGitEntry, ApiPayloadCommitVerification, ApiReference } from './schemas.js';

/** `https://host/api/v1/repos/{owner}/{repo}`. */
export function repoApiUrl(settings: Settings, access: RepoAccess): string {
  return apiUrl(settings, `/repos/${repoWebPath(access.owner, access.repo)}`);
}

/** Go's `url.PathEscape`: everything but unreserved characters and `$&+:=@` is percent-encoded. */
export function goPathEscape(segment: string): string {
  return encodeURIComponent(segment)
    .replace(/%(24|26|2B|3A|3D|40)/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function toApiReference(ref: GitRefEntry, base: string): ApiReference {
  return {
    ref: ref.ref,
    url: `${base}/git/${ref.ref.split('/').map(goPathEscape).join('/')}`,
    object: { sha: ref.id, type: ref.type, url: `${base}/git/${goPathEscape(ref.type)}s/${ref.id}` },
  };
}

export function toApiGitEntry(entry: GitTreeEntry, base: string): ApiGitEntry {
  // A submodule's entry has no URL (GitHub's API does the same).
  const url = entry.type === 'tree' ? `${base}/git/trees/${entry.id}` : entry.type === 'blob' ? `${base}/git/blobs/${entry.id}` : '';
  return { path: entry.path, mode: entry.mode, type: entry.type, size: entry.size, sha: entry.id, url };
}

/** What a commit or tag names as its author, committer or tagger. */
export interface GitSignature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  seconds: number;
  /** `+0100`, as git writes it. */
  offset: string;
}

/** `Name <email> 1700000000 +0100` (git's ident line). */
export function parseSignature(line: string): GitSignature | undefined {
  // Scanned from the end (users push these lines): the email opens at the first `<` after any `>` before the tail's.
  const tail = identTail(line, false);
  if (!tail) return undefined;
  const before = tail.close > 0 ? line.lastIndexOf('>', tail.close - 1) : -1;
  const open = line.indexOf('<', before + 1);
  if (open < 0 || open > tail.close) return undefined;
  const name = line.slice(0, open > 0 && line[open - 1] === ' ' ? open - 1 : open);
  if (hasLineTerminator(name)) return undefined;
  return { name, email: line.slice(open + 1, tail.close), seconds: Number(tail.seconds), offset: tail.offset };
}

/** RFC 3339 in the signature's own offset, `Z` for +0000 (as Go's time.RFC3339 writes it). */
export function signatureDate(signature: GitSignature): string {
  const sign = signature.offset[0] === '-' ? -1 : 1;
  const minutes = sign * (Number(signature.offset.slice(1, 3)) * 60 + Number(signature.offset.slice(3, 5)));
  const local = new Date((signature.seconds + minutes * 60) * 1000).toISOString().slice(0, 19);
  return minutes === 0 ? `${local}Z` : `${local}${signature.offset.slice(0, 3)}:${signature.offset.slice(3)}`;
}

export function toApiCommitUser(signature: GitSignature | undefined): ApiCommitUser {
  return signature ? { name: signature.name, email: signature.email, date: signatureDate(signature) } : { name: '', email: '', date: '' };
}

/** The verification of an unsigned commit, as Forgejo words it. */
export function unsignedVerification(): ApiPayloadCommitVerification {
  return { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' };
}

/** An annotated tag object's headers and message (the signature, if any, cut from the message). */
export interface ParsedTag {
  object: string;
  type: string;
  tag: string;
  tagger: GitSignature | undefined;
  message: string;
  signature: string;
}

export function parseTagObject(content: Buffer): ParsedTag {
  const text = content.toString('utf8');
  const blank = text.indexOf('\n\n');
  const head = blank < 0 ? text : text.slice(0, blank);
  let message = blank < 0 ? '' : text.slice(blank + 2);
  const parsed: ParsedTag = { object: '', type: '', tag: '', tagger: undefined, message: '', signature: '' };
  for (const line of head.split('\n')) {
    const space = line.indexOf(' ');
    const [name, value] = space < 0 ? [line, ''] : [line.slice(0, space), line.slice(space + 1)];
    if (name === 'object') parsed.object = value;
    else if (name === 'type') parsed.type = value;
    else if (name === 'tag') parsed.tag = value;
    else if (name === 'tagger') parsed.tagger = parseSignature(value);
  }
  for (const marker of ['-----BEGIN PGP SIGNATURE-----', '-----BEGIN SSH SIGNATURE-----']) {
    const at = message.lastIndexOf(marker);
    if (at >= 0) {
      parsed.signature = message.slice(at);
      message = message.slice(0, at);
      break;
    }
  }
  parsed.message = message;
  return parsed;
}

/** ISO 8601 in the signature's own offset, always `±hh:mm` (git's `%aI`). */
function strictIsoDate(signature: GitSignature): string {
  const date = signatureDate(signature);
  return date.endsWith('Z') ? `${date.slice(0, -1)}+00:00` : date;
}

/**
 * A raw commit object read through the object reader, as `commitLog` would list it: parents, author, committer and
 * the raw message. Undefined when it has no author or committer line.
 */
export function parseCommitObject(id: string, content: Buffer): LoggedCommit | undefined {
  const text = content.toString('utf8');
  const blank = text.indexOf('\n\n');
  const head = blank < 0 ? text : text.slice(0, blank);
  const parents: string[] = [];
  let author: GitSignature | undefined;
  let committer: GitSignature | undefined;
  for (const line of head.split('\n')) {
    // Continuation lines (of a signature or a merged tag) start with a space and carry no header.
    const space = line.indexOf(' ');
    if (space <= 0) continue;
    const name = line.slice(0, space);
    const value = line.slice(space + 1);
    if (name === 'parent') parents.push(value);
    else if (name === 'author') author ??= parseSignature(value);
    else if (name === 'committer') committer ??= parseSignature(value);
  }
  if (!author || !committer) return undefined;
  return {
    id,
    parents,
    message: blank < 0 ? '' : text.slice(blank + 2),
    authorName: author.name,
    authorEmail: author.email,
    authorTime: strictIsoDate(author),
    committerName: committer.name,
    committerEmail: committer.email,
  };
}

export function toApiAnnotatedTag(id: string, name: string, tag: ParsedTag, base: string, verification: ApiPayloadCommitVerification): ApiAnnotatedTag {
  return {
    tag: name,
    sha: id,
    // Forgejo names the tag's own id in the object's URL.
    object: { sha: tag.object, type: tag.type, url: `${base}/git/commits/${id}` },
    message: tag.message,
    url: `${base}/git/tags/${id}`,
    tagger: toApiCommitUser(tag.tagger),
    verification,
    archive_download_count: { zip: 0, tar_gz: 0 },
  };
}
