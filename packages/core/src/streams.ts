/** Small stream helpers shared by domains (kernel: imports no domain). */
import type { Readable } from 'node:stream';

/**
 * Waits for the first `count` bytes of a stream and puts them back, so the type can be sniffed before the answer
 * starts. Rejects when the stream fails first.
 */
export function firstBytes(stream: Readable, count: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const done = (error?: Error) => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', done);
      const head = Buffer.concat(chunks);
      if (head.length > 0) stream.unshift(head);
      if (error) reject(error);
      else resolve(head);
    };
    const onEnd = () => done();
    const onReadable = () => {
      let chunk: Buffer | null;
      while (length < count && (chunk = stream.read() as Buffer | null) !== null) {
        chunks.push(chunk);
        length += chunk.length;
      }
      if (length >= count) done();
    };
    if (count <= 0) return resolve(Buffer.alloc(0));
    stream.on('readable', onReadable);
    stream.on('end', onEnd);
    stream.on('error', done);
  });
}
