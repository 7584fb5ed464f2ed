/**
 * Rendered HTML by content hash and render options: a bounded LRU (entries and bytes), per host. A document that
 * mentions people keeps one rendering per set of mentionable names among them, since who exists (and who the
 * viewer may see) changes what links; the names are looked up on every render, the markdown is not re-parsed.
 */

/** What one document rendered to. */
export interface CachedRender {
  /** Lower-cased `@names` in the document: empty when its HTML depends on nobody. */
  readonly mentions: readonly string[];
  /** HTML by the sorted, comma-joined names that were linked (`''` for none). */
  readonly variants: Map<string, string>;
}

/** Renderings kept for one document: different viewers rarely see more than a couple of variants. */
const MAX_VARIANTS = 4;

export class RenderCache {
  private readonly entries = new Map<string, CachedRender>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  get(key: string): CachedRender | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      // Most recently used last: Map keeps insertion order, so re-inserting moves it to the end.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Stores one variant of a document's rendering, evicting the least recently used documents past the bounds. */
  put(key: string, mentions: readonly string[], variant: string, html: string): void {
    const size = html.length * 2 + key.length * 2;
    if (size > this.maxBytes) return;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { mentions, variants: new Map() };
      this.entries.set(key, entry);
    }
    if (entry.variants.has(variant)) return;
    if (entry.variants.size >= MAX_VARIANTS) {
      const oldest = entry.variants.keys().next().value!;
      this.bytes -= entry.variants.get(oldest)!.length * 2 + key.length * 2;
      entry.variants.delete(oldest);
    }
    entry.variants.set(variant, html);
    this.bytes += size;
    for (const [oldKey, old] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      if (oldKey === key) continue;
      for (const cached of old.variants.values()) this.bytes -= cached.length * 2 + oldKey.length * 2;
      this.entries.delete(oldKey);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
