import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";

import { TrpcProvider } from "@/components/providers/trpc-provider.tsx";
import { themeScript } from "@/components/theme/theme.ts";
import { TooltipProvider } from "@/components/ui/tooltip.tsx";

import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Patchbay", template: "%s · Patchbay" },
  description: "Chat with LLMs whose MCP tools you re-wire live.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

// Every page renders per request: the CSP nonce (proxy.ts) is new each time.
export default async function RootLayout({ children }: { children: ReactNode }) {
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // The theme script sets <html>'s class before hydration, hence suppressHydrationWarning.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body className="min-h-dvh">
        <TrpcProvider>
          <TooltipProvider delayDuration={400}>{children}</TooltipProvider>
        </TrpcProvider>
      </body>
    </html>
  );
}
