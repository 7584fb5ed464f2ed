/**
 * git's upload-pack (stateless, as smart HTTP runs it) for an in-memory repository, over protocol v2 (the capability
 * advertisement, `ls-refs`, `fetch`) and v0 (the ref advertisement, `multi_ack_detailed` negotiation): the pack of
 * whole objects (no deltas, `pack.ts`) is sent on side band 1. Shallow clones and filters are not offered, so a
 * client never asks for them.
 */
import { FULL_HEX_ID } from '../backend.js';
import { FLUSH_PKT, pktLine } from '../pkt-line.js';
import type { MemoryRepository } from './repository.js';
import { parseTag, type RawObject } from './objects.js';
import { writePack } from './pack.js';
import { reachable } from './history.js';

const DELIM_PKT = Buffer.from('0001');
/** Bytes of pack data per side-band pkt-line: the largest pkt-line less its header and band byte. */
const SIDEBAND_DATA = 65520 - 5;

/** A request that breaks the protocol: the client is told with an `ERR` line and the service fails. */
export class GitProtocolError extends Error {}

export const V2_ADVERTISEMENT = Buffer.concat([
  pktLine('version 2\n'),
  pktLine('agent=repohost-memory\n'),
  pktLine('ls-refs=unborn\n'),
  pktLine('fetch\n'),
  pktLine('server-option\n'),
  pktLine('object-format=sha1\n'),
  FLUSH_PKT,
]);

/** One pkt-line of a request: its text, or a special packet. */
type Packet = { kind: 'data'; text: string } | { kind: 'flush' } | { kind: 'delim' } | { kind: 'end' };

export function parsePackets(input: Buffer): Packet[] {
  const packets: Packet[] = [];
  let at = 0;
  while (at < input.length) {
    if (input.length - at < 4) throw new GitProtocolError('truncated pkt-line');
    const header = input.toString('latin1', at, at + 4);
    if (!/^[0-9a-f]{4}$/.test(header)) throw new GitProtocolError(`bad pkt-line length ${JSON.stringify(header)}`);
    const length = Number.parseInt(header, 16);
    if (length === 0) packets.push({ kind: 'flush' });
    else if (length === 1) packets.push({ kind: 'delim' });
    else if (length === 2) packets.push({ kind: 'end' });
    else if (length < 4 || at + length > input.length) throw new GitProtocolError('bad pkt-line length');
    else packets.push({ kind: 'data', text: input.toString('utf8', at + 4, at + length).replace(/\n$/, '') });
    at += length < 4 ? 4 : length;
  }
  return packets;
}

/** A v2 command: its name, capability lines and arguments. */
interface Command {
  name: string;
  capabilities: string[];
  args: string[];
}

function readCommand(packets: Packet[]): Command {
  const first = packets[0];
  if (first?.kind !== 'data' || !first.text.startsWith('command=')) throw new GitProtocolError('expected a command');
  const command: Command = { name: first.text.slice('command='.length), capabilities: [], args: [] };
  let section: 'capabilities' | 'args' = 'capabilities';
  for (const packet of packets.slice(1)) {
    if (packet.kind === 'delim') section = 'args';
    else if (packet.kind === 'flush') break;
    else if (packet.kind === 'data') command[section].push(packet.text);
  }
  return command;
}

/** Answers one stateless v2 request; the answer's pkt-lines in order. */
export async function serveUploadPackV2(repo: MemoryRepository, request: Buffer): Promise<Buffer[]> {
  const packets = parsePackets(request);
  // A request of nothing but a flush ends the conversation (git sends it before closing).
  if (packets.length === 0 || packets[0]!.kind === 'flush') return [];
  const command = readCommand(packets);
  if (command.name === 'ls-refs') return lsRefs(repo, command.args);
  if (command.name === 'fetch') return fetch(repo, command.args);
  throw new GitProtocolError(`unknown command ${JSON.stringify(command.name)}`);
}

