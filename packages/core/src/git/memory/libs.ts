/**
 * isomorphic-git and memfs are loaded on first use (a few hundred milliseconds and several MiB): importing
 * `@repohost/core` for the native backend never pays for them. The modules are stateless; each backend makes its
 * own file system from them.
 */
import type { FsClient } from 'isomorphic-git';

export type IsoGit = typeof import('isomorphic-git');

export interface MemoryFs {
  /** What isomorphic-git is given. */
  client: FsClient;
  promises: {
    readFile(path: string): Promise<Buffer>;
    writeFile(path: string, data: Buffer | string): Promise<void>;
    readdir(path: string): Promise<string[]>;
    mkdir(path: string, options?: { recursive?: boolean }): Promise<unknown>;
    rename(from: string, to: string): Promise<void>;
    rm(path: string, options: { recursive: true; force: true }): Promise<void>;
    stat(path: string): Promise<{ isDirectory(): boolean; size: number }>;
  };
  /** Synchronous calls for the hot paths (loose objects): memfs does them at once, without a promise per call. */
  sync: {
    existsSync(path: string): boolean;
    readFileSync(path: string): Buffer;
    writeFileSync(path: string, data: Buffer): void;
    mkdirSync(path: string, options?: { recursive?: boolean }): unknown;
  };
}

export interface MemoryLibs {
  git: IsoGit;
  /** A new, empty file system. */
  newFs(): MemoryFs;
}

let loaded: Promise<MemoryLibs> | undefined;

export function loadMemoryLibs(): Promise<MemoryLibs> {
  return (loaded ??= Promise.all([import('isomorphic-git'), import('memfs')]).then(([git, memfs]) => ({
    git,
    newFs: () => {
      const fs = memfs.createFsFromVolume(new memfs.Volume());
      // memfs's promise API has Node's shapes; these casts name the part of it that is used here.
      return {
        client: fs as unknown as FsClient,
        promises: fs.promises as unknown as MemoryFs['promises'],
        sync: fs as unknown as MemoryFs['sync'],
      };
    },
  })));
}
