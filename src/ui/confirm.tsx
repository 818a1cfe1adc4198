// "Are you Sure?" prompts (SPEC §5): confirmAction() resolves true on OK.
import { atom } from 'nanostores';
import { i18n } from '@lingui/core';
import { useStore } from '../state/use-store.ts';
import { Dialog, DialogButtons } from './Dialog.tsx';

interface Pending {
  text: string;
  resolve: (ok: boolean) => void;
}
const $pending = atom<Pending | null>(null);

export function confirmAction(text = i18n._('confirm.sure')): Promise<boolean> {
  $pending.get()?.resolve(false);
  return new Promise((resolve) => $pending.set({ text, resolve }));
}

export function ConfirmHost() {
  const pending = useStore($pending);
  const answer = (ok: boolean) => {
    pending?.resolve(ok);
    $pending.set(null);
  };
  return (
    <Dialog
      open={!!pending}
      role="alertdialog"
      title={i18n._('confirm.title')}
      onClose={() => answer(false)}
      footer={<DialogButtons onCancel={() => answer(false)} onOk={() => answer(true)} />}
    >
      <p>{pending?.text}</p>
    </Dialog>
  );
}
