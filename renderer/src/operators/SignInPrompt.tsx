/**
 * The Station screen's word when the desk requires a sign-in and nobody is signed in: scans would
 * be refused. Once someone signs in, the refusal the last scan got ("sign in to scan") is taken
 * off the screen: the next scan goes.
 */
import { useEffect, useRef } from 'react';
import { useT } from '../i18n';
import { useOperators } from '../state/operatorsStore';
import { useScans } from '../state/scanStore';
import { useSettings } from '../state/settingsStore';

export function SignInPrompt() {
  const t = useT();
  const required = useSettings((s) => s.settings?.desk.signInRequired ?? false);
  const nobody = useOperators((s) => s.who !== null && s.who.operator === null);
  const asked = required && nobody;
  const wasAsked = useRef(asked);
  useEffect(() => {
    if (wasAsked.current && !asked && useScans.getState().feedback?.type === 'refused') useScans.getState().dismiss();
    wasAsked.current = asked;
  }, [asked]);
  if (!asked) return null;
  return (
    <div className="op-prompt" role="alert" data-testid="sign-in-prompt">
      <strong>{t('operators.prompt.title')}</strong> {t('operators.prompt.text')}
    </div>
  );
}
