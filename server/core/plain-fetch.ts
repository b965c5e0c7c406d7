// The fetch for requests to outside services from the server: Node's own. A production Next.js
// wraps globalThis.fetch at start-up (its data cache, request dedupe and tracing, made for rendering
// pages); a model request passes through none of what the wrapper is for, and it cost about a tenth
// of a millisecond on every request, on the path to the first token. The wrapper keeps the original
// as `_nextOriginalFetch`. Looked up on every call, so a test that stubs globalThis.fetch is still
// what runs (a stub has no original to return).
type WrappedFetch = typeof globalThis.fetch & { _nextOriginalFetch?: typeof globalThis.fetch };

export const plainFetch: typeof globalThis.fetch = (input, init) => {
  const current = globalThis.fetch as WrappedFetch;
  return (current._nextOriginalFetch ?? current)(input, init);
};
