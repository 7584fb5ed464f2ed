import { Transform, type TransformCallback } from 'node:stream';
import type { RefUpdate } from './backend.js';

/** Encodes one pkt-line (4 hex digits of length, then the payload). */
export function pktLine(payload: string | Buffer): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0')), body]);
}

export const FLUSH_PKT = Buffer.from('0000');

/**
 * Passes a receive-pack request through unchanged while reading its command list (`old new ref` pkt-lines up to
 * the first flush), so the caller learns which refs the client asked to change.
 */
export class ReceiveCommandReader extends Transform {
  readonly commands: RefUpdate[] = [];
  private buffered = Buffer.alloc(0);
  private finished = false;

  override _transform(chunk: Buffer, _enc: BufferEncoding, callback: TransformCallback): void {
    if (!this.finished) this.scan(chunk);
    callback(null, chunk);
  }

  private scan(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    let offset = 0;
    while (this.buffered.length - offset >= 4) {
      const length = Number.parseInt(this.buffered.subarray(offset, offset + 4).toString('ascii'), 16);
      if (Number.isNaN(length)) return this.stop();
      if (length === 0) return this.stop();
      if (length < 4) return this.stop();
      if (this.buffered.length - offset < length) break;
      const line = this.buffered.subarray(offset + 4, offset + length).toString('utf8');
      offset += length;
      const command = line.split('\0')[0]!.replace(/\n$/, '');
      const [oldId, newId, ref] = command.split(' ');
      if (oldId && newId && ref && !command.startsWith('shallow ')) this.commands.push({ oldId, newId, ref });
    }
    this.buffered = this.buffered.subarray(offset);
  }

  private stop(): void {
    this.finished = true;
    this.buffered = Buffer.alloc(0);
  }
}
