import type { Metadata } from "next";

import { ConnectorSettings, type OAuthNotice } from "@/components/connectors/connector-settings.tsx";

export const metadata: Metadata = { title: "Connectors" };

const outcomes = new Set<string>(["connected", "denied", "expired", "failed"]);

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** `?oauth=<outcome>&connector=<id>`: where the MCP OAuth callback sends the browser back. */
export default async function ConnectorsPage({ searchParams }: Props) {
  const { oauth, connector } = await searchParams;
  const notice: OAuthNotice | null =
    typeof oauth === "string" && outcomes.has(oauth)
      ? { outcome: oauth as OAuthNotice["outcome"], connectorId: typeof connector === "string" ? connector : null }
      : null;
  return (
    <main className="mx-auto w-full max-w-3xl flex-1 px-4 py-6">
      <ConnectorSettings notice={notice} />
    </main>
  );
}
