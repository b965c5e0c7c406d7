#!/bin/sh
# Stand-in for Prisma's native schema engine, which cannot be downloaded offline.
# `prisma generate` only needs it to exist; migrations go through server/db/schema-engine.ts.
echo "Patchbay: the native Prisma schema engine is not installed; use npm run db:migrate / db:migration." >&2
exit 1
