// The fake LLM provider for integration tests, e2e tests and benchmarks: a real node:http server on
// 127.0.0.1 that speaks the Anthropic Messages, OpenAI Responses, Gemini and OpenAI-compatible chat
// wire formats over SSE, so the real AI SDK providers work against it unchanged with `baseURL` set
// to one of `baseUrls`. Replies come from per-provider script queues, then the global queue (the
// first one a request may take: a reply scripted `forMessage` only answers that message), then
// the default reply (fixed text, or "echo"). Every request is recorded (secrets redacted), including
// whether the client hung up mid-stream (`aborted`). Only streaming requests are implemented; a
// non-streaming one gets a 400 in the provider's error format. Every request is validated strictly,
// the way the real API does (validate-*.ts: tool names and schemas, message and tool-call ordering),
// and refused with a 400 in the provider's error format, recorded with its `error`, when invalid, so
// a test can assert that no request was invalid. The subscription endpoints
// (`subscriptionUrls`: Claude with a bearer token, the ChatGPT Codex backend, Code Assist with its
// onboarding) check each request's shape strictly first (subscriptions.ts) and reuse the same wire
// formats; Code Assist events go out wrapped in `{ response: … }`. The compatible endpoint also lists
// its models (GET /compat/v1/models), as Ollama or vLLM do. Generated signatures and encrypted
// reasoning are bound to the endpoint and account that received them, and a request echoing one
// bound to another (a chat switched from one account to another) is refused as the real APIs do.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo } from "node:net";

import { handleControlRequest, sendJson } from "./control.ts";
import { parseJson, readBody, redactHeaders, writeStream } from "./http-io.ts";
import { describeRequest, type RecordedRequest } from "./recorded-request.ts";
import { providerRoutes, type Route } from "./routes.ts";
import {
  defaultReply,
  isFor,
  type ParsedRequest,
  PROVIDER_IDS,
  type ProviderId,
  type ReplySource,
  resolveReply,
  type ScriptedReply,
} from "./script.ts";
import { foreignSignatureFailure, requestScope } from "./signature-scope.ts";
import { CodeAssistAccounts, handleCodeAssistSetup } from "./subscriptions.ts";

export interface FakeProviderOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** The reply when no script is queued: a fixed reply, a function of the request, or "echo". */
  defaultReply?: ReplySource;
  /** Gets one line per model request once it is answered (which reply it took, how it ended). */
  log?: (line: string) => void;
}

export interface FakeProvider {
  url: string;
  port: number;
  /** What to pass as `baseURL` to createAnthropic, createOpenAI, createGoogleGenerativeAI, createOpenAICompatible. */
  baseUrls: Record<ProviderId, string>;
  /** The subscription endpoints: ANTHROPIC_SUBSCRIPTION_BASE_URL, CHATGPT_BASE_URL, CODE_ASSIST_BASE_URL. */
  subscriptionUrls: { anthropic: string; chatgpt: string; codeAssist: string };
  /** Code Assist onboarding state (which users have a project). */
  codeAssist: CodeAssistAccounts;
  /** Queue replies for whichever provider is called next (after that provider's own queue). */
  enqueue(...replies: ReplySource[]): void;
  /** Queue replies for one provider's endpoint. */
  script(provider: ProviderId, ...replies: ReplySource[]): void;
  setDefaultReply(reply: ReplySource): void;
  /** Recorded requests, oldest first; the records are live (aborted is set when the client hangs up). */
  requests(provider?: ProviderId): readonly RecordedRequest[];
  /** Forgets recorded requests and drops every queued reply. */
  clear(): void;
  close(): Promise<void>;
}

/** What the OpenAI-compatible endpoint lists at GET /compat/v1/models (Ollama-style ids). */
export const COMPAT_MODELS = ["llama3.2", "qwen2.5-coder"];

