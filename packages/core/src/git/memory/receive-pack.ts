/**
 * git's receive-pack (protocol v0, stateless as smart HTTP runs it) for an in-memory repository: the ref
 * advertisement, the commands, the pack indexed by isomorphic-git's `indexPack` and checked to hold every object
 * the new refs need, the checks the native pre-receive hook makes (the default branch is not deleted, an owner
 * over quota may only delete, protected refs are asked about at the server's push-check endpoint), each ref moved
 * only from the old value the client named, and `report-status` (on side band 1 when asked), in git's words.
 */
import { connect } from 'node:net';
import { FULL_HEX_ID, type RefUpdate, type RunServiceOptions } from '../backend.js';
import { FLUSH_PKT, pktLine } from '../pkt-line.js';
import type { MemoryRepository } from './repository.js';
import { ZERO_ID, isValidRefName } from './repository.js';
import { reachable } from './history.js';
import { GitProtocolError } from './upload-pack.js';
import { parseTag } from './objects.js';
import { PackError, readPack } from './pack.js';

const CAPABILITIES = 'report-status delete-refs side-band-64k quiet no-thin object-format=sha1 agent=repohost-memory';
/** Bytes of one side-band pkt-line's payload. */
const SIDEBAND_DATA = 65520 - 5;

/** The v0 advertisement `git receive-pack --advertise-refs` writes: every ref, the capabilities on the first line. */
export async function advertiseReceivePack(repo: MemoryRepository): Promise<Buffer> {
  const refs = await repo.refs();
  const lines: Buffer[] = [];
  if (refs.length === 0) lines.push(pktLine(`${ZERO_ID} capabilities^{}\0${CAPABILITIES}\n`));
  refs.forEach(({ ref, id }, i) => lines.push(pktLine(i === 0 ? `${id} ${ref}\0${CAPABILITIES}\n` : `${id} ${ref}\n`)));
  lines.push(FLUSH_PKT);
  return Buffer.concat(lines);
}

export interface ReceiveContext {
  repo: MemoryRepository;
  /** Moves one ref from `oldId` (all-zero: absent) to `newId` (all-zero: deleted); false when it was elsewhere. */
  moveRef(update: RefUpdate): Promise<boolean>;
}

/** The answer's bytes and the updates that took effect. */
export interface ReceiveResult {
  output: Buffer;
  applied: RefUpdate[];
}

/** Splits a request into its commands and the pack that follows their flush. */
function readRequest(request: Buffer): { commands: RefUpdate[]; capabilities: string[]; pack: Buffer } {
  const commands: RefUpdate[] = [];
  let capabilities: string[] = [];
  let at = 0;
  while (at + 4 <= request.length) {
    const length = Number.parseInt(request.toString('latin1', at, at + 4), 16);
    if (Number.isNaN(length) || (length > 0 && length < 4) || at + length > request.length) throw new GitProtocolError('protocol error: bad line length');
    if (length === 0) {
      at += 4;
      break;
    }
    const line = request.toString('utf8', at + 4, at + length).replace(/\n$/, '');
    at += length;
    const [command = '', caps] = line.split('\0');
    if (caps !== undefined) capabilities = caps.split(' ');
    const [oldId = '', newId = '', ref = ''] = command.split(' ');
    commands.push({ oldId, newId, ref });
  }
  return { commands, capabilities, pack: request.subarray(at) };
}

const isZero = (id: string) => /^0+$/.test(id);

/** Runs a stateless receive-pack request over the repository. */
export async function serveReceivePack(ctx: ReceiveContext, request: Buffer, options: RunServiceOptions): Promise<ReceiveResult> {
  const { commands, capabilities, pack } = readRequest(request);
  const sideband = capabilities.includes('side-band-64k');
  const messages: string[] = [];
  const status = new Map<string, string>();
  const refuse = (reason: string, which = commands) => {
    for (const c of which) if (!status.has(c.ref)) status.set(c.ref, `ng ${c.ref} ${reason}`);
  };
  for (const c of commands) {
    if (!FULL_HEX_ID.test(c.oldId) || !FULL_HEX_ID.test(c.newId) || !isValidRefName(c.ref) || !c.ref.startsWith('refs/')) refuse('funny refname', [c]);
  }
  let unpacked = 'ok';
  let received = new Set<string>();
  if (pack.length > 0) {
    try {
      if (options.maxInputSize && pack.length > options.maxInputSize) throw new PackError('pack exceeds maximum allowed size');
      received = await unpack(ctx.repo, pack);
    } catch (error) {
      if (!(error instanceof PackError)) throw error;
      unpacked = error.message;
      refuse('unpacker error');
    }
  }
  const pending = commands.filter((c) => !status.has(c.ref));
  const missing = await missingObjects(ctx.repo, pending, received);
  refuse('missing necessary objects', pending.filter((c) => missing.has(c.ref)));
  const refusal = await preReceive(ctx.repo, commands.filter((c) => !status.has(c.ref)), options);
  if (refusal !== undefined) {
    if (refusal) messages.push(refusal);
    refuse('pre-receive hook declined');
  }
  const applied: RefUpdate[] = [];
  for (const c of commands) {
    if (status.has(c.ref)) continue;
    if (await ctx.moveRef(c)) {
      applied.push(c);
      status.set(c.ref, `ok ${c.ref}`);
    } else status.set(c.ref, `ng ${c.ref} failed to update ref`);
  }
  const report = Buffer.concat([pktLine(`unpack ${unpacked}\n`), ...commands.map((c) => pktLine(`${status.get(c.ref)}\n`)), FLUSH_PKT]);
  if (!sideband) return { output: report, applied };
  const parts: Buffer[] = messages.map((m) => pktLine(Buffer.concat([Buffer.from([2]), Buffer.from(`${m}\n`)])));
  for (let at = 0; at < report.length; at += SIDEBAND_DATA) parts.push(pktLine(Buffer.concat([Buffer.from([1]), report.subarray(at, at + SIDEBAND_DATA)])));
  parts.push(FLUSH_PKT);
  return { output: Buffer.concat(parts), applied };
}

