/** The Station screen's word when the desk requires a sign-in and nobody is signed in: scans would be refused. */
import { useT } from '../i18n';
import { useOperators } from '../state/operatorsStore';
import { useSettings } from '../state/settingsStore';

export function SignInPrompt() {
  const t = useT();
  const required = useSettings((s) => s.settings?.desk.signInRequired ?? false);
  const nobody = useOperators((s) => s.who !== null && s.who.operator === null);
  if (!required || !nobody) return null;
  return (
    <div className="op-prompt" role="alert" data-testid="sign-in-prompt">
      <strong>{t('operators.prompt.title')}</strong> {t('operators.prompt.text')}
    </div>
  );
}
