/** The driver the settings name. */
import type { ScaleSettings } from '../../shared/contract/scale';
import { openHidScale } from './hidScale';
import type { ScaleDriver } from './scaleDriver';
import { openSerialScale } from './serialScale';

export function openScale(s: ScaleSettings): Promise<ScaleDriver> {
  switch (s.kind) {
    case 'mt-sics':
    case 'continuous':
      return openSerialScale({ path: s.path, baudRate: s.baudRate, protocol: s.kind });
    case 'hid':
      return openHidScale(s.path);
    case 'none':
      return Promise.reject(new Error('No scale is set up.'));
  }
}
