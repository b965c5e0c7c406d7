// What a metrics reader asks for: a period in days back from today (UTC days, today included) and
// optional filters by model, connector, tool and chat, plus whose chats count (the scope: one owner,
// or everyone for an admin). The router and the CSV export parse with this schema.
import { z } from "zod";

export const metricsPeriods = [1, 7, 30, 90, 365] as const;

const name = z.string().trim().min(1).max(200).optional();

export const metricsFilterSchema = z.object({
  days: z
    .number()
    .int()
    .refine((days) => (metricsPeriods as readonly number[]).includes(days), { error: "must be 1, 7, 30, 90 or 365" })
    .default(30),
  model: name,
  connector: name,
  tool: name,
  chatId: z.string().trim().min(1).max(64).optional(),
});

export type MetricsFilter = z.infer<typeof metricsFilterSchema>;

/** Whose figures: one owner's chats, or (null) everyone's. */
export type MetricsScope = { ownerId: string | null };

/** The first UTC day of the period ending today, as YYYY-MM-DD. */
export function periodStart(days: number, now = new Date()): string {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  return start.toISOString().slice(0, 10);
}
