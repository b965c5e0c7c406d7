// Prisma CLI configuration (Prisma 7 reads the datasource URL from here, not from schema.prisma).
// Patchbay applies migrations itself at start (server/db/migrate.ts); this file lets users with the
// native engine run `npx prisma migrate deploy` / `prisma studio` against DATABASE_URL too.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/patchbay" },
});
