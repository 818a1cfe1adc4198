// The certificate the console is served with over HTTPS, below the security
// protocol form (issue 23 §3): whom it names, who signed it, until when, and
// whether it is the device's own self-signed one; and installing the
// organisation's certificate with its key. The device checks both
// (contract/certificate.ts): a refusal shows at the file it names, and what
// was chosen stays for another try. Device text is shown as text.
import { useEffect, useState } from 'react';
import { i18n } from '@lingui/core';
import { requestGoform } from '../../api/request.ts';
import { MSG_SUCCESS, messageFor } from '../../api/errors.ts';
import type { ResponseOf } from '../../../contract/index.ts';
import { CERT_EXPIRED, CERT_KEY_MISMATCH } from '../../../contract/codes.ts';
import { FilePick } from '../../ui/FilePick.tsx';
import { notify } from '../../ui/toast.ts';
import { InfoList } from '../basic/info.tsx';

// Device messages shown by the `msg` the device answers: marked for the catalogue.
void [/*i18n*/ 'msg.certKeyMismatch', /*i18n*/ 'msg.certExpired'];

type Cert = ResponseOf<'SetCertificate'>;
/** Refusals that name the file at fault (10003 and 10005 come back to the screen anyway). */
const AT_FILE = [10101, 10102, CERT_KEY_MISMATCH, CERT_EXPIRED];
const PEM = '.pem,.crt,.cer,.key';

export function Certificate() {
  const [cert, setCert] = useState<Cert>();
  const [files, setFiles] = useState<Record<string, File | null>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => void requestGoform('SetCertificate').then((r) => r.retvalue === 0 && setCert(r as Cert), () => 0), []);
  const pick = (name: string) => (f: File | null) => {
    setFiles((s) => ({ ...s, [name]: f }));
    setErrors({});
  };
  const install = () => {
    setBusy(true);
    requestGoform('GetCertificate', { Cert: files.Cert!, Key: files.Key! }, { expect: AT_FILE })
      .then((r) => {
        const text = r.retvalue ? messageFor(r.retvalue, r.msg) : '';
        if (text) return r.field === 'Cert' || r.field === 'Key' ? setErrors({ [r.field]: text }) : notify('error', text);
        setCert(r as Cert);
        notify('success', i18n._(MSG_SUCCESS));
      }, () => 0)
      .finally(() => setBusy(false));
  };
  return (
    <section className="panel settings" style={{ marginTop: '1rem' }}>
      <h2>{i18n._('net.cert')}</h2>
      {cert && (
        <InfoList
          rows={[
            [/*i18n*/ 'net.certSubject', cert.Subject],
            [/*i18n*/ 'net.certIssuer', cert.Issuer],
            [/*i18n*/ 'net.certUntil', cert.NotAfter.slice(0, 10)],
          ]}
        />
      )}
      {cert?.SelfSigned === 1 && <p>{i18n._('net.certSelf')}</p>}
      <FilePick label={i18n._('net.certFile')} accept={PEM} onFile={pick('Cert')} error={errors.Cert} />
      <FilePick label={i18n._('net.certKey')} accept={PEM} onFile={pick('Key')} error={errors.Key} />
      <div className="actions">
        <button type="button" className="button primary" disabled={busy || !files.Cert || !files.Key} aria-busy={busy} onClick={install}>
          {i18n._('net.certInstall')}
        </button>
      </div>
    </section>
  );
}
