/**
 * Settings → Camera (camera): the desk camera for proof of packing. Off by default; the camera is
 * chosen from the browser's list (names appear once the page may use a camera), with its live
 * picture, the photo's size and about how large it may be, and the optional second photo at print.
 */
import { useEffect, useState } from 'react';
import type { CameraSettings } from '../../../../shared/contract/camera';
import { useT } from '../../i18n';
import { useCamera } from '../../camera/cameraStore';
import { CameraVideo } from '../../camera/CameraVideo';
import { cameraStateText } from '../../camera/cameraText';
import { Field, FormActions, NumberField } from './Field';

interface Device {
  deviceId: string;
  label: string;
}

async function listCameras(): Promise<Device[]> {
  const all = await navigator.mediaDevices?.enumerateDevices?.().catch(() => []);
  return (all ?? []).filter((d) => d.kind === 'videoinput').map((d) => ({ deviceId: d.deviceId, label: d.label }));
}

export function CameraSection() {
  const t = useT();
  const saved = useCamera((s) => s.settings);
  const camera = useCamera((s) => s.camera);
  const [form, setForm] = useState<(CameraSettings & { size: string; target: string }) | null>(null);
  const [devices, setDevices] = useState<Device[]>([]);
  const [result, setResult] = useState<{ kind: 'ok' | 'bad'; text: string } | null>(null);

  useEffect(() => {
    void useCamera
      .getState()
      .load()
      .then(() => {
        const s = useCamera.getState().settings;
        setForm({ ...s, size: String(s.sizePx), target: String(s.targetKb) });
      });
    void listCameras().then(setDevices);
  }, []);
  // The names come once a camera may be used (a camera just turned on): listed again then.
  useEffect(() => {
    if (camera.state === 'live') void listCameras().then(setDevices);
  }, [camera.state]);
  if (!form) return <p>{t('settings.loading')}</p>;

  const size = /^\s*\d{3,4}\s*$/.test(form.size) ? Number(form.size) : NaN;
  const sizeError = size >= 320 && size <= 3840 ? null : t('camera.sizeBad');
  const target = /^\s*\d{2,4}\s*$/.test(form.target) ? Number(form.target) : NaN;
  const targetError = target >= 20 && target <= 1000 ? null : t('camera.targetBad');
  const known = devices.some((d) => d.deviceId === form.deviceId);

  async function save() {
    if (!form) return;
    if (sizeError || targetError) return setResult({ kind: 'bad', text: t('settings.fixToSave') });
    const { size: _s, target: _t, ...rest } = form;
    const label = devices.find((d) => d.deviceId === form.deviceId)?.label ?? form.deviceLabel;
    const ok = await useCamera.getState().save({ ...rest, deviceLabel: label, sizePx: size, targetKb: target });
    setResult(ok ? { kind: 'ok', text: t('settings.saved') } : { kind: 'bad', text: t('settings.fixToSave') });
  }

  return (
    <div className="set-section" data-testid="settings-camera">
      <h2>{t('camera.title')}</h2>
      <p className="set-hint">{t('camera.intro')}</p>
      <form
        className="set-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="set-checks">
          <label>
            <input
              type="checkbox"
              checked={form.enabled}
              onChange={(e) => setForm({ ...form, enabled: e.target.checked })}
              data-testid="camera-enabled"
            />{' '}
            {t('camera.enabled')}
          </label>
        </div>
        <div className="set-grid">
          <Field id="camera-device" label={t('camera.device')} wide>
            <select
              id="camera-device"
              value={form.deviceId}
              onChange={(e) => setForm({ ...form, deviceId: e.target.value })}
              data-testid="camera-device"
            >
              <option value="">{t('camera.device.default')}</option>
              {devices
                .filter((d) => d.deviceId)
                .map((d, i) => (
                  <option key={d.deviceId} value={d.deviceId}>
                    {d.label || t('camera.device.unnamed', { n: i + 1 })}
                  </option>
                ))}
              {form.deviceId && !known && (
                <option value={form.deviceId}>
                  {t('camera.device.absent', { label: form.deviceLabel || form.deviceId })}
                </option>
              )}
            </select>
            <span className="scale-discover">
              <button type="button" onClick={() => void listCameras().then(setDevices)} data-testid="camera-find">
                {t('camera.findDevices')}
              </button>
            </span>
          </Field>
          <NumberField
            id="camera-size"
            label={t('camera.size')}
            value={form.size}
            onChange={(size) => setForm({ ...form, size })}
            error={sizeError}
          />
          <NumberField
            id="camera-target"
            label={t('camera.target')}
            value={form.target}
            onChange={(target) => setForm({ ...form, target })}
            error={targetError}
          />
        </div>
        <div className="set-checks">
          <label>
            <input
              type="checkbox"
              checked={form.photoAtPrint}
              onChange={(e) => setForm({ ...form, photoAtPrint: e.target.checked })}
              data-testid="camera-at-print"
            />{' '}
            {t('camera.photoAtPrint')}
          </label>
        </div>
        <FormActions result={result} resultTestId="camera-result">
          <button type="submit" className="primary" data-testid="camera-save">
            {t('settings.save')}
          </button>
        </FormActions>
      </form>
      {saved.enabled && (
        <div className="set-form camera-settings-preview">
          <h3>{t('camera.preview')}</h3>
          <p data-testid="camera-state" data-state={camera.state}>
            {cameraStateText(t, camera)}
          </p>
          <CameraVideo className="camera-video" testId="camera-settings-video" label={t('camera.preview')} />
        </div>
      )}
    </div>
  );
}