export async function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const queues = new Map<ProviderId | "any", ReplySource[]>();
  const recorded: RecordedRequest[] = [];
  let fallback: ReplySource = options.defaultReply ?? defaultReply;
  const codeAssist = new CodeAssistAccounts();
  const routes = providerRoutes(codeAssist);
  let isClosing = false;

  const enqueue = (key: ProviderId | "any", replies: ReplySource[]) =>
    queues.set(key, [...(queues.get(key) ?? []), ...replies]);
  /** Drops replies for the same message that an earlier attempt of a test left queued. */
  const dropEarlierAttempts = ({ forMessage, attempt }: ScriptedReply) => {
    if (!forMessage || !attempt) return;
    const isStale = (source: ReplySource) =>
      typeof source === "object" && source.forMessage === forMessage && source.attempt !== attempt;
    for (const [key, queue] of queues)
      queues.set(
        key,
        queue.filter((source) => !isStale(source)),
      );
  };
  /** The first queued reply this request may take (see `forMessage`), removed from its queue. */
  const take = (key: ProviderId | "any", request: ParsedRequest): ReplySource | undefined => {
    const queue = queues.get(key) ?? [];
    const index = queue.findIndex((source) => isFor(source, request));
    return index === -1 ? undefined : queue.splice(index, 1)[0];
  };
  const nextReply = (provider: ProviderId, request: ParsedRequest) =>
    take(provider, request) ?? take("any", request) ?? fallback;
  const clear = () => {
    recorded.length = 0;
    queues.clear();
  };

  async function handleProviderRequest(route: Route, req: IncomingMessage, res: ServerResponse, url: URL) {
    const raw = await readBody(req);
    const body = parseJson(raw);
    const record: RecordedRequest = {
      provider: route.wire.provider,
      method: req.method ?? "",
      path: url.pathname + url.search,
      headers: redactHeaders(req),
      body: body ?? raw,
      receivedAt: new Date(),
      status: 200,
      aborted: false,
    };
    recorded.push(record);
    const fail = (status: number, message: string, type?: string, headers?: Record<string, string>) => {
      record.status = status;
      record.error = message;
      const encode =
        route.encodeHttpError ?? ((...args: [number, string, string?]) => route.wire.encodeHttpError(...args));
      sendJson(res, status, encode(status, message, type), headers);
    };
    if (body === undefined) return fail(400, "The fake provider expects a JSON object body.");
    const failure = route.check?.(req, url, body);
    if (failure) return fail(failure.status, failure.message, failure.type);
    if (!route.isStreaming(body, url)) {
      return fail(400, "The fake provider only implements streaming requests (stream: true / alt=sse).");
    }
    const inner = route.unwrapRequest?.(body) ?? { body, path: url.pathname };
    const invalid = route.wire.validateRequest(inner.body);
    if (invalid !== undefined) return fail(400, invalid);
    const signatureScope = requestScope(req, route.path.source);
    const foreign = foreignSignatureFailure(route.wire.provider, inner.body, signatureScope);
    if (foreign) return fail(400, foreign.message, foreign.type);
    const request = route.wire.parseRequest(inner.body, inner.path);
    const source = nextReply(route.wire.provider, request);
    const reply: ScriptedReply = resolveReply(source, request);
    res.once("close", () => options.log?.(describeRequest(record, request, source)));
    if (reply.error !== undefined && "status" in reply.error) {
      return fail(reply.error.status, reply.error.message, reply.error.type, reply.error.headers);
    }
    const createdAt = Math.floor(Date.now() / 1000);
    const context = { body: inner.body, request, requestBytes: raw.length, createdAt, signatureScope };
    const events = route.wire.encodeReply(reply, context);
    const wrap = route.wrapEvent;
    const wrapped = wrap ? events.map((event) => ("abruptClose" in event ? event : wrap(event))) : events;
    await writeStream(res, wrapped, reply.delayMs ?? 0, () => {
      if (!isClosing) record.aborted = true;
    });
  }

  async function handleSetupRequest(req: IncomingMessage, res: ServerResponse, url: URL) {
    const body = req.method === "POST" ? (parseJson(await readBody(req)) ?? {}) : {};
    if (!handleCodeAssistSetup(codeAssist, req, res, url, body)) {
      sendJson(res, 404, {
        error: { code: 404, message: `no Code Assist method ${url.pathname}`, status: "NOT_FOUND" },
      });
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake-provider");
    const route = routes.find((candidate) => candidate.path.test(url.pathname));
    if (req.method === "GET" && url.pathname === "/compat/v1/models") {
      sendJson(res, 200, { object: "list", data: COMPAT_MODELS.map((id) => ({ id, object: "model" })) });
      return;
    }
    const handled =
      url.pathname.startsWith("/code-assist/v1internal") && !route
        ? handleSetupRequest(req, res, url)
        : route && req.method === "POST"
          ? handleProviderRequest(route, req, res, url)
          : handleControlRequest(req, res, url, {
              enqueue: (provider, reply) => {
                dropEarlierAttempts(reply);
                enqueue(provider ?? "any", [reply]);
              },
              requests: (provider) => recorded.filter((r) => provider === undefined || r.provider === provider),
              clear,
            });
    handled.catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? "127.0.0.1"}:${port}`;

  return {
    url,
    port,
    baseUrls: {
      anthropic: `${url}/anthropic/v1`,
      openai: `${url}/openai/v1`,
      google: `${url}/google/v1beta`,
      compat: `${url}/compat/v1`,
    },
    subscriptionUrls: {
      anthropic: `${url}/anthropic/v1`,
      chatgpt: `${url}/chatgpt/backend-api/codex`,
      codeAssist: `${url}/code-assist`,
    },
    codeAssist,
    enqueue: (...replies) => enqueue("any", replies),
    script: (provider, ...replies) => enqueue(provider, replies),
    setDefaultReply: (reply) => {
      fallback = reply;
    },
    requests: (provider) => recorded.filter((r) => provider === undefined || r.provider === provider),
    clear,
    close: () =>
      new Promise<void>((resolve, reject) => {
        isClosing = true;
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

export {
  type ParsedRequest,
  PROVIDER_IDS,
  type ProviderId,
  type RecordedRequest,
  type ReplySource,
  type ScriptedReply,
};
