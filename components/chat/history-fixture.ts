// Test support for the browser-state unit tests (chat, questions, overlays, the turn memo): the chat
// history the page is loaded with, `SessionHistoryDto & HistoryPolicyDto`, built in one place. By
// default a new empty chat; a test passes only the fields it is about (`session` fields merge into
// the default session). The defaults are typed as the full DTO, so a field the server adds to it
// breaks the build here, once, instead of in every test. Used by tests only.
import type { HistoryPolicyDto, SessionHistoryDto, TurnDto } from "@/server/session/history.ts";

export type ChatHistory = SessionHistoryDto & HistoryPolicyDto;

type HistoryOverrides = Partial<Omit<ChatHistory, "session">> & { session?: Partial<ChatHistory["session"]> };

/** The history of chat `s1`: empty unless `overrides` say otherwise. */
export function buildHistory(overrides: HistoryOverrides = {}): ChatHistory {
  const defaults: ChatHistory = {
    session: {
      id: "s1",
      title: "New chat",
      createdAt: new Date(0),
      updatedAt: new Date(0),
      provider: null,
      model: null,
      providerAccountId: null,
      activeTurnId: null,
      toolsRevision: 0,
    },
    messages: [],
    turns: [],
    subAgentRuns: [],
    lastEventId: null,
    personaId: null,
    approvals: [],
    questions: [],
  };
  const { session, ...rest } = overrides;
  return { ...defaults, ...rest, session: { ...defaults.session, ...session } };
}

/** A turn as the history lists it: streaming, with no requests yet, unless `overrides` say otherwise. */
export function buildTurn(overrides: Partial<TurnDto> & Pick<TurnDto, "id">): TurnDto {
  return {
    status: "streaming",
    provider: "openai",
    model: "m",
    userMessageId: "u1",
    restartOfId: null,
    error: null,
    inputTokens: null,
    outputTokens: null,
    startedAt: new Date(0),
    endedAt: null,
    requests: [],
    ...overrides,
  };
}
