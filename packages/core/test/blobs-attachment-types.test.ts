/**
 * What `[attachment] ALLOWED_TYPES` lets in, as Forgejo's upload check decides it: by extension, by the media type
 * sniffed from the first bytes (Go's DetectContentType), or by a wildcard of it.
 */
import { describe, expect, test } from 'vitest';
import { isAllowedType, loadSettings, sniffContentType } from '@repohost/core';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const text = (s: string) => Buffer.from(s);

describe('sniffContentType', () => {
  test.each([
    [PNG, 'image/png'],
    [Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
    [text('GIF89a....'), 'image/gif'],
    [text('%PDF-1.7\n'), 'application/pdf'],
    [Buffer.from([0x50, 0x4b, 3, 4, 20, 0]), 'application/zip'],
    [Buffer.from([0x1f, 0x8b, 8, 0]), 'application/x-gzip'],
    [text('  <!DOCTYPE html><html>'), 'text/html; charset=utf-8'],
    [text('<?xml version="1.0"?><a/>'), 'text/xml; charset=utf-8'],
    [text('plain words\n'), 'text/plain; charset=utf-8'],
    [Buffer.from([0, 1, 2, 3]), 'application/octet-stream'],
    [Buffer.alloc(0), 'text/plain; charset=utf-8'],
  ])('%#: %s', (head, type) => {
    expect(sniffContentType(head)).toBe(type);
  });
});

describe('isAllowedType', () => {
  const defaults = loadSettings({ workPath: '/tmp' }).attachment.ALLOWED_TYPES;

  test("Forgejo's default list goes by extension, in any case", () => {
    expect(isAllowedType(defaults, 'shot.PNG', PNG)).toBe(true);
    expect(isAllowedType(defaults, 'notes.txt', text('hi'))).toBe(true);
    expect(isAllowedType(defaults, 'run.exe', Buffer.from([0x4d, 0x5a]))).toBe(false);
    expect(isAllowedType(defaults, 'page.html', text('<html>'))).toBe(false);
    expect(isAllowedType(defaults, 'noextension', PNG)).toBe(false);
  });

  test('media types and wildcards match the sniffed type, not the name', () => {
    expect(isAllowedType('image/png', 'anything.bin', PNG)).toBe(true);
    expect(isAllowedType('image/*', 'x', PNG)).toBe(true);
    expect(isAllowedType('image/*', 'x.png', text('not an image'))).toBe(false);
    expect(isAllowedType('text/plain', 'x.md', text('# hi'))).toBe(true);
  });

  test('an empty list and */* allow everything; | separates entries as in older configurations', () => {
    expect(isAllowedType('', 'x.exe', Buffer.from([0]))).toBe(true);
    expect(isAllowedType(' , ', 'x.exe', Buffer.from([0]))).toBe(true);
    expect(isAllowedType('*/*', 'x.exe', Buffer.from([0]))).toBe(true);
    expect(isAllowedType('.zip|.exe', 'x.exe', Buffer.from([0]))).toBe(true);
  });
});
