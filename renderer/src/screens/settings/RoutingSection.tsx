/**
 * Settings → Routing: for each carrier the label format and printer (or the default route), the
 * default route itself, and the printer of collection protocols. ZPL goes to ZPL printers, PDF to
 * system/PDF printers; a carrier without ZPL labels cannot pick ZPL (spec GET .../zpl).
 */
import { useEffect, useState } from 'react';
import type {
  LabelRoute,
  PrinterView,
  RouteDecision,
  RoutingRules,
  ZplSize,
} from '../../../../shared/contract/printing';
import { errorTextNow, useT, type T } from '../../i18n';
import { rpc } from '../../rpc/transport';
import { carriersWith, type CarrierInfo } from './carriers';
import { errorText } from '../../i18n/errors';
import { printerName } from '../../i18n/printerName';
import { FormActions } from './Field';
import { printsZpl, usePrinters } from './usePrinters';

type Mode = 'inherit' | LabelRoute['format'];
interface Row {
  mode: Mode;
  printerId: string;
  size: ZplSize | '';
  position: number;
}

const rowOf = (r: LabelRoute | null | undefined, none: Mode): Row =>
  !r
    ? { mode: none, printerId: '', size: '', position: 1 }
    : {
        mode: r.format,
        printerId: r.printerId,
        size: r.format === 'zpl' ? (r.size ?? '') : '',
        position: r.format === 'pdf-a4' ? r.position : 1,
      };

function routeOf(row: Row): LabelRoute | null {
  if (row.mode === 'inherit') return null;
  if (row.mode === 'zpl')
    return row.size
      ? { format: 'zpl', printerId: row.printerId, size: row.size }
      : { format: 'zpl', printerId: row.printerId };
  if (row.mode === 'pdf-a4') return { format: 'pdf-a4', printerId: row.printerId, position: row.position };
  return { format: 'pdf-single', printerId: row.printerId };
}

function rowError(t: T, row: Row, printers: PrinterView[], carrier: CarrierInfo | null): string | null {
  if (row.mode === 'inherit') return null;
  if (row.mode === 'zpl' && carrier && !carrier.zplSizes) return t('settings.routing.noZpl', { carrier: carrier.name });
  const p = printers.find((x) => x.id === row.printerId);
  if (!p) return t('settings.routing.needPrinter');
  if (row.mode === 'zpl' && !printsZpl(p)) return t('settings.routing.zplNeedsZpl');
  if (row.mode !== 'zpl' && printsZpl(p)) return t('settings.routing.pdfNeedsPdf');
  return null;
}

/** What the core does with a carrier's labels under the saved rules (its routing decision), in words. */
function actualText(t: T, d: RouteDecision, printers: PrinterView[], carrierName: string): string {
  if (!d.route) return t('settings.routing.actualNone');
  const p = printers.find((x) => x.id === d.route!.printerId);
  const printer = p ? printerName(t, p) : d.route.printerId;
  const format = t(
    d.route.format === 'zpl'
      ? 'settings.routing.fmt.zpl'
      : d.route.format === 'pdf-single'
        ? 'settings.routing.fmt.pdfSingle'
        : 'settings.routing.fmt.pdfA4',
  );
  return d.via === 'pdf-fallback'
    ? t('settings.routing.actualFallback', { format, printer, carrier: carrierName })
    : t('settings.routing.actual', { format, printer });
}

