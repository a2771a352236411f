/**
 * The hold question on screen (reasons/ReasonDialog.tsx, as the reprint question): 1 missing item,
 * 2 damaged, 3 wrong address, 4 other with a few words; Esc or a click beside it cancels (the next
 * scan closes as usual).
 */
import { HOLD_NOTE_MAX, holdReasons } from '../../../shared/contract/shelf';
import { useT } from '../i18n';
import { ReasonDialog } from '../reasons/ReasonDialog';
import { useHold } from './holdStore';

export function HoldReasonHost() {
  const t = useT();
  const asking = useHold((s) => s.asking);
  if (!asking) return null;
  return (
    <ReasonDialog
      key={asking.id}
      reasons={holdReasons}
      id="hold-why"
      className="hold-why"
      title={t('shelf.why.title')}
      subject={t('shelf.why.subject')}
      label={(code) => t(`shelf.reason.${code}`)}
      noteLabel={t('shelf.why.noteLabel')}
      sendLabel={t('shelf.why.send')}
      cancelLabel={t('shelf.why.cancel')}
      noteMax={HOLD_NOTE_MAX}
      startWithOther={asking.other}
      onAnswer={asking.answer}
    />
  );
}
