/**
 * What tabs of one browser tell each other about stored projects, over a BroadcastChannel: a
 * project's records changed (which scopes), the list changed, a project was deleted. Messages
 * name records, never carry them: the receiver reads what was stored, so it can never apply a
 * write that did not happen.
 */
export type TabMessage =
  | { type: 'changed'; projectId: string; scopes: string[]; from: string }
  | { type: 'list'; from: string }
  | { type: 'deleted'; projectId: string; from: string };

export interface TabChannel {
  readonly tabId: string;
  post(message: TabMessage): void;
  listen(fn: (message: TabMessage) => void): () => void;
  close(): void;
}

export const CHANNEL_NAME = 'traversa-projects';

export function openTabChannel(name = CHANNEL_NAME): TabChannel {
  const tabId = Math.random().toString(36).slice(2, 10);
  if (typeof BroadcastChannel === 'undefined') {
    // No other tab can be told (an old browser): this tab still works on its own.
    return { tabId, post: () => {}, listen: () => () => {}, close: () => {} };
  }
  const channel = new BroadcastChannel(name);
  const listeners = new Set<(m: TabMessage) => void>();
  channel.onmessage = (e: MessageEvent<TabMessage>) => {
    if (e.data?.from !== tabId) for (const fn of listeners) fn(e.data);
  };
  return {
    tabId,
    post: (message) => channel.postMessage(message),
    listen: (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    close: () => channel.close(),
  };
}
