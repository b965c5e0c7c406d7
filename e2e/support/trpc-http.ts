// Calls Patchbay's tRPC endpoints over plain HTTP (superjson envelope), with whatever cookies the
// given request context carries: the way to prove server-side authorization without the UI. A
// mutation says it comes from the app itself (Sec-Fetch-Site), as a browser's own fetch does.
import type { APIRequestContext } from "@playwright/test";

export type TrpcResult = {
  status: number;
  data?: unknown;
  error?: { message: string; data?: { code?: string; appCode?: string } };
};

type Envelope = {
  result?: { data?: { json?: unknown } };
  error?: { json?: TrpcResult["error"] };
};

async function unwrap(response: Awaited<ReturnType<APIRequestContext["get"]>>): Promise<TrpcResult> {
  const body = (await response.json()) as Envelope;
  return { status: response.status(), data: body.result?.data?.json, error: body.error?.json };
}

export async function trpcQuery(request: APIRequestContext, path: string, input?: unknown): Promise<TrpcResult> {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
  return unwrap(await request.get(`/api/trpc/${path}${query}`));
}

export async function trpcMutation(request: APIRequestContext, path: string, input: unknown): Promise<TrpcResult> {
  return unwrap(
    await request.post(`/api/trpc/${path}`, { data: { json: input }, headers: { "sec-fetch-site": "same-origin" } }),
  );
}

/**
 * A mutation that must succeed, retried while the chat's previous answer still runs (409
 * conflict:turn, e.g. sends in a row to build a long chat); its data, or an Error naming the path.
 */
export async function trpcMutationWhenIdle(request: APIRequestContext, path: string, input: unknown): Promise<unknown> {
  for (;;) {
    const result = await trpcMutation(request, path, input);
    if (!result.error) return result.data;
    if (result.error.data?.appCode !== "conflict:turn") throw new Error(`${path}: ${result.error.message}`);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the previous answer is still running
  }
}
