// A file input with its label: the one way a screen takes a file (a face
// photo, a spreadsheet, firmware). The device checks size and format itself
// (SPEC §5: 10101, 10102); `accept` only narrows the browser's chooser.
import { useId } from 'react';

export function FilePick({ label, accept, onFile }: { label: string; accept: string; onFile: (f: File | null) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="file" accept={accept} onChange={(e) => onFile(e.currentTarget.files?.[0] ?? null)} />
    </div>
  );
}
