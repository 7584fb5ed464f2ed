// The highlight worker when RepoHost runs from its TypeScript sources (the test suite): worker threads do not go
// through the test runner's transform, so this one registers tsx's loader before importing the real entry. Built
// packages load dist/highlight-worker.js instead and never read this file.
import { register } from 'tsx/esm/api';

register();
const { default: highlightSource } = await import('./highlight-worker.ts');

export default highlightSource;
