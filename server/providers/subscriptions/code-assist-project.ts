// The Code Assist project of a Google account, onboarded once per account across every app
// instance. Onboarding (load, onboard, poll the operation) runs inside a transaction holding
// `SELECT … FOR UPDATE` on the ProviderAccount row, and the stored metadata is re-read after the
// lock is taken: a second first turn (another tab, another instance) waits, then finds the project
// the first one stored instead of onboarding again. The project and tier are stored once, merged
// into the metadata read under the lock. A failed or cancelled onboarding stores nothing.
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import type { CodeAssistSetup } from "../google/code-assist-onboarding.ts";

/** Onboarding polls for up to five minutes (gemini-cli's pace); a waiter must outlast that. */
export const ONBOARDING_LOCK_TIMEOUT_MS = 6 * 60_000;

type Metadata = Record<string, unknown>;

/** The account's Code Assist project: the stored one, or the one `onboard` sets up (once). */
export async function ensureCodeAssistProject(
  db: Db,
  accountId: string,
  onboard: () => Promise<CodeAssistSetup>,
  timeoutMs = ONBOARDING_LOCK_TIMEOUT_MS,
): Promise<string> {
  return db.$transaction(
    async (tx) => {
      const [row] = await tx.$queryRaw<{ metadata: unknown }[]>`
        SELECT metadata FROM "ProviderAccount" WHERE id = ${accountId} FOR UPDATE`;
      if (!row) throw new AppError("not_found:provider", "That provider account no longer exists.");
      const metadata = (row.metadata ?? {}) as Metadata;
      if (typeof metadata.project === "string" && metadata.project !== "") return metadata.project;
      const setup = await onboard();
      await tx.providerAccount.update({
        where: { id: accountId },
        data: {
          metadata: { ...metadata, project: setup.project, tier: setup.tier },
          plan: setup.tierName ?? setup.tier,
        },
      });
      return setup.project;
    },
    { maxWait: 10_000, timeout: timeoutMs },
  );
}
