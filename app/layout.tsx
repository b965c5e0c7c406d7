import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";

import { TrpcProvider } from "@/components/providers/trpc-provider.tsx";

import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Patchbay", template: "%s · Patchbay" },
  description: "Chat with LLMs whose MCP tools you re-wire live.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-dvh">
        <TrpcProvider>{children}</TrpcProvider>
      </body>
    </html>
  );
}
