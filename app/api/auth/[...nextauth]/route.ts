// Auth.js endpoints: sign-in redirects, OAuth callbacks, sign-out, session.
import { handlers } from "@/server/auth/config.ts";

export const { GET, POST } = handlers;
