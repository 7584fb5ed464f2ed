/** Moved to users (an account acting is identity, below access); kept so importers need not change at once. */
export * from '../users/actor.js';
