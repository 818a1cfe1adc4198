// The two states every screen that reads the device shows before its content:
// loading, and a failed read with a way to try again.
import { i18n } from '@lingui/core';

export const Loading = () => (
  <p className="loading" aria-busy="true">
    {i18n._('state.loading')}
  </p>
);

export const Failed = ({ message, retry }: { message: string; retry: () => void }) => (
  <div role="alert">
    <p>{message}</p>
    <button type="button" className="button" onClick={retry}>
      {i18n._('action.retry')}
    </button>
  </div>
);
