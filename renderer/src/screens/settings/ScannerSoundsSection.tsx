/**
 * Settings → Scanner & sounds: characters a scanner adds around the code (stripped before the
 * lookup, shown on a try-out field), and the scan sounds with their volume and a test beep.
 */
import { focusFirstInvalid } from '../../forms/focusFirstInvalid';
import { useEffect, useState } from 'react';
import { normaliseScan } from '../../../../shared/scan/normaliseScan';
import { useT } from '../../i18n';
import { useSettings } from '../../state/settingsStore';
import { Field, FormActions, Notice } from './Field';
import { playTestSound } from './testSound';
import { CommandSheetSection } from './CommandSheet';

/** What the lookup will see of a scan, for the try-out field: the core's own normalisation. */
function readAs(raw: string, prefix: string, suffix: string): string {
  const n = normaliseScan(raw, { prefix, suffix });
  return n.ok ? n.code : '';
}

export function ScannerSoundsSection() {
  const t = useT();
  const { settings, save } = useSettings();
  const [prefix, setPrefix] = useState('');
  const [suffix, setSuffix] = useState('');
  const [keyGap, setKeyGap] = useState('');
  const [sample, setSample] = useState('');
  const [result, setResult] = useState<{ kind: 'ok' | 'bad'; text: string } | null>(null);
  const [soundNote, setSoundNote] = useState<string | null>(null);
  useEffect(() => {
    if (settings) {
      setPrefix(settings.scanner.prefix);
      setSuffix(settings.scanner.suffix);
      setKeyGap(String(settings.scanner.keyGapMs));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refilled when the saved scanner fields change, not on every new settings object (a save elsewhere would wipe what is being typed)
  }, [settings?.scanner.prefix, settings?.scanner.suffix, settings?.scanner.keyGapMs]);

  if (!settings) return <p>{t('settings.loading')}</p>;
  /** Shown at once (a checkbox must not wait for the round trip), then saved; a refusal puts it back. */
  const change = (patch: Partial<typeof settings>) => {
    useSettings.setState({ settings: { ...settings, ...patch } });
    void save(patch).then((ok) => {
      if (!ok) void useSettings.getState().load();
    });
  };
  const tooLong = (s: string) => (s.length > 20 ? t('settings.scanner.tooLong') : null);
  const keyGapMs = /^\s*\d{1,3}\s*$/.test(keyGap) ? Number(keyGap) : NaN;
  const keyGapError = keyGapMs >= 5 && keyGapMs <= 100 ? null : t('settings.scanner.keyGapRange');

  async function saveScanner(form: HTMLFormElement) {
    if (tooLong(prefix) || tooLong(suffix) || keyGapError) return focusFirstInvalid(form);
    const ok = await save({ scanner: { prefix, suffix, keyGapMs } });
    setResult(
      ok ? { kind: 'ok', text: t('settings.saved') } : { kind: 'bad', text: useSettings.getState().error ?? '' },
    );
  }

  return (
    <div className="set-section" data-testid="settings-scanner">
      <h2>{t('settings.scanner.title')}</h2>
      <p className="set-hint">{t('settings.scanner.intro')}</p>
      <form
        className="set-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void saveScanner(e.currentTarget);
        }}
      >
        <div className="set-grid">
          <Field id="scan-prefix" label={t('settings.scanner.prefix')} error={tooLong(prefix)}>
            <input
              id="scan-prefix"
              value={prefix}
              spellCheck={false}
              onChange={(e) => setPrefix(e.target.value)}
              data-testid="scanner-prefix"
            />
          </Field>
          <Field id="scan-suffix" label={t('settings.scanner.suffix')} error={tooLong(suffix)}>
            <input
              id="scan-suffix"
              value={suffix}
              spellCheck={false}
              onChange={(e) => setSuffix(e.target.value)}
              data-testid="scanner-suffix"
            />
          </Field>
          <Field
            id="scan-key-gap"
            label={t('settings.scanner.keyGap')}
            error={keyGapError}
            hint={keyGapError ? undefined : t('settings.scanner.keyGapHint')}
          >
            <input
              id="scan-key-gap"
              inputMode="numeric"
              value={keyGap}
              spellCheck={false}
              onChange={(e) => setKeyGap(e.target.value)}
              data-testid="scanner-key-gap"
            />
          </Field>
          <Field
            id="scan-try"
            label={t('settings.scanner.try')}
            hint={sample ? undefined : t('settings.scanner.tryHint')}
          >
            <input
              id="scan-try"
              value={sample}
              spellCheck={false}
              onChange={(e) => setSample(e.target.value)}
              onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
              data-testid="scanner-try"
              data-scan-line
            />
            {sample && (
              <output htmlFor="scan-try scan-prefix scan-suffix" className="scan-read" data-testid="scanner-read">
                {t('settings.scanner.result', { code: readAs(sample, prefix, suffix) })}
              </output>
            )}
          </Field>
        </div>
        <FormActions result={result} resultTestId="scanner-result">
          <button type="submit" className="primary" data-testid="scanner-save">
            {t('settings.save')}
          </button>
        </FormActions>
      </form>

      <h2>{t('settings.sounds.title')}</h2>
      <div className="set-form">
        <div className="set-checks">
          <label>
            <input
              type="checkbox"
              checked={settings.sounds}
              onChange={(e) => change({ sounds: e.target.checked })}
              data-testid="sounds-on"
            />{' '}
            {t('settings.sounds.on')}
          </label>
        </div>
        <div className="set-volume">
          <label htmlFor="sound-volume">{t('settings.sounds.volume')}</label>
          <input
            id="sound-volume"
            type="range"
            min={0}
            max={100}
            step={5}
            disabled={!settings.sounds}
            value={settings.volume}
            onChange={(e) => useSettings.setState({ settings: { ...settings, volume: Number(e.target.value) } })}
            onPointerUp={(e) => void save({ volume: Number(e.currentTarget.value) })}
            onKeyUp={(e) => void save({ volume: Number(e.currentTarget.value) })}
            data-testid="sounds-volume"
          />
          <output htmlFor="sound-volume">{settings.volume} %</output>
          <button
            type="button"
            disabled={!settings.sounds}
            onClick={() => setSoundNote(playTestSound(settings.volume) ? null : t('settings.sounds.unavailable'))}
            data-testid="sounds-test"
          >
            ♪ {t('settings.sounds.test')}
          </button>
        </div>
        {soundNote && <Notice kind="bad">{soundNote}</Notice>}
      </div>
      <CommandSheetSection />
    </div>
  );
}