/**
 * Reads the whole pack first, then writes its objects loose: a pack that cannot be read leaves nothing behind.
 * Returns the ids written.
 */
async function unpack(repo: MemoryRepository, pack: Buffer): Promise<Set<string>> {
  const objects = await readPack(pack, (id) => repo.read(id));
  for (const object of objects) await repo.write(object.type, object.content);
  return new Set(objects.map((o) => o.id));
}

/**
 * Refs whose new value lacks an object it needs (walked down to what the repository's refs already reach); what the
 * push's pack brought (`received`) is known to be there.
 */
async function missingObjects(repo: MemoryRepository, commands: RefUpdate[], received: ReadonlySet<string>): Promise<Set<string>> {
  const missing = new Set<string>();
  const updates = commands.filter((c) => !isZero(c.newId));
  if (updates.length === 0) return missing;
  const known = await reachable(repo, (await repo.refs()).map((r) => r.id));
  const seenTrees = new Set<string>();
  const treeComplete = async (tree: string): Promise<boolean> => {
    if (seenTrees.has(tree)) return true;
    const items = await repo.tree(tree);
    if (!items) return false;
    for (const item of items) {
      if (item.mode === '160000') continue;
      if (item.mode === '040000' ? !(await treeComplete(item.id)) : !received.has(item.id) && !(await repo.has(item.id))) return false;
    }
    seenTrees.add(tree);
    return true;
  };
  for (const c of updates) {
    let id = c.newId;
    let object = await repo.read(id);
    // A tag leads to what it tags.
    while (object?.type === 'tag') {
      id = parseTag(object.content).object;
      object = await repo.read(id);
    }
    if (!object) {
      missing.add(c.ref);
      continue;
    }
    if (object.type === 'tree' && !(await treeComplete(id))) missing.add(c.ref);
    if (object.type !== 'commit') continue;
    const stack = [id];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (seen.has(next) || known.has(next)) continue;
      seen.add(next);
      const commit = await repo.commit(next);
      if (!commit || !(await treeComplete(commit.tree))) {
        missing.add(c.ref);
        break;
      }
      stack.push(...commit.parents);
    }
  }
  return missing;
}

/**
 * The native pre-receive hook's checks: a message (and the whole push refused) or undefined. The default branch
 * is not deleted; over quota, only deletions pass; with protection rules the server's push check decides.
 */
async function preReceive(repo: MemoryRepository, commands: RefUpdate[], options: RunServiceOptions): Promise<string | undefined> {
  if (commands.length === 0) return undefined;
  const head = await repo.headBranch();
  for (const c of commands) {
    if (!isZero(c.newId) && options.overQuota) return 'Quota exceeded';
    if (isZero(c.newId) && c.ref === `refs/heads/${head}`) return `branch ${head} is the default branch and cannot be deleted`;
  }
  if (!options.hookCallback) return undefined;
  const updates = commands.map((c) => `${c.oldId} ${c.newId} ${c.ref}\n`).join('');
  return askPushCheck(options.hookCallback, updates);
}

/** The request the native hook client sends to the push-check endpoint, sent from here (no quarantine to name). */
function askPushCheck(callback: { endpoint: string; token: string }, updates: string): Promise<string | undefined> {
  const colon = callback.endpoint.lastIndexOf(':');
  return new Promise((resolve) => {
    const socket = connect({ host: callback.endpoint.slice(0, colon), port: Number(callback.endpoint.slice(colon + 1)) });
    const answer: Buffer[] = [];
    socket.setTimeout(120_000, () => {
      socket.destroy();
      resolve('the server did not check this push in time');
    });
    socket.on('connect', () => socket.end(`${JSON.stringify({ token: callback.token, updates, env: {} })}\n`));
    socket.on('data', (chunk: Buffer) => answer.push(chunk));
    socket.on('error', () => resolve('the server could not check this push'));
    socket.on('end', () => {
      try {
        const reply = JSON.parse(Buffer.concat(answer).toString('utf8')) as { ok?: unknown; message?: unknown };
        if (reply.ok === true) resolve(undefined);
        else resolve(typeof reply.message === 'string' ? reply.message : 'the push was refused');
      } catch {
        resolve('the server could not check this push');
      }
    });
  });
}

