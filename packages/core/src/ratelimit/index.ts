/**
 * The ratelimit folder's public surface (a kernel folder: API rate limit counters shared through the database).
 * Everything else in the folder (its store above all) is private.
 */
export { rateLimitDomain } from './domain.js';
export { RateLimitService, addressCaller, rateLimitCaller, type RateLimitCaller, type RateLimitResource, type RateLimitVerdict } from './service.js';
