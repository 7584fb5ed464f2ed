/**
 * Package indexes are written off the event loop (`packages/workers.ts`): a Helm `index.yaml` of 2,000 chart
 * versions (about a second of YAML writing) comes out of the worker thread exactly as written in place, while a
 * timer on the event loop keeps firing on time; a large file's digests are the ones node computes in place.
 */
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { PackageWorkers, buildHelmIndex, type HelmIndexInput } from '../src/packages/index.js';

const workers = new PackageWorkers();
afterAll(() => workers.close());

function chartVersions(charts: number, versions: number): HelmIndexInput['versions'] {
  const out: HelmIndexInput['versions'] = [];
  for (let c = 0; c < charts; c++) {
    for (let v = versions - 1; v >= 0; v--) {
      const metadata = {
        api_version: 'v2',
        type: 'application',
        name: `chart-${c}`,
        version: `1.${v}.0`,
        app_version: '1.16.0',
        description: `A chart: "quoted", with: colons and # signs ${c}`,
        home: 'https://example.com/home',
        sources: ['https://example.com/src'],
        keywords: ['a', 'b'],
        maintainers: [{ name: 'Ann', email: 'ann@example.com' }],
        annotations: { 'z.io/last': 'z', 'a.io/first': 'yes' },
        dependencies: [{ name: 'dep', version: '^1', repository: 'https://example.com/charts' }],
      };
      out.push({ metadata_json: JSON.stringify(metadata), created_unix: 1_700_000_000 + c * 100 + v });
    }
  }
  // One whose metadata does not read is left out, in the worker as in place.
  out.push({ metadata_json: '{not json', created_unix: 1 });
  return out;
}

/** The largest gap between 5 ms timer ticks while `work` runs. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stall: number }> {
  let last = performance.now();
  let stall = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 5);
  try {
    const value = await work();
    return { value, stall: Math.max(stall, performance.now() - last) };
  } finally {
    clearInterval(timer);
  }
}

describe('package workers', () => {
  it('write a 2,000-version Helm index off the event loop, identical to one written in place', async () => {
    const input: HelmIndexInput = { versions: chartVersions(100, 20), base: 'https://example.com/api/packages/o/helm', contextPath: '/api/packages/o/helm', now: Date.UTC(2026, 10, 29) };
    // A first small task starts the thread, so the measure below is of the index, not of the thread's start.
    await workers.digests(Buffer.alloc(512 * 1024));
    const { value, stall } = await longestStall(() => workers.helmIndex(input));
    expect(value).toBe(buildHelmIndex(input));
    expect(value).toContain('chart-99:\n');
    expect(value).toContain("description: 'A chart: \"quoted\", with: colons and # signs 0'");
    expect(value.match(/- apiVersion: v2\n/g)).toHaveLength(2000);
    // Written in place, the same index holds the loop for hundreds of milliseconds on this machine.
    expect(stall).toBeLessThan(100);
  });

  it('a small index is written in place, the same way', async () => {
    const input: HelmIndexInput = { versions: chartVersions(2, 3), base: 'https://h/api/packages/o/helm', contextPath: '/api/packages/o/helm', now: 0 };
    expect(await workers.helmIndex(input)).toBe(buildHelmIndex(input));
  });

  it("a large file's digests are node's", async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 7, 'deb\n');
    const of = (algorithm: string) => createHash(algorithm).update(bytes).digest('hex');
    expect(await workers.digests(bytes)).toEqual({ size: bytes.length, hash_md5: of('md5'), hash_sha1: of('sha1'), hash_sha256: of('sha256'), hash_sha512: of('sha512') });
    expect((await workers.digests(Buffer.from('small'))).hash_sha256).toBe(createHash('sha256').update('small').digest('hex'));
  });
});
