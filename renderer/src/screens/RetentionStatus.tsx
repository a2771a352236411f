/**
 * The Status screen's line about retention (keep): how long this desk keeps labels and its history,
 * and how much the data folder holds ("Labels kept 90 days, journal 400 days; 1.2 GB in the data folder").
 */
import { useEffect, useState } from 'react';
import type { RetentionStatus as Status } from '../../../shared/contract/retention';
import { useLanguage, useT } from '../i18n';
import { rpc } from '../rpc/transport';

/** A size as the language writes it, in the largest unit that keeps it at or above 1 ("1.2 GB", "1,2 GB"). */
function sizeText(bytes: number, language: string): string {
  const units = [
    ['gigabyte', 1e9],
    ['megabyte', 1e6],
    ['kilobyte', 1e3],
  ] as const;
  const [unit, size] = units.find(([, s]) => bytes >= s) ?? ['byte', 1];
  return new Intl.NumberFormat(language, { style: 'unit', unit, maximumFractionDigits: 1 }).format(bytes / size);
}

export function RetentionStatus() {
  const t = useT();
  const { language } = useLanguage();
  const [status, setStatus] = useState<Status | null>(null);
  useEffect(() => {
    void rpc.request('retention.get', {}).then((r) => r.ok && setStatus(r.value));
  }, []);
  if (!status) return <>{t('status.loading')}</>;
  const { labelsDays, historyDays } = status.settings;
  const { photos } = status;
  return (
    <>
      {t('retention.status.line', {
        labels: labelsDays ? t('retention.status.labels', { n: labelsDays }) : t('retention.status.labelsForever'),
        history: historyDays ? t('retention.status.history', { n: historyDays }) : t('retention.status.historyForever'),
        size: sizeText(status.dataFolderBytes, language),
      })}
      {photos.count > 0 && (
        <span data-testid="retention-photos">
          {t('retention.status.photos', { n: photos.count, size: sizeText(photos.bytes, language) })}
        </span>
      )}
    </>
  );
}
