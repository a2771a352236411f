/**
 * The reprint question on screen (reasons/ReasonDialog.tsx): 1 damaged, 2 lost, 3 wrong printer,
 * 4 other with a few words; Esc or a click beside it cancels the reprint.
 */
import { REPRINT_NOTE_MAX } from '../../../shared/contract/reprint';
import { reprintReasons } from '../../../shared/contract/operators';
import { useT } from '../i18n';
import { ReasonDialog } from '../reasons/ReasonDialog';
import { useReprintQuestion } from './reprintReason';

export function ReprintReasonHost() {
  const t = useT();
  const asking = useReprintQuestion((s) => s.asking);
  if (!asking) return null;
  return (
    <ReasonDialog
      key={asking.id}
      reasons={reprintReasons}
      id="reprint-why"
      title={t('reprint.why.title')}
      subject={asking.subject}
      subjectTestId="reprint-why-subject"
      label={(code) => t(`reprint.why.${code}`)}
      noteLabel={t('reprint.why.noteLabel')}
      sendLabel={t('reprint.why.send')}
      cancelLabel={t('reprint.why.cancel')}
      noteMax={REPRINT_NOTE_MAX}
      onAnswer={asking.answer}
    />
  );
}
