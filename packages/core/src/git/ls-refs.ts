import { FLUSH_PKT, pktLine } from './pkt-line.js';
import type { ListedRefs, ObjectFormat } from './types.js';

/**
 * Protocol v2's `ls-refs` command (git's ls-refs.c and serve.c), answered from a listing of the refs instead of a
 * `git upload-pack` process: over smart HTTP every fetch and clone asks for it in a request of its own, so this
 * saves one git process per fetch, and a fetch that finds nothing new (CI polling, `git ls-remote`) starts none.
 * Only a request of the plain shape git's clients send is answered here; anything else goes to git, which then
 * answers (or refuses) it as it always does.
 */

/** What a client asked `ls-refs` for. */
export interface LsRefsRequest {
  peel: boolean;
  symrefs: boolean;
  unborn: boolean;
  /** Empty: every ref. */
  prefixes: string[];
}

/** git's TOO_MANY_PREFIXES: with this many prefixes or more, git ignores them and lists every ref. */
const TOO_MANY_PREFIXES = 65_536;

/** The first pkt-line's payload (newline kept) if `head` holds it whole, else undefined. */
export function firstPktLine(head: Buffer): string | undefined {
  if (head.length < 4) return undefined;
  const length = hexLength(head, 0);
  if (length === undefined || length < 4 || head.length < length) return undefined;
  return head.subarray(4, length).toString('latin1');
}

/**
 * The `ls-refs` request in `body` (a whole stateless request: `command=ls-refs`, capabilities, a delimiter, the
 * arguments, a flush), or undefined when it is anything else: another command, a capability or argument git would
 * refuse or that is not known here, another object format, or bytes that are not pkt-lines.
 */
export function parseLsRefsRequest(body: Buffer, objectFormat: ObjectFormat): LsRefsRequest | undefined {
  const request: LsRefsRequest = { peel: false, symrefs: false, unborn: false, prefixes: [] };
  let offset = 0;
  let section: 'capabilities' | 'arguments' = 'capabilities';
  let sawCommand = false;
  let sawFormat = false;
  while (offset + 4 <= body.length) {
    const length = hexLength(body, offset);
    if (length === undefined) return undefined;
    if (length === 0) {
      // The flush ends the request: nothing may follow it in one stateless request.
      if (section !== 'arguments' || offset + 4 !== body.length) return undefined;
      // A repository of another format than SHA-1 with a client that did not name its format: git refuses it.
      if (!sawFormat && objectFormat !== 'sha1') return undefined;
      return withPrefixLimit(request);
    }
    if (length === 1) {
      if (section !== 'capabilities' || !sawCommand) return undefined;
      section = 'arguments';
      offset += 4;
      continue;
    }
    if (length < 4 || offset + length > body.length) return undefined;
    let line = body.subarray(offset + 4, offset + length).toString('latin1');
    offset += length;
    // PACKET_READ_CHOMP_NEWLINE: one trailing newline is not part of the line.
    if (line.endsWith('\n')) line = line.slice(0, -1);
    if (section === 'capabilities') {
      if (line === 'command=ls-refs' && !sawCommand) sawCommand = true;
      else if (line.startsWith('agent=') || line.startsWith('server-option=')) continue;
      else if (line === `object-format=${objectFormat}`) sawFormat = true;
      else return undefined;
    } else if (line === 'peel') request.peel = true;
    else if (line === 'symrefs') request.symrefs = true;
    // lsrefs.unborn is git's default ("advertise"), so the argument is allowed.
    else if (line === 'unborn') request.unborn = true;
    else if (line.startsWith('ref-prefix ')) {
      if (request.prefixes.length < TOO_MANY_PREFIXES) request.prefixes.push(line.slice('ref-prefix '.length));
    } else return undefined;
  }
  // No flush: cut off, which git refuses.
  return undefined;
}

function withPrefixLimit(request: LsRefsRequest): LsRefsRequest {
  if (request.prefixes.length >= TOO_MANY_PREFIXES) request.prefixes = [];
  return request;
}

function hexLength(buffer: Buffer, offset: number): number | undefined {
  let value = 0;
  for (let i = offset; i < offset + 4; i++) {
    const c = buffer[i]!;
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
    if (digit < 0) return undefined;
    value = value * 16 + digit;
  }
  return value;
}

/** git's ref_match: no prefixes match everything, else any prefix the name starts with. */
function matches(prefixes: readonly string[], name: string): boolean {
  return prefixes.length === 0 || prefixes.some((prefix) => name.startsWith(prefix));
}

/** The answer git's ls-refs would give to `request` for `listed`: one pkt-line per ref, then a flush. */
export function formatLsRefs(request: LsRefsRequest, listed: ListedRefs): Buffer {
  const lines: Buffer[] = [];
  const send = (name: string, id: string | undefined, symrefTarget: string | undefined, peeled: string | undefined) => {
    if (!matches(request.prefixes, name)) return;
    let line = id === undefined ? `unborn ${name}` : `${id} ${name}`;
    if (request.symrefs && symrefTarget !== undefined) line += ` symref-target:${symrefTarget}`;
    if (request.peel && id !== undefined && peeled !== undefined) line += ` peeled:${peeled}`;
    lines.push(pktLine(`${line}\n`));
  };
  // git's send_possibly_unborn_head: HEAD first, as what it points at, or unborn when asked for both.
  const target = listed.refs.find((ref) => ref.name === listed.head);
  if (target) send('HEAD', target.id, listed.head, target.peeled);
  else if (request.unborn && request.symrefs) send('HEAD', undefined, listed.head, undefined);
  for (const ref of listed.refs) send(ref.name, ref.id, ref.symrefTarget, ref.peeled);
  lines.push(FLUSH_PKT);
  return Buffer.concat(lines);
}
