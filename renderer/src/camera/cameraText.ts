/** The camera's state and faults in the UI language (Settings, the Station screen's corner, Status). */
import type { T } from '../i18n';
import type { CameraState } from './cameraStore';

export function cameraStateText(t: T, c: CameraState): string {
  switch (c.state) {
    case 'off':
      return t('camera.state.off');
    case 'starting':
      return t('camera.state.starting');
    case 'live':
      return t('camera.state.live', { label: c.label });
    case 'fault':
      return t('camera.status.fault', { why: t(`camera.fault.${c.fault}`) });
  }
}
