/** Settings → Language: follow the system (Czech when it is Czech), or Czech, or English; kept on the station. */
import { systemLanguage, useLanguage, useT } from '../../i18n';
import { useSettings } from '../../state/settingsStore';

type Choice = 'system' | 'cs' | 'en';

export function LanguageSection() {
  const t = useT();
  const { settings, save } = useSettings();
  if (!settings) return <p>{t('settings.loading')}</p>;
  const current: Choice = settings.language ?? 'system';
  const sys = systemLanguage();
  const options: { value: Choice; label: string }[] = [
    { value: 'system', label: t('settings.language.system', { lang: t(`settings.language.name.${sys}`) }) },
    { value: 'cs', label: 'Čeština' },
    { value: 'en', label: 'English' },
  ];
  return (
    <div className="set-section" data-testid="settings-language">
      <h2>{t('settings.language.title')}</h2>
      <fieldset className="set-radios">
        <legend className="visually-hidden">{t('settings.language.title')}</legend>
        {options.map((o) => (
          <label key={o.value} className={current === o.value ? 'chosen' : undefined}>
            <input
              type="radio"
              name="language"
              value={o.value}
              checked={current === o.value}
              onChange={() => {
                const language = o.value === 'system' ? null : o.value;
                // Shown at once, then kept on the station (settings.changed confirms it).
                useSettings.setState({ settings: { ...settings, language } });
                useLanguage.getState().setLanguage(language ?? sys);
                void save({ language });
              }}
              data-testid={`language-${o.value}`}
            />{' '}
            {o.label}
          </label>
        ))}
      </fieldset>
      <p className="set-hint">{t('settings.language.note')}</p>
    </div>
  );
}
