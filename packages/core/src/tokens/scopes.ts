/**
 * Access-token scopes as Forgejo names them: `all`, `public-only`, and `read:`/`write:` per category.
 * `write:X` implies `read:X`; `all` grants every category at write level.
 */
export const SCOPE_CATEGORIES = [
  'activitypub',
  'admin',
  'misc',
  'notification',
  'organization',
  'package',
  'issue',
  'repository',
  'user',
] as const;
export type ScopeCategory = (typeof SCOPE_CATEGORIES)[number];
export type ScopeLevel = 'read' | 'write';

export const ALL_SCOPE = 'all';
export const PUBLIC_ONLY_SCOPE = 'public-only';

const CATEGORY_SET = new Set<string>(SCOPE_CATEGORIES);

/** Every scope string a client may ask for. */
export const KNOWN_SCOPES: readonly string[] = [
  ALL_SCOPE,
  PUBLIC_ONLY_SCOPE,
  ...SCOPE_CATEGORIES.flatMap((c) => [`read:${c}`, `write:${c}`]),
];

export class InvalidScopeError extends Error {
  constructor(readonly scope: string) {
    super(`invalid access token scope provided: ${scope}`);
  }
}

/**
 * Parses and normalizes requested scopes as Forgejo does: trims, drops empties, duplicates and the meaningless
 * `sudo`; drops `read:X` when `write:X` is present; writes every category at write level as `all`; orders
 * `public-only` first, then categories in their fixed order. Throws InvalidScopeError on an unknown scope.
 */
export function normalizeScopes(requested: readonly string[]): string[] {
  const set = new Set<string>();
  for (const raw of requested.flatMap((s) => s.split(','))) {
    const scope = raw.trim();
    if (scope === '' || scope === 'sudo') continue;
    if (scope !== ALL_SCOPE && scope !== PUBLIC_ONLY_SCOPE) {
      const [level, category] = scope.split(':');
      if ((level !== 'read' && level !== 'write') || !category || !CATEGORY_SET.has(category)) throw new InvalidScopeError(scope);
    }
    set.add(scope);
  }
  const publicOnly = set.has(PUBLIC_ONLY_SCOPE) ? [PUBLIC_ONLY_SCOPE] : [];
  if (set.has(ALL_SCOPE) || SCOPE_CATEGORIES.every((c) => set.has(`write:${c}`))) return [...publicOnly, ALL_SCOPE];
  const granted = SCOPE_CATEGORIES.flatMap((c) => (set.has(`write:${c}`) ? [`write:${c}`] : set.has(`read:${c}`) ? [`read:${c}`] : []));
  return [...publicOnly, ...granted];
}

/** Does a normalized scope list grant `level` access to `category`? */
export function scopesGrant(scopes: readonly string[], category: ScopeCategory, level: ScopeLevel): boolean {
  if (scopes.includes(ALL_SCOPE)) return true;
  if (scopes.includes(`write:${category}`)) return true;
  return level === 'read' && scopes.includes(`read:${category}`);
}

export function isPublicOnly(scopes: readonly string[]): boolean {
  return scopes.includes(PUBLIC_ONLY_SCOPE);
}

/** True when the list grants something (a token whose scopes are only `public-only`, or nothing, grants nothing). */
export function grantsAnything(scopes: readonly string[]): boolean {
  return scopes.some((s) => s !== PUBLIC_ONLY_SCOPE);
}
