// tRPC over HTTP: every query and mutation of server/api/root.ts (server/api/trpc-http.ts says what
// is checked and how answers are shaped). `npm start` serves these paths from its API lane before
// Next.js sees them (server/api/http-lane.ts); this route serves them under `next dev` and a plain
// `next start`. The proxy (proxy.ts) skips it: its answers carry the API's own headers.
import { answerTrpc } from "@/server/api/trpc-http.ts";

export { answerTrpc as GET, answerTrpc as POST };
