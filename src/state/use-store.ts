// Subscribe a component to a nanostores store (a few lines instead of a package).
import { useSyncExternalStore } from 'react';
import type { ReadableAtom } from 'nanostores';

export function useStore<T>(store: ReadableAtom<T>): T {
  return useSyncExternalStore(store.listen.bind(store), store.get.bind(store));
}
