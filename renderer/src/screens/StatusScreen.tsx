import { useEffect } from 'react';
import { useStatus } from '../state/statusStore';

export function StatusScreen() {
  const { status, error, lastTick, load } = useStatus();
  useEffect(() => {
    void load();
  }, [load]);

  if (error) return <p role="alert" className="error">{error}</p>;
  if (!status) return <p>Loading…</p>;
  return (
    <section className="status" aria-label="Station status">
      <h1>Label Station</h1>
      <dl>
        <dt>Version</dt>
        <dd data-testid="version">{status.version}</dd>
        <dt>Host</dt>
        <dd data-testid="host">{status.host}</dd>
        <dt>Data folder</dt>
        <dd data-testid="data-dir">{status.dataDir}</dd>
        <dt>Service</dt>
        <dd data-testid="service">
          {status.service.environment} · {status.service.baseUrl} ·{' '}
          <strong className={status.service.reachable ? 'ok' : 'bad'}>
            {status.service.reachable ? 'reachable' : `unreachable${status.service.error ? `: ${status.service.error}` : ''}`}
          </strong>
        </dd>
        <dt>Printers</dt>
        <dd data-testid="printers">
          {status.printers.length === 0 ? 'none found' : status.printers.map((p) => `${p.name} (${p.state})`).join(', ')}
        </dd>
        <dt>Core clock</dt>
        <dd data-testid="tick">{lastTick ?? 'waiting for the first event…'}</dd>
      </dl>
    </section>
  );
}
