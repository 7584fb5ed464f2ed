/**
 * What an uploaded image is, read from its header as Go's `image.DecodeConfig` reads it: the format and the
 * dimensions, for the four formats Forgejo accepts as avatars. Anything else is undefined.
 */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export interface ImageInfo {
  format: ImageFormat;
  width: number;
  height: number;
}

export const IMAGE_CONTENT_TYPES: Readonly<Record<ImageFormat, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

export function imageInfo(data: Buffer): ImageInfo | undefined {
  const info = pngInfo(data) ?? gifInfo(data) ?? jpegInfo(data) ?? webpInfo(data);
  return info && info.width > 0 && info.height > 0 ? info : undefined;
}

/** The format alone, from the first bytes (for serving stored avatars). */
export function imageFormat(data: Buffer): ImageFormat | undefined {
  if (data.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  const head = data.toString('latin1', 0, 6);
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  if (data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngInfo(data: Buffer): ImageInfo | undefined {
  if (data.length < 24 || !data.subarray(0, 8).equals(PNG_SIGNATURE) || data.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { format: 'png', width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

function gifInfo(data: Buffer): ImageInfo | undefined {
  const head = data.toString('latin1', 0, 6);
  if (data.length < 10 || (head !== 'GIF87a' && head !== 'GIF89a')) return undefined;
  return { format: 'gif', width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
}

/** Walks the JPEG segments up to the first start-of-frame, which holds the dimensions. */
function jpegInfo(data: Buffer): ImageInfo | undefined {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 4 <= data.length) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    const length = data.readUInt16BE(at + 2);
    if (length < 2) return undefined;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (at + 9 > data.length) return undefined;
      return { format: 'jpeg', height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

function webpInfo(data: Buffer): ImageInfo | undefined {
  if (data.length < 30 || data.toString('latin1', 0, 4) !== 'RIFF' || data.toString('latin1', 8, 12) !== 'WEBP') return undefined;
  const kind = data.toString('latin1', 12, 16);
  if (kind === 'VP8 ') {
    // Lossy: a key frame's start code, then 14-bit width and height.
    if (data[23] !== 0x9d || data[24] !== 0x01 || data[25] !== 0x2a) return undefined;
    return { format: 'webp', width: data.readUInt16LE(26) & 0x3fff, height: data.readUInt16LE(28) & 0x3fff };
  }
  if (kind === 'VP8L') {
    if (data[20] !== 0x2f) return undefined;
    const bits = data.readUInt32LE(21);
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (kind === 'VP8X') {
    return { format: 'webp', width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
  }
  return undefined;
}
