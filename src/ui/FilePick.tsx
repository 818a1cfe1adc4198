// A file input with its label: the one way a screen takes a file (a face
// photo, a spreadsheet, firmware, a certificate). The device checks size and
// format itself (SPEC §5: 10101, 10102); `accept` only narrows the browser's
// chooser. `error`: the device's refusal of this file, said at it.
import { useId } from 'react';

export function FilePick({ label, accept, onFile, error }: { label: string; accept: string; onFile: (f: File | null) => void; error?: string }) {
  const id = useId();
  return (
    <div className={error ? 'field invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input id={id} type="file" accept={accept} aria-invalid={error ? true : undefined} aria-describedby={error ? id + 'e' : undefined} onChange={(e) => onFile(e.currentTarget.files?.[0] ?? null)} />
      {error && (
        <p className="field-error" id={id + 'e'}>
          {error}
        </p>
      )}
    </div>
  );
}
