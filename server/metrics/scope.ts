// Who sees whose figures: an admin (ADMIN_EMAILS) sees everyone's chats, anyone else their own.
import { env } from "../env.ts";
import type { MetricsScope } from "./filter.ts";

export function isMetricsAdmin(email: string | null, admins: readonly string[] = env.ADMIN_EMAILS): boolean {
  return email !== null && admins.includes(email.trim().toLowerCase());
}

export function metricsScopeFor(user: { id: string; email: string | null }): MetricsScope {
  return { ownerId: isMetricsAdmin(user.email) ? null : user.id };
}
