// The render worker when RepoHost runs from its TypeScript sources (the test suite): worker threads do not go
// through the test runner's transform, so this one registers tsx's loader before importing the real entry. Built
// packages load dist/render-worker.js instead and never read this file.
import { register } from 'tsx/esm/api';

register();
const { default: renderJob } = await import('./render-worker.ts');

export default renderJob;
