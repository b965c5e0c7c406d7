-- Patchbay no longer keeps the OAuth / OIDC tokens of a sign-in (server/auth/drop-sign-in-tokens.ts):
-- forget the ones stored before. The account links themselves stay, so everyone still signs in.
UPDATE "Account" SET "access_token" = NULL, "refresh_token" = NULL, "id_token" = NULL, "session_state" = NULL;
