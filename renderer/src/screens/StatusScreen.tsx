import { useT } from '../i18n';
import { serviceErrorText } from '../i18n/errors';
import { rpc } from '../rpc/transport';
import { useStatus } from '../state/statusStore';

export function StatusScreen() {
  const t = useT();
  const { status, error, lastTick } = useStatus();

  if (error) return <p role="alert" className="error">{error}</p>;
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
        <dt>{t('status.service')}</dt>
        <dd data-testid="service">
          {t(`env.${status.service.environment}`)} · {status.service.baseUrl} ·{' '}
          <strong className={status.service.reachable ? 'ok' : 'bad'}>
            {status.service.reachable ? t('service.reachable') : t('service.unreachable')}
            {!status.service.reachable && status.service.error ? `: ${serviceErrorText(t, status.service)}` : ''}
          </strong>{' '}
          <button type="button" onClick={() => void rpc.request('station.checkService', {})}>
            {t('status.check')}
          </button>
        </dd>
        <dt>{t('status.printers')}</dt>
        <dd data-testid="printers">
          {status.printers.length === 0 ? t('status.noPrinters') : status.printers.map((p) => `${p.name} (${t(`printerState.${p.state}`)})`).join(', ')}
        </dd>
        <dt>{t('status.clock')}</dt>
        <dd data-testid="tick">{lastTick ?? t('status.waitingTick')}</dd>
      </dl>
    </section>
  );
}
