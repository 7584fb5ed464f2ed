import type { Label } from './tables.js';

/**
 * The scope of a label name: the text before its last `/` (`scope/alpha/name` is in `scope/alpha`), or null
 * for a name without one (no `/`, or one only at the start or the end, as Forgejo reads it).
 */
export function labelScope(name: string): string | null {
  const slash = name.lastIndexOf('/');
  return slash > 0 && slash < name.length - 1 ? name.slice(0, slash) : null;
}

/** The scope within which a label excludes others on an issue: its name's scope when it is exclusive, else null. */
export function exclusiveScope(label: Pick<Label, 'name' | 'exclusive'>): string | null {
  return label.exclusive ? labelScope(label.name) : null;
}
