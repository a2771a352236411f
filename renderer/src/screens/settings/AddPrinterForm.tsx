/**
 * Adding printers: a network label printer typed in by hand (host + port, with a connection test
 * that says what it found: model, resolution, status), and the system/USB printers discovery
 * finds. The resolution is always asked (filled in from the printer where it reports it): the
 * service's labels are laid out at 300 dpi and converted for the printer's dots. A printer that is
 * switched off can still be added: it shows as unreachable until it answers.
 */
import { focusFirstInvalid } from '../../forms/focusFirstInvalid';
import { useState, type FormEvent } from 'react';
import type {
  DiscoveredPrinter,
  PrinterConnection,
  PrinterSettings,
  PrinterView,
} from '../../../../shared/contract/printing';
import { useT, type T } from '../../i18n';
import { reasonText } from '../../i18n/reasons';
import { rpc } from '../../rpc/transport';
import { errorText } from '../../i18n/errors';
import { Field, FormActions } from './Field';
import { connectionText } from './PrinterRow';
import { printerIdFor } from './usePrinters';

const defaults = {
  dpi: 300,
  darkness: 0,
  offsetX: 0,
  offsetY: 0,
  rotate180: false,
  copies: 1,
  hostStatus: false,
  labelCounter: false,
  media: '',
  fitToPage: true,
} as const;

type Result = { kind: 'ok' | 'bad' | 'info'; text: string } | null;

function checkHost(t: T, host: string, port: string): { host?: string; port?: string } {
  const e: { host?: string; port?: string } = {};
  if (!/^[A-Za-z0-9.\-:[\]]{1,253}$/.test(host.trim())) e.host = t('printers.err.host');
  const n = Number(port);
  if (!/^\d+$/.test(port.trim()) || n < 1 || n > 65535) e.port = t('accounts.err.port');
  return e;
}

type Dpi = PrinterSettings['dpi'];

async function savePrinter(
  t: T,
  name: string,
  connection: PrinterConnection,
  settings: { hostStatus: boolean; labelCounter?: boolean; dpi: Dpi },
  existing: PrinterView[],
  unreachable = false,
): Promise<Result> {
  const id = printerIdFor(connection);
  if (existing.some((p) => p.id === id)) return { kind: 'bad', text: t('printers.err.exists') };
  const r = await rpc.request('printing.printers.save', {
    id,
    name,
    connection,
    settings: { ...defaults, ...settings },
  });
  if (!r.ok) return { kind: 'bad', text: errorText(t, r.error) };
  return unreachable
    ? { kind: 'info', text: t('printers.add.addedUnreachable', { name }) }
    : { kind: 'ok', text: t('printers.add.added', { name }) };
}

function DpiSelect(props: { id: string; value: Dpi; onChange(v: Dpi): void }) {
  const t = useT();
  return (
    <Field id={props.id} label={t('printers.set.dpi')}>
      <select
        id={props.id}
        value={props.value}
        onChange={(e) => props.onChange(Number(e.target.value) as Dpi)}
        data-testid={`${props.id}-select`}
      >
        <option value={203}>203 dpi (8 {t('printers.add.dotsPerMm')})</option>
        <option value={300}>300 dpi (12 {t('printers.add.dotsPerMm')})</option>
        <option value={600}>600 dpi (24 {t('printers.add.dotsPerMm')})</option>
      </select>
    </Field>
  );
}

