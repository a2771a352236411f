/** The Station screen's corner (camera): what the desk camera sees now, or why it shows nothing. Hidden while the camera is off. */
import { useT } from '../i18n';
import { useCamera } from './cameraStore';
import { CameraVideo } from './CameraVideo';
import { cameraStateText } from './cameraText';

export function CameraCorner() {
  const t = useT();
  const enabled = useCamera((s) => s.settings.enabled);
  const camera = useCamera((s) => s.camera);
  if (!enabled) return null;
  return (
    <div className="panel camera-corner" data-testid="camera-corner" data-state={camera.state}>
      <h3>{t('camera.corner')}</h3>
      {camera.state === 'live' ? (
        <CameraVideo className="camera-video" testId="camera-live" label={cameraStateText(t, camera)} />
      ) : (
        <p className="camera-why" role="status">
          {cameraStateText(t, camera)}
        </p>
      )}
    </div>
  );
}

/**
 * "No photo" on a scan's outcome, when the camera was thought to work (a camera at fault was said
 * once by the notice): on a chip of its own colours, readable on the green, amber and red outcomes.
 */
export function NoPhotoNote(props: { scanId: number }) {
  const t = useT();
  const missed = useCamera((s) => s.noPhoto.has(props.scanId));
  const camera = useCamera((s) => s.camera);
  if (!missed) return null;
  return (
    <p className="camera-no-photo" data-testid="no-photo">
      {camera.state === 'fault'
        ? t('camera.noPhotoWhy', { why: t(`camera.fault.${camera.fault}`) })
        : t('camera.noPhoto')}
    </p>
  );
}

/** Status (camera): the camera's state, and why there are no photos. */
export function CameraStatus() {
  const t = useT();
  const enabled = useCamera((s) => s.settings.enabled);
  const camera = useCamera((s) => s.camera);
  return (
    <>
      <dt>{t('camera.status')}</dt>
      <dd data-testid="camera-status" data-state={enabled ? camera.state : 'off'}>
        <strong className={camera.state === 'fault' ? 'bad' : camera.state === 'live' ? 'ok' : undefined}>
          {cameraStateText(t, enabled ? camera : { state: 'off' })}
        </strong>
        {camera.state === 'fault' && camera.device && <span className="muted"> · {camera.device}</span>}
      </dd>
    </>
  );
}

/** Told once, when the camera is found missing: why, and that Status (F9) keeps saying it; closed by the worker. */
export function CameraNotice() {
  const t = useT();
  const notice = useCamera((s) => s.notice);
  const closeNotice = useCamera((s) => s.closeNotice);
  if (!notice) return null;
  return (
    <div className="banner warn" role="alert" data-testid="camera-notice" data-fault={notice}>
      {t('camera.notice', { why: t(`camera.fault.${notice}`) })}{' '}
      <button type="button" data-testid="camera-notice-close" onClick={closeNotice}>
        {t('camera.notice.close')}
      </button>
    </div>
  );
}
