// /user/identify: the user's face. Face enrolment on the terminal with the
// SPEC §4 countdown (enrolling again replaces the face), and the face photo: the
// stored one, a preview of the one picked, and the upload, whose size and
// format the device checks (10101, 10102).
import { useEffect, useMemo, useState } from 'react';
import { i18n } from '@lingui/core';
import { requestGoform } from '../../api/request.ts';
import { requestFile } from '../../api/file.ts';
import { MSG_SUCCESS } from '../../api/errors.ts';
import { notify } from '../../ui/toast.ts';
import { FilePick } from '../../ui/FilePick.tsx';
import { EnrolState, WithUser, useEnrol, useUser, type UserInfo } from './enrol.tsx';
import { forUser } from './pick.tsx';

/** An object URL for a blob, revoked when it changes or the screen closes. */
function useBlobUrl(blob: Blob | null) {
  const url = useMemo(() => blob && URL.createObjectURL(blob), [blob]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  return url;
}

function Face({ u, reload }: { u: UserInfo; reload: () => void }) {
  const e = useEnrol(u.UserID, 0, reload);
  const [stored, setStored] = useState<Blob | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const storedUrl = useBlobUrl(stored);
  const preview = useBlobUrl(file);
  useEffect(() => {
    if (u.Photo) requestFile('GetUserPhoto', { UserID: u.UserID }).then(setStored, () => undefined);
  }, [u.Photo]);

  const upload = async () => {
    if (!file) return;
    setBusy(true);
    try {
      await requestGoform('UploadUserPhoto', { UserID: u.UserID, Photo: file });
      notify('success', i18n._(MSG_SUCCESS));
      setStored(file);
      setFile(null);
    } catch {
      // Already said (10101 too large, 10102 not an image); the picked photo stays.
    }
    setBusy(false);
  };
  return (
    <>
      <p>{i18n._(u.Face ? /*i18n*/ 'user.faceOn' : /*i18n*/ 'user.faceOff')}</p>
      <EnrolState e={e} text={/*i18n*/ 'user.faceWaiting'} />
      <div className="actions">
        <button type="button" className="button primary" disabled={e.waiting} onClick={() => e.start(() => requestGoform('getOnlineEnrollStatus', { UserID: u.UserID, Type: 0, Start: 1 }))}>
          {i18n._('user.enrolFace')}
        </button>
      </div>
      <h2>{i18n._('user.photo')}</h2>
      {storedUrl && <img src={storedUrl} alt={i18n._('user.photoStored')} />}
      {preview && <img src={preview} alt={i18n._('user.photoPreview')} />}
      <FilePick label={i18n._('user.pickPhoto')} accept="image/jpeg,image/png" onFile={setFile} />
      <div className="actions">
        <button type="button" className="button primary" disabled={!file || busy} onClick={upload}>
          {i18n._('user.upload')}
        </button>
      </div>
    </>
  );
}

export const Identify = forUser(({ id }) => {
  const [user, reload] = useUser(id);
  return <WithUser user={user} retry={reload}>{(u) => <Face u={u} reload={reload} />}</WithUser>;
});
