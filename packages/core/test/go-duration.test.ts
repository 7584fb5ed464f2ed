import { describe, expect, it } from 'vitest';
import { formatGoDuration, formatGoNanos, GoDurationError, parseGoDuration, parseGoDurationNanos } from '../src/go-duration.js';

describe('Go durations', () => {
  it('reads what time.ParseDuration reads and writes what Duration.String writes', () => {
    const cases: [string, number | undefined][] = [
      ['8h', 28800],
      ['8h0m0s', 28800],
      ['1h30m', 5400],
      ['1.5h', 5400],
      ['10m', 600],
      ['90s', 90],
      ['0', 0],
      ['0s', 0],
      ['-5m', -300],
      ['', undefined],
      ['8', undefined],
      ['h', undefined],
      ['8d', undefined],
      ['1h 30m', undefined],
    ];
    for (const [text, seconds] of cases) expect([text, parseGoDuration(text)]).toEqual([text, seconds]);
    expect(formatGoDuration(28800)).toBe('8h0m0s');
    expect(formatGoDuration(600)).toBe('10m0s');
    expect(formatGoDuration(45)).toBe('45s');
    expect(formatGoDuration(0)).toBe('0s');
    expect(formatGoDuration(3661)).toBe('1h1m1s');
  });

  it("refuses with Go's own error texts, which the API answers", () => {
    const message = (text: string) => {
      try {
        parseGoDurationNanos(text);
        return 'parsed';
      } catch (error) {
        expect(error).toBeInstanceOf(GoDurationError);
        return (error as Error).message;
      }
    };
    expect(message('soon')).toBe('time: invalid duration "soon"');
    expect(message('')).toBe('time: invalid duration ""');
    expect(message('8')).toBe('time: missing unit in duration "8"');
    expect(message('8d')).toBe('time: unknown unit "d" in duration "8d"');
    expect(message('3000000h')).toBe('time: invalid duration "3000000h"');
    expect(parseGoDurationNanos('1.5s')).toBe(1.5e9);
    expect(formatGoNanos(1.5e9)).toBe('1.5s');
    expect(formatGoNanos(5e6)).toBe('5ms');
    expect(formatGoNanos(600e9)).toBe('10m0s');
  });
});
