import { deflateSync } from 'node:zlib';

/**
 * The generated default avatar: a 5×5 grid mirrored left to right, cells and colour taken from a hash, on white
 * (as Forgejo's identicons are). Written as a two-colour palette PNG, so it is small and needs no image library.
 */
export const IDENTICON_SIZE = 256;
const GRID = 5;
const CELL = 40;
const MARGIN = (IDENTICON_SIZE - GRID * CELL) / 2;

/** The PNG for a hash of at least 16 bytes (as hex): the same hash always gives the same bytes. */
export function identiconPng(hexHash: string): Buffer {
  const bytes = Buffer.from(hexHash.padEnd(32, '0').slice(0, 32), 'hex');
  // Cells of the left three columns from the first 15 bits; the right two mirror them.
  const filled: boolean[][] = [];
  for (let row = 0; row < GRID; row++) {
    filled.push([]);
    for (let col = 0; col < GRID; col++) {
      const source = col < 3 ? col : GRID - 1 - col;
      const bit = row * 3 + source;
      filled[row]!.push(((bytes[bit >> 3]! >> (7 - (bit & 7))) & 1) === 1);
    }
  }
  const [r, g, b] = darkColour(((bytes[14]! << 8) | bytes[15]!) % 360);

  const stride = IDENTICON_SIZE / 8;
  const raw = Buffer.alloc((stride + 1) * IDENTICON_SIZE);
  for (let y = 0; y < IDENTICON_SIZE; y++) {
    const rowStart = y * (stride + 1); // filter byte 0 (none) first
    const cellRow = Math.floor((y - MARGIN) / CELL);
    if (y < MARGIN || cellRow >= GRID) continue;
    for (let x = MARGIN; x < IDENTICON_SIZE - MARGIN; x++) {
      if (filled[cellRow]![Math.floor((x - MARGIN) / CELL)]) raw[rowStart + 1 + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }

  const header = Buffer.alloc(13);
  header.writeUInt32BE(IDENTICON_SIZE, 0);
  header.writeUInt32BE(IDENTICON_SIZE, 4);
  header[8] = 1; // bit depth
  header[9] = 3; // indexed colour
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', Buffer.from([255, 255, 255, r, g, b])),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A saturated, dark colour of the given hue: readable on white. */
function darkColour(hue: number): [number, number, number] {
  const s = 0.6;
  const l = 0.42;
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((hue / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] = hue < 60 ? [c, x, 0] : hue < 120 ? [x, c, 0] : hue < 180 ? [0, c, x] : hue < 240 ? [0, x, c] : hue < 300 ? [x, 0, c] : [c, 0, x];
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}

let crcTable: Uint32Array | undefined;

function crc32(data: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of data) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