async function lsRefs(repo: MemoryRepository, args: string[]): Promise<Buffer[]> {
  const prefixes = args.filter((a) => a.startsWith('ref-prefix ')).map((a) => a.slice('ref-prefix '.length));
  const symrefs = args.includes('symrefs');
  const peel = args.includes('peel');
  const unborn = args.includes('unborn');
  const wanted = (ref: string) => prefixes.length === 0 || prefixes.some((p) => ref.startsWith(p));
  const lines: Buffer[] = [];
  if (wanted('HEAD')) {
    const branch = await repo.headBranch();
    const target = branch ? `refs/heads/${branch}` : '';
    const id = target ? await repo.resolveRef(target) : undefined;
    const symref = symrefs && target ? ` symref-target:${target}` : '';
    if (id) lines.push(pktLine(`${id} HEAD${symref}\n`));
    else if (unborn && target) lines.push(pktLine(`unborn HEAD${symref}\n`));
  }
  for (const { ref, id } of await repo.refs()) {
    if (!wanted(ref)) continue;
    let line = `${id} ${ref}`;
    if (peel) {
      const peeled = await repo.peel(id);
      if (peeled && peeled.id !== id) line += ` peeled:${peeled.id}`;
    }
    lines.push(pktLine(`${line}\n`));
  }
  lines.push(FLUSH_PKT);
  return lines;
}

async function fetch(repo: MemoryRepository, args: string[]): Promise<Buffer[]> {
  const wants: string[] = [];
  const haves: string[] = [];
  let done = false;
  let includeTag = false;
  for (const arg of args) {
    const [name = '', value = ''] = arg.split(' ', 2);
    if (name === 'want' || name === 'have') {
      if (!FULL_HEX_ID.test(value)) throw new GitProtocolError(`bad object id in ${name}`);
      (name === 'want' ? wants : haves).push(value);
    } else if (arg === 'done') done = true;
    else if (arg === 'include-tag') includeTag = true;
  }
  for (const want of wants) if (!(await repo.read(want))) throw new GitProtocolError(`not our ref ${want}`);
  const common: string[] = [];
  for (const have of haves) if (await repo.commit(have)) common.push(have);
  const out: Buffer[] = [];
  if (!done) {
    // Whatever the client has, this server can cut a pack now: it says so in the first round.
    out.push(pktLine('acknowledgments\n'));
    if (common.length === 0) out.push(pktLine('NAK\n'));
    for (const id of common) out.push(pktLine(`ACK ${id}\n`));
    out.push(pktLine('ready\n'), DELIM_PKT);
  }
  const pack = await makePack(repo, wants, common, includeTag);
  out.push(pktLine('packfile\n'));
  for (let at = 0; at < pack.length; at += SIDEBAND_DATA) {
    out.push(pktLine(Buffer.concat([Buffer.from([1]), pack.subarray(at, at + SIDEBAND_DATA)])));
  }
  out.push(FLUSH_PKT);
  return out;
}

/** Every object the wants reach that the client's common commits do not: commits, their trees and blobs, tags. */
async function makePack(repo: MemoryRepository, wants: string[], common: string[], includeTag: boolean): Promise<Buffer> {
  const objects = new Set<string>();
  const commits: string[] = [];
  for (const want of wants) {
    let id = want;
    // A tag is sent with what it points at.
    for (let depth = 0; depth < 16; depth++) {
      const object = await repo.read(id);
      if (!object) break;
      if (object.type !== 'tag') {
        if (object.type === 'commit') commits.push(id);
        else objects.add(id);
        break;
      }
      objects.add(id);
      id = parseTag(object.content).object;
    }
  }
  const theirs = await reachable(repo, common);
  const sent = [...(await reachable(repo, commits))].filter((id) => !theirs.has(id));
  // Trees and blobs the client has: those of the commits it said it has.
  const known = new Set<string>();
  for (const id of common) {
    const commit = await repo.commit(id);
    if (commit) await collectTree(repo, commit.tree, known, new Set());
  }
  for (const id of sent) {
    objects.add(id);
    const commit = await repo.commit(id);
    if (commit) await collectTree(repo, commit.tree, objects, known);
  }
  if (includeTag) {
    const sentCommits = new Set(sent);
    for (const { ref, id } of await repo.refs()) {
      if (!ref.startsWith('refs/tags/')) continue;
      const object = await repo.read(id);
      if (object?.type === 'tag' && sentCommits.has(parseTag(object.content).object)) objects.add(id);
    }
  }
  const raw: RawObject[] = [];
  for (const id of objects) {
    const object = await repo.read(id);
    if (!object) throw new GitProtocolError(`missing object ${id}`);
    raw.push(object);
  }
  return writePack(raw);
}

