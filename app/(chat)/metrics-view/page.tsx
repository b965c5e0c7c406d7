import type { Metadata } from "next";

import { MetricsPage } from "@/components/metrics/metrics-page.tsx";

export const metadata: Metadata = { title: "Metrics" };

// `/metrics` itself is the Prometheus scrape endpoint (app/metrics/route.ts).
export default function MetricsViewPage() {
  return (
    <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-6">
      <MetricsPage />
    </main>
  );
}
