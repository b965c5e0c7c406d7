import type { ReactNode } from "react";

import { SessionSidebar } from "@/components/sessions/session-sidebar.tsx";

// The chat pages: the list of chats beside the open chat (a sheet on narrow screens, opened from
// the chat's toolbar). The layout stays mounted while the user moves between chats.
export default function ChatSessionsLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-1">
      <SessionSidebar />
      <div className="flex min-w-0 flex-1 flex-col">{children}</div>
    </div>
  );
}
