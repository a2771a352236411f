import { useLanguage, useT } from '../i18n';
import { CameraStatus } from '../camera/CameraCorner';
import { serviceErrorText } from '../i18n/errors';
import { printerName } from '../i18n/printerName';
import { reasonText } from '../i18n/reasons';
import { rpc } from '../rpc/transport';
import { useStatus } from '../state/statusStore';
import { RetentionStatus } from './RetentionStatus';

/**
 * A time as the worker reads it: in the desk's time zone (the machine's own) and the UI language's
 * format, to the second (the clock line shows the core is alive), not as ISO UTC.
 */
function deskTime(iso: string, language: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(language === 'cs' ? 'cs-CZ' : 'en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
}

/** What README promises for F9: version, data folder, service reachability, keychain and printers (and the core's clock). */
export function StatusScreen() {
  const t = useT();
  const { language } = useLanguage();
  const { status, error, lastTick } = useStatus();

  if (error)
    return (
      <p role="alert" className="error">
        {error}
      </p>
    );
  if (!status) return <p className="loading">{t('status.loading')}</p>;
  return (
    <section className="card status" aria-label={t('status.title')}>
      <h1>{t('status.title')}</h1>
      <dl>
        <dt>{t('status.version')}</dt>
        <dd data-testid="version">{status.version}</dd>
        <dt>{t('status.host')}</dt>
        <dd data-testid="host">{t(`host.${status.host}`)}</dd>
        <dt>{t('status.dataDir')}</dt>
        <dd data-testid="data-dir">{status.dataDir}</dd>
        <dt>{t('status.retention')}</dt>
        <dd data-testid="retention">
          <RetentionStatus />
        </dd>
        <dt>{t('status.service')}</dt>
        <dd data-testid="service">
          {t(`env.${status.service.environment}`)} · {status.service.baseUrl} ·{' '}
          <strong className={status.service.reachable ? 'ok' : 'bad'}>
            {status.service.reachable ? t('service.reachable') : t('service.unreachable')}
            {status.service.reachable && status.session.usable === 'login_needed'
              ? ` · ${t('status.loginNeeded')}`
              : ''}
            {!status.service.reachable && status.service.error ? `: ${serviceErrorText(t, status.service)}` : ''}
          </strong>
          {status.service.checkedAt && (
            <span className="muted">
              {' '}
              · {t('status.checkedAt', { time: deskTime(status.service.checkedAt, language) })}
            </span>
          )}{' '}
          <button type="button" onClick={() => void rpc.request('station.checkService', {})}>
            {t('status.check')}
          </button>
        </dd>
        <dt>{t('status.keychain')}</dt>
        <dd data-testid="keychain" data-available={String(status.keychain.available)}>
          <strong className={status.keychain.available ? 'ok' : 'bad'}>
            {status.keychain.available ? t('status.keychain.ok') : t('status.keychain.missing')}
          </strong>
        </dd>
        <dt>{t('status.printers')}</dt>
        <dd data-testid="printers">
          {status.printers.length === 0
            ? t('status.noPrinters')
            : status.printers
                .map((p) => {
                  // What stops it, in the worker's words (out of labels, head open…), beside its state.
                  const why = p.state === 'ready' ? '' : reasonText(t, p.reasonCode, p.reason);
                  return `${printerName(t, p)} (${t(`printerState.${p.state}`)}${why ? ` — ${why}` : ''})`;
                })
                .join(', ')}
        </dd>
        <dt>{t('status.clock')}</dt>
        <dd data-testid="tick" data-iso={lastTick ?? undefined}>
          {lastTick ? deskTime(lastTick, language) : t('status.waitingTick')}
        </dd>
        <CameraStatus />
      </dl>
    </section>
  );
}
