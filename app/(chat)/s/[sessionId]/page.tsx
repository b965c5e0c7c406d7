import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";

import { ChatView } from "@/components/chat/chat-view.tsx";
import { isToolsOpenIn } from "@/components/chat/tools-open-cookie.ts";
import { requireUser } from "@/server/auth/session.ts";
import { getDb } from "@/server/db/client.ts";
import { isAppError } from "@/server/errors.ts";
import { getChatSession } from "@/server/db/chat-sessions.ts";

import { prefetchChatPage } from "./prefetch-chat-page.ts";

type Params = Promise<{ sessionId: string }>;

/** The chat, the signed-in user's own: read once per request (the title and the page both ask). */
const loadSession = cache(async (sessionId: string) => {
  const user = await requireUser(`/s/${sessionId}`);
  try {
    return await getChatSession(await getDb(), user.id, sessionId);
  } catch (error) {
    if (isAppError(error) && error.type === "not_found") notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { sessionId } = await params;
  return { title: (await loadSession(sessionId)).title };
}

export default async function ChatPage({ params }: { params: Params }) {
  const { sessionId } = await params;
  const session = await loadSession(sessionId);
  const isToolsOpen = isToolsOpenIn((await cookies()).toString());
  return (
    <HydrationBoundary state={await prefetchChatPage(session.id)}>
      <ChatView sessionId={session.id} isToolsOpen={isToolsOpen} />
    </HydrationBoundary>
  );
}
