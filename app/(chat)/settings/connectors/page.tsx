import type { Metadata } from "next";

import { ConnectorSettings } from "@/components/connectors/connector-settings.tsx";

export const metadata: Metadata = { title: "Connectors" };

export default function ConnectorsPage() {
  return (
    <main className="mx-auto w-full max-w-3xl flex-1 px-4 py-6">
      <ConnectorSettings />
    </main>
  );
}
