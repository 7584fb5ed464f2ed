/**
 * A Map that holds at most `capacity` entries, dropping the oldest inserted first (a Map keeps insertion order):
 * for caches of values that never go stale (prepared statements, identicons, counts under a commit id).
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly capacity: number) {
    super();
  }

  override set(key: K, value: V): this {
    super.set(key, value);
    while (this.size > this.capacity) this.delete(this.keys().next().value!);
    return this;
  }
}
