// The /metrics guard: the request must carry `Authorization: Bearer <METRICS_TOKEN>`. Compared in
// constant time (over SHA-256 digests, so the lengths do not leak either).
import { createHash, timingSafeEqual } from "node:crypto";

const digest = (value: string) => createHash("sha256").update(value).digest();

export function hasMetricsToken(authorization: string | null, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(authorization?.trim() ?? "");
  return !!match && timingSafeEqual(digest(match[1]!), digest(token));
}