export function AddTcpPrinterForm(props: { existing: PrinterView[]; onAdded: () => void }) {
  const t = useT();
  const [name, setName] = useState('');
  const [host, setHost] = useState('');
  const [port, setPort] = useState('9100');
  const [dpi, setDpi] = useState<Dpi>(203);
  const [hostStatus, setHostStatus] = useState(false);
  const [errors, setErrors] = useState<{ name?: string; host?: string; port?: string }>({});
  const [result, setResult] = useState<Result>(null);
  const [busy, setBusy] = useState(false);

  async function test(): Promise<{ ok: boolean; hostStatus: boolean; labelCounter: boolean; dpi: Dpi | null } | null> {
    const e = checkHost(t, host, port);
    setErrors(e);
    if (e.host || e.port) return null;
    setBusy(true);
    setResult({ kind: 'info', text: t('printers.add.testing') });
    const r = await rpc.request('printing.printers.testConnection', { host: host.trim(), port: Number(port) });
    setBusy(false);
    if (!r.ok) {
      setResult({ kind: 'bad', text: errorText(t, r.error) });
      return null;
    }
    const v = r.value;
    // What the printer told us fills the form: its resolution, whether it reports its status.
    if (v.ok) setHostStatus(v.hostStatus);
    if (v.dpi) setDpi(v.dpi);
    const found = v.model ? t('printers.add.found', { model: v.model }) + ' ' : '';
    const res = v.dpi ? t('printers.add.foundDpi', { dpi: v.dpi }) + ' ' : v.ok ? t('printers.add.noDpi') + ' ' : '';
    setResult(
      !v.ok
        ? { kind: 'bad', text: t('printers.add.noConnection', { message: reasonText(t, v.reasonCode, v.message) }) }
        : {
            kind: 'ok',
            text:
              found +
              res +
              (v.hostStatus ? t('printers.add.okStatus') : t('printers.add.okNoStatus')) +
              (v.labelCounter ? t('printers.add.okCounter') : ''),
          },
    );
    return v;
  }

  async function add(e: FormEvent) {
    e.preventDefault();
    const errs = { ...checkHost(t, host, port), ...(name.trim() ? {} : { name: t('printers.err.name') }) };
    setErrors(errs);
    if (Object.keys(errs).length) return focusFirstInvalid(e.currentTarget as HTMLFormElement);
    const probe = await test();
    if (!probe) return;
    // A printer that is switched off is still added, with the resolution and status the worker
    // chose: it shows as unreachable, and its labels wait for it.
    const settings = probe.ok
      ? { hostStatus: probe.hostStatus, labelCounter: probe.labelCounter, dpi: probe.dpi ?? dpi }
      : { hostStatus, dpi };
    const r = await savePrinter(
      t,
      name.trim(),
      { kind: 'zpl-tcp', host: host.trim(), port: Number(port) },
      settings,
      props.existing,
      !probe.ok,
    );
    setResult(r);
    if (r?.kind === 'ok') {
      setName('');
      setHost('');
      setPort('9100');
    }
    if (r && r.kind !== 'bad') props.onAdded();
  }

  return (
    <form
      className="set-form"
      onSubmit={(e) => void add(e)}
      onChange={() => setResult(null)}
      noValidate
      data-testid="printer-add"
    >
      <h3>{t('printers.add.title')}</h3>
      <div className="set-grid">
        <Field id="pr-add-name" label={t('printers.set.name')} error={errors.name}>
          <input id="pr-add-name" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field id="pr-add-host" label={t('printers.add.host')} error={errors.host}>
          <input
            id="pr-add-host"
            value={host}
            maxLength={253}
            spellCheck={false}
            placeholder="192.168.1.50"
            onChange={(e) => setHost(e.target.value)}
          />
        </Field>
        <Field id="pr-add-port" label={t('printers.add.port')} error={errors.port}>
          <input
            id="pr-add-port"
            inputMode="numeric"
            value={port}
            maxLength={5}
            onChange={(e) => setPort(e.target.value)}
          />
        </Field>
        <DpiSelect id="pr-add-dpi" value={dpi} onChange={setDpi} />
        <label className="set-check">
          <input
            type="checkbox"
            checked={hostStatus}
            onChange={(e) => setHostStatus(e.target.checked)}
            data-testid="pr-add-hoststatus"
          />{' '}
          {t('printers.set.hostStatus')}
        </label>
      </div>
      <FormActions result={result} resultTestId="printer-add-result">
        <button type="button" disabled={busy} onClick={() => void test()} data-testid="printer-add-test">
          {t('printers.add.test')}
        </button>
        <button type="submit" className="primary" disabled={busy} data-testid="printer-add-submit">
          {t('printers.add.submit')}
        </button>
      </FormActions>
    </form>
  );
}

export function DiscoverPrinters(props: { existing: PrinterView[]; onAdded: () => void }) {
  const t = useT();
  const [found, setFound] = useState<DiscoveredPrinter[] | null>(null);
  const [dpi, setDpi] = useState<Dpi>(203);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result>(null);

  async function discover() {
    setBusy(true);
    setResult(null);
    const r = await rpc.request('printing.printers.discover', {});
    setBusy(false);
    if (r.ok) setFound(r.value);
    else setResult({ kind: 'bad', text: errorText(t, r.error) });
  }

  const known = new Set(props.existing.map((p) => p.id));
  return (
    <div className="set-form" data-testid="printer-discover">
      <h3>{t('printers.discover.title')}</h3>
      <FormActions result={result}>
        <button type="button" disabled={busy} onClick={() => void discover()} data-testid="printer-discover-run">
          {busy ? t('printers.discover.running') : t('printers.discover.run')}
        </button>
      </FormActions>
      {found && found.length > 0 && <DpiSelect id="pr-found-dpi" value={dpi} onChange={setDpi} />}
      {found && found.length === 0 && <p>{t('printers.discover.none')}</p>}
      {found && found.length > 0 && (
        <ul className="found">
          {found.map((d) => {
            const id = printerIdFor(d.connection);
            return (
              <li key={id} data-testid="printer-found" data-printer-id={id}>
                <span>
                  <strong>{d.name}</strong>{' '}
                  <span className="acct-meta">
                    {connectionText(t, d.connection)} · {t(`printers.discover.source.${d.source}`)}
                    {d.device && d.source !== 'usb' ? ` (${d.device})` : ''}
                    {d.stopped ? `, ${t('printers.discover.stopped')}` : ''}
                  </span>
                </span>
                {known.has(id) ? (
                  <span className="set-badge ok">{t('printers.discover.added')}</span>
                ) : (
                  <button
                    type="button"
                    onClick={() =>
                      void savePrinter(
                        t,
                        d.name.slice(0, 120),
                        d.connection,
                        { hostStatus: false, dpi: d.connection.kind.startsWith('zpl') ? dpi : 300 },
                        props.existing,
                      ).then((r) => {
                        setResult(r);
                        if (r?.kind === 'ok') props.onAdded();
                      })
                    }
                    data-testid="printer-found-add"
                  >
                    {t('printers.discover.add')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
