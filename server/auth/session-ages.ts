// How long a database session lives and how often its expiry is rolled forward: shared by the Auth.js
// config (config.ts) and the API's own session read (request-user.ts), which must agree on when a
// session is due to be extended.
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
/** Auth.js extends a session's expiry on a read at most once per this long (its `updateAge`). */
export const SESSION_UPDATE_AGE_SECONDS = 24 * 60 * 60;
