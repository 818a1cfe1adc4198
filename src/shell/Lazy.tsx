// Loads code on demand: route screens and the signed-in layout. A failed
// load shows "Network Error" and reloads the page after 1.5 s (SPEC §2, §9).
import { useEffect, useState, type ComponentType } from 'react';
import { i18n } from '@lingui/core';
import { MSG_NETWORK_ERROR } from '../api/errors.ts';
import { notify } from '../ui/toast.ts';
import { page } from '../state/session.ts';
import { Loading } from '../ui/Status.tsx';

export const ROUTE_ERROR_RELOAD_MS = 1500;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loader<P> = () => Promise<{ default: ComponentType<P> }>;
const loaded = new Map<Loader<never>, ComponentType<never>>();

export function Lazy<P extends object>({ load, props }: { load?: Loader<P>; props: P }) {
  const [, setTick] = useState(0);
  const Component = load && (loaded.get(load as Loader<never>) as ComponentType<P> | undefined);
  useEffect(() => {
    if (!load || loaded.has(load as Loader<never>)) return;
    let live = true;
    load().then(
      (m) => {
        loaded.set(load as Loader<never>, m.default as ComponentType<never>);
        if (live) setTick((n) => n + 1);
      },
      () => {
        notify('error', i18n._(MSG_NETWORK_ERROR));
        setTimeout(() => page.reload(), ROUTE_ERROR_RELOAD_MS);
      },
    );
    return () => {
      live = false;
    };
  }, [load]);
  if (!Component) return <Loading />;
  return <Component {...props} />;
}
