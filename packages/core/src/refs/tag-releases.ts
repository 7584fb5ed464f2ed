/**
 * Whether a release holds a tag name: the tags API refuses to create or delete such a tag. Releases sit above refs
 * (a release names a tag), so refs declares the question and the releases domain provides it (`refs.tagReleases`).
 */
export interface TagReleases {
  /** Whether a release (a draft included) uses this tag name in the repository. */
  hasReleaseOnTag(repoId: number, tag: string): Promise<boolean>;
}

declare module '../context.js' {
  interface CoreProviders {
    'refs.tagReleases': TagReleases;
  }
}