function RouteEditor(props: {
  id: string;
  label: string;
  sub?: string;
  row: Row;
  none: Mode;
  carrier: CarrierInfo | null;
  printers: PrinterView[];
  error: string | null;
  actual?: string;
  onChange: (r: Row) => void;
}) {
  const t = useT();
  const { row } = props;
  const set = (patch: Partial<Row>) => props.onChange({ ...row, ...patch });
  const forFormat = props.printers.filter((p) => (row.mode === 'zpl' ? printsZpl(p) : !printsZpl(p)));
  return (
    <tr data-testid={`route-${props.id}`} className={props.error ? 'has-error' : undefined}>
      <th scope="row">
        {props.label}
        {props.sub && <small className="set-hint">{props.sub}</small>}
      </th>
      <td>
        <select
          aria-label={`${props.label}: ${t('settings.routing.format')}`}
          aria-invalid={props.error ? true : undefined}
          value={row.mode}
          onChange={(e) => {
            const mode = e.target.value as Mode;
            const keep = props.printers.find((p) => p.id === row.printerId);
            const fits = keep && (mode === 'zpl' ? printsZpl(keep) : !printsZpl(keep));
            const first = props.printers.find((p) => (mode === 'zpl' ? printsZpl(p) : !printsZpl(p)));
            set({ mode, printerId: fits ? row.printerId : (first?.id ?? '') });
          }}
          data-testid={`route-${props.id}-format`}
        >
          <option value={props.none}>
            {props.none === 'inherit'
              ? props.carrier
                ? t('settings.routing.useDefault')
                : t('settings.routing.noPrint')
              : ''}
          </option>
          <option value="zpl" disabled={!!props.carrier && !props.carrier.zplSizes}>
            {t('settings.routing.fmt.zpl')}
          </option>
          <option value="pdf-single">{t('settings.routing.fmt.pdfSingle')}</option>
          <option value="pdf-a4">{t('settings.routing.fmt.pdfA4')}</option>
        </select>
      </td>
      <td colSpan={row.mode === 'inherit' ? 2 : 1}>
        {row.mode === 'inherit' && props.actual && (
          <span className="route-actual" data-testid={`route-${props.id}-actual`}>
            {props.actual}
          </span>
        )}
        {row.mode !== 'inherit' && (
          <select
            aria-label={`${props.label}: ${t('settings.routing.printer')}`}
            value={row.printerId}
            onChange={(e) => set({ printerId: e.target.value })}
            data-testid={`route-${props.id}-printer`}
          >
            {!forFormat.some((p) => p.id === row.printerId) && (
              <option value={row.printerId}>{row.printerId || '—'}</option>
            )}
            {forFormat.map((p) => (
              <option key={p.id} value={p.id}>
                {printerName(t, p)}
              </option>
            ))}
          </select>
        )}
      </td>
      {row.mode !== 'inherit' && (
        <td>
          {row.mode === 'zpl' && (
            <select
              aria-label={`${props.label}: ${t('settings.routing.options')}`}
              value={row.size}
              onChange={(e) => set({ size: e.target.value as ZplSize | '' })}
            >
              <option value="">{t('settings.routing.sizeAuto')}</option>
              {(props.carrier?.zplSizes ?? ['10x5', '10x15', '10x17']).map((s) => (
                <option key={s} value={s}>
                  {s} cm
                </option>
              ))}
            </select>
          )}
          {row.mode === 'pdf-a4' && (
            <select
              aria-label={`${props.label}: ${t('settings.routing.options')}`}
              value={row.position}
              onChange={(e) => set({ position: Number(e.target.value) })}
            >
              {[1, 2, 3, 4].map((n) => (
                <option key={n} value={n}>
                  {t('settings.routing.position', { n })}
                </option>
              ))}
            </select>
          )}
          {props.error && (
            <small className="set-field-error" role="alert" data-testid={`route-${props.id}-error`}>
              {props.error}
            </small>
          )}
        </td>
      )}
    </tr>
  );
}

