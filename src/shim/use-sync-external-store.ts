// Stands in for the use-sync-external-store CommonJS shim that wouter imports:
// preact/compat implements the hook, so the shim's fallback never ships.
export { useSyncExternalStore } from 'react';