/** Adds a tree and everything below it to `into`, skipping what `skip` holds (submodule commits are not objects here). */
async function collectTree(repo: MemoryRepository, tree: string, into: Set<string>, skip: Set<string>): Promise<void> {
  if (into.has(tree) || skip.has(tree)) return;
  into.add(tree);
  for (const item of (await repo.tree(tree)) ?? []) {
    if (item.mode === '160000' || into.has(item.id) || skip.has(item.id)) continue;
    if (item.mode === '040000') await collectTree(repo, item.id, into, skip);
    else into.add(item.id);
  }
}


/** Capabilities of the v0 advertisement: what `serveUploadPackV0` understands. */
const V0_CAPABILITIES = 'multi_ack_detailed side-band-64k include-tag no-progress object-format=sha1 agent=repohost-memory';

/** The v0 advertisement (`git upload-pack --advertise-refs`): HEAD, then every ref with annotated tags peeled. */
export async function advertiseUploadPackV0(repo: MemoryRepository): Promise<Buffer> {
  const branch = await repo.headBranch();
  const head = branch ? await repo.resolveRef(`refs/heads/${branch}`) : undefined;
  const capabilities = head ? `${V0_CAPABILITIES} symref=HEAD:refs/heads/${branch}` : V0_CAPABILITIES;
  const lines: string[] = [];
  if (head) lines.push(`${head} HEAD`);
  for (const { ref, id } of await repo.refs()) {
    lines.push(`${id} ${ref}`);
    const peeled = await repo.peel(id);
    if (peeled && peeled.id !== id) lines.push(`${peeled.id} ${ref}^{}`);
  }
  if (lines.length === 0) lines.push(`${'0'.repeat(40)} capabilities^{}`);
  return Buffer.concat([...lines.map((line, i) => pktLine(i === 0 ? `${line}\0${capabilities}\n` : `${line}\n`)), FLUSH_PKT]);
}

/**
 * One stateless v0 request: wants (capabilities on the first), a flush, haves, then `done` or a flush. Without
 * `done` the answer acknowledges the common haves (`ACK … common`, then `ACK … ready` once there is one) and ends
 * with `NAK`; the client then sends `done`, and the answer is the last `ACK` (or `NAK`) and the pack.
 */
export async function serveUploadPackV0(repo: MemoryRepository, request: Buffer): Promise<Buffer[]> {
  const wants: string[] = [];
  const haves: string[] = [];
  let capabilities: string[] = [];
  let done = false;
  for (const packet of parsePackets(request)) {
    if (packet.kind !== 'data') continue;
    const [name = '', id = '', ...rest] = packet.text.split(' ');
    if (name === 'want') {
      if (!FULL_HEX_ID.test(id)) throw new GitProtocolError('protocol error: bad want');
      if (wants.length === 0) capabilities = rest;
      wants.push(id);
    } else if (name === 'have') {
      if (!FULL_HEX_ID.test(id)) throw new GitProtocolError('protocol error: bad have');
      haves.push(id);
    } else if (packet.text === 'done') done = true;
    else if (name === 'shallow' || name === 'deepen' || name === 'filter') throw new GitProtocolError(`${name} is not supported`);
  }
  if (wants.length === 0) return [];
  for (const want of wants) if (!(await repo.read(want))) throw new GitProtocolError(`upload-pack: not our ref ${want}`);
  const common: string[] = [];
  for (const have of haves) if (await repo.commit(have)) common.push(have);
  if (!done) {
    const out = common.map((id) => pktLine(`ACK ${id} common\n`));
    if (common.length > 0) out.push(pktLine(`ACK ${common[common.length - 1]} ready\n`));
    out.push(pktLine('NAK\n'));
    return out;
  }
  const out = [pktLine(common.length > 0 ? `ACK ${common[common.length - 1]}\n` : 'NAK\n')];
  const pack = await makePack(repo, wants, common, capabilities.includes('include-tag'));
  if (!capabilities.includes('side-band-64k') && !capabilities.includes('side-band')) return [...out, pack];
  const band = capabilities.includes('side-band-64k') ? SIDEBAND_DATA : 1000 - 5;
  for (let at = 0; at < pack.length; at += band) out.push(pktLine(Buffer.concat([Buffer.from([1]), pack.subarray(at, at + band)])));
  out.push(FLUSH_PKT);
  return out;
}
