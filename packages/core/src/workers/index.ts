/** The workers folder's public surface: the worker-thread pool CPU-heavy work runs in. */
export { OffloadBudgetError, OffloadMemoryError, OffloadPool, type OffloadPoolOptions } from './pool.js';
