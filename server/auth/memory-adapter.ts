// An in-memory store for oidc-provider (the local issuer's sessions, codes, grants and tokens).
// Nothing touches disk; expiry is checked on read and swept on write, so no timer keeps the process
// alive. Replaces oidc-provider's development adapter and its start-up warning.
import type { Adapter, AdapterFactory, AdapterPayload } from "oidc-provider";

const GRANTABLE_MODELS = new Set(["AccessToken", "AuthorizationCode", "RefreshToken", "DeviceCode"]);

export function createMemoryAdapter(): AdapterFactory {
  const store = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  const read = (key: string) => {
    const entry = store.get(key);
    if (entry && entry.expiresAt > Date.now()) return entry.payload;
    store.delete(key);
    return undefined;
  };
  const findWhere = (model: string, match: (payload: AdapterPayload) => boolean) => {
    for (const key of store.keys()) {
      const payload = key.startsWith(`${model}:`) ? read(key) : undefined;
      if (payload && match(payload)) return payload;
    }
    return undefined;
  };
  return (model): Adapter => ({
    upsert: (id, payload, expiresIn) => {
      for (const key of store.keys()) read(key);
      store.set(`${model}:${id}`, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
      return Promise.resolve();
    },
    find: (id) => Promise.resolve(read(`${model}:${id}`)),
    findByUid: (uid) => Promise.resolve(findWhere(model, (payload) => payload.uid === uid)),
    findByUserCode: (userCode) => Promise.resolve(findWhere(model, (payload) => payload.userCode === userCode)),
    consume: (id) => {
      const payload = read(`${model}:${id}`);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      return Promise.resolve();
    },
    destroy: (id) => {
      store.delete(`${model}:${id}`);
      return Promise.resolve();
    },
    revokeByGrantId: (grantId) => {
      for (const [key, entry] of store) {
        const isGrantable = GRANTABLE_MODELS.has(key.slice(0, key.indexOf(":")));
        if (isGrantable && entry.payload.grantId === grantId) store.delete(key);
      }
      return Promise.resolve();
    },
  });
}
