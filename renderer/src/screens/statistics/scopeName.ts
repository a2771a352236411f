import type { OperatorFigures } from '../../../../shared/contract/statistics';
import type { T } from '../../i18n';

/** An operator's name, "Nobody signed in" or "Everyone"; a nameless operator by number. */
export function scopeName(t: T, figures: Pick<OperatorFigures, 'scope' | 'name'>): string {
  if (figures.scope === 'nobody') return t('statistics.nobody');
  if (figures.scope === 'everyone') return t('statistics.everyone');
  return figures.name ?? t('statistics.operatorNo', { id: figures.scope });
}
