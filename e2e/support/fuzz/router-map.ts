// Prints the app's tRPC procedures as JSON, read from the router itself (appRouter._def.procedures):
// each one's path, kind (query / mutation / subscription) and input schema as JSON Schema. The fuzz
// spec (e2e/external/fuzz.spec.ts) generates its requests from this, so a new procedure is covered
// without anyone listing it. Run with tsx; it only imports the router, it starts nothing.
import { z } from "zod";

import { appRouter } from "../../../server/api/root.ts";

export type ProcedureInfo = { path: string; type: "query" | "mutation" | "subscription"; input: unknown };

type ProcedureDef = { _def: { type: ProcedureInfo["type"]; inputs: z.ZodType[] } };

const procedures = appRouter._def.procedures as unknown as Record<string, ProcedureDef>;
const map: ProcedureInfo[] = Object.entries(procedures).map(([path, procedure]) => {
  const [input] = procedure._def.inputs;
  return {
    path,
    type: procedure._def.type,
    input: input ? z.toJSONSchema(input, { io: "input", unrepresentable: "any" }) : null,
  };
});
process.stdout.write(JSON.stringify(map));
process.exit(0);