export function RoutingSection() {
  const t = useT();
  const { printers } = usePrinters();
  const [rows, setRows] = useState<Record<string, Row> | null>(null);
  const [defaultRow, setDefaultRow] = useState<Row | null>(null);
  const [protocol, setProtocol] = useState('');
  const [carriers, setCarriers] = useState<CarrierInfo[]>(carriersWith([]));
  const [result, setResult] = useState<{ kind: 'ok' | 'bad'; text: string } | null>(null);
  const [decisions, setDecisions] = useState<RouteDecision[]>([]);

  function load(r: RoutingRules) {
    // The route each carrier really gets comes from the core (electron/printing/routing.ts decideRoute).
    void rpc.request('printing.routes.effective', {}).then((d) => d.ok && setDecisions(d.value));
    const list = carriersWith(Object.keys(r.carriers));
    setCarriers(list);
    setRows(Object.fromEntries(list.map((c) => [c.code, rowOf(r.carriers[c.code], 'inherit')])));
    setDefaultRow(rowOf(r.defaultRoute, 'inherit'));
    setProtocol(r.protocolPrinterId ?? '');
  }
  useEffect(() => {
    void rpc
      .request('printing.routes.get', {})
      .then((r) => (r.ok ? load(r.value) : setResult({ kind: 'bad', text: errorTextNow(r.error) })));
  }, []);

  if (!rows || !defaultRow || !printers) return <p>{t('settings.loading')}</p>;
  const errors = Object.fromEntries(carriers.map((c) => [c.code, rowError(t, rows[c.code]!, printers, c)]));
  const defaultError = rowError(t, defaultRow, printers, null);
  const pdfPrinters = printers.filter((p) => !printsZpl(p));

  async function save() {
    if (Object.values(errors).some(Boolean) || defaultError)
      return setResult({ kind: 'bad', text: t('settings.routing.fixErrors') });
    const carriersOut: RoutingRules['carriers'] = {};
    for (const c of carriers) {
      const r = routeOf(rows![c.code]!);
      if (r) carriersOut[c.code] = r;
    }
    const r = await rpc.request('printing.routes.set', {
      carriers: carriersOut,
      defaultRoute: routeOf(defaultRow!),
      protocolPrinterId: protocol || null,
    });
    if (!r.ok) return setResult({ kind: 'bad', text: errorText(t, r.error) });
    load(r.value);
    setResult({ kind: 'ok', text: t('settings.saved') });
  }

  return (
    <div className="set-section" data-testid="settings-routing">
      <h2>{t('settings.routing.title')}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        onChange={() => setResult(null)}
      >
        <table className="routing">
          <thead>
            <tr>
              <th scope="col">{t('settings.routing.carrier')}</th>
              <th scope="col">{t('settings.routing.format')}</th>
              <th scope="col">{t('settings.routing.printer')}</th>
              <th scope="col">{t('settings.routing.options')}</th>
            </tr>
          </thead>
          <tbody>
            {carriers.map((c) => (
              <RouteEditor
                key={c.code}
                id={c.code}
                label={c.name}
                sub={c.code + (c.zplSizes ? '' : ` · ${t('settings.routing.pdfOnly')}`)}
                row={rows[c.code]!}
                none="inherit"
                carrier={c}
                printers={printers}
                error={errors[c.code] ?? null}
                actual={((d) => (d ? actualText(t, d, printers, c.name) : undefined))(
                  decisions.find((d) => d.carrier === c.code),
                )}
                onChange={(r) => setRows({ ...rows, [c.code]: r })}
              />
            ))}
            <RouteEditor
              id="default"
              label={t('settings.routing.default')}
              row={defaultRow}
              none="inherit"
              carrier={null}
              printers={printers}
              error={defaultError}
              onChange={setDefaultRow}
            />
            <tr data-testid="route-protocol">
              <th scope="row">{t('settings.routing.protocol')}</th>
              <td colSpan={3}>
                <select
                  aria-label={t('settings.routing.protocol')}
                  value={protocol}
                  onChange={(e) => setProtocol(e.target.value)}
                  data-testid="route-protocol-printer"
                >
                  <option value="">{t('settings.routing.noPrint')}</option>
                  {pdfPrinters.map((p) => (
                    <option key={p.id} value={p.id}>
                      {printerName(t, p)}
                    </option>
                  ))}
                </select>
              </td>
            </tr>
          </tbody>
        </table>
        <FormActions result={result} resultTestId="routing-result">
          <button type="submit" className="primary" data-testid="routing-save">
            {t('settings.save')}
          </button>
        </FormActions>
      </form>
    </div>
  );
}
