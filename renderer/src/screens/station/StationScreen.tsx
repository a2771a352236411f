/**
 * The station screen: the scan box that always has focus, the full-screen
 * feedback of the newest scan, the day's counters, the scans in the line, the last labels, the
 * label printer's state, and batch mode (F5).
 *
 * Keyboard: a keyboard-wedge scanner types the code and Enter; every Enter sends the scan at once
 * (the core keeps them in order). Enter on an empty box answers "reprint" to the
 * already-closed question, Esc skips (or clears the box / hides the feedback). F5 toggles batch
 * mode, Ctrl+Enter closes the batch. Ctrl+B: the next parcel scanned opens its packages
 * (packages/PackagesPanel.tsx) instead of closing.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n';
import { openQuestionOf, useScans } from '../../state/scanStore';
import { useSettings } from '../../state/settingsStore';
import { BatchPanel } from './BatchPanel';
import { OutcomeView } from './OutcomeView';
import { PrinterState } from './PrinterState';
import { cueOf, playCue, type Cue } from './sounds';
import { Counters, LabelPreviews, PendingScans, RecentScans } from './StationPanels';
import { VerifyPanel, dismissCheckResult, takeForCheck } from './VerifyPanel';
import { WeighPanel } from './WeighPanel';
import { addStationFirstStop } from '../../scan/scanCapture';
import { SignInPrompt } from '../../operators/SignInPrompt';
import { armPackages, cancelParcel, reprintLast } from '../../scan/deskCommand';
import { useReprintQuestion } from '../../reprint/reprintReason';
import { takeDeskScan } from '../../scan/deskScan';
import { CameraCorner } from '../../camera/CameraCorner';
import { useCamera } from '../../camera/cameraStore';
import { armHold, askAndArm, useHold } from '../../shelf/holdStore';
import { packages, usePackages } from '../../packages/packagesStore';
import { PackagesHost } from '../../packages/PackagesPanel';
import '../shelf/shelf.css';
import './station.css';

// A scan typed with the focus anywhere (another field, another screen) meets the label check too.
addStationFirstStop(takeForCheck);

const BATCH_KEY = 'F5';

/** Plays the cue of every new feedback once, as the settings allow; returns the last cue for tests and the screen. */
function useFeedbackSound(): Cue | 'off' | null {
  const seq = useScans((s) => s.feedbackSeq);
  const [last, setLast] = useState<Cue | 'off' | null>(null);
  useEffect(() => {
    if (seq === 0) return;
    const { feedback, batchMode, batchLast, batchError } = useScans.getState();
    let cue: Cue | null = null;
    // Labels still behind others in the queue after the wait are amber on screen: the warning cue, not success.
    if (feedback?.type === 'outcome')
      cue = feedback.answered
        ? null
        : feedback.outcome.kind === 'queued' && feedback.outcome.reason
          ? 'warning'
          : cueOf(feedback.outcome.kind);
    else if (feedback?.type === 'refused') cue = 'error';
    else if (!feedback && batchMode)
      cue = batchError
        ? 'error'
        : batchLast?.status === 'ready'
          ? 'success'
          : batchLast?.status === 'closed'
            ? 'warning'
            : batchLast
              ? 'error'
              : null;
    if (!cue) return;
    const settings = useSettings.getState().settings;
    const on = settings?.sounds ?? true;
    if (on) playCue(cue, settings?.volume ?? 70);
    setLast(on ? cue : 'off');
  }, [seq]);
  return last;
}

/** Keeps the scan box focused: on mount, after a click on this screen, after the overlay, on window focus. */
function useScanFocus(root: React.RefObject<HTMLElement | null>, box: React.RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    const focus = () => box.current?.focus({ preventScroll: true });
    focus();
    const onPointerUp = (e: PointerEvent) => {
      const target = e.target as HTMLElement | null;
      // Clicks inside this screen give focus back (form fields of the top bar keep theirs).
      if (target && root.current?.contains(target) && !target.closest('select, textarea, input')) setTimeout(focus, 0);
    };
    window.addEventListener('focus', focus);
    document.addEventListener('pointerup', onPointerUp);
    return () => {
      window.removeEventListener('focus', focus);
      document.removeEventListener('pointerup', onPointerUp);
    };
  }, [root, box]);
  return useCallback(() => box.current?.focus({ preventScroll: true }), [box]);
}

export function StationScreen() {
  const t = useT();
  const root = useRef<HTMLElement>(null);
  const box = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState('');
  const inLine = useScans((s) => s.pending.length > 0);
  const { feedback, batchMode, load, submit, reprint, skip, dismiss, setBatchMode, collect, closeAll } = useScans();
  const lastCue = useFeedbackSound();
  const armed = useHold((s) => s.armed);
  const packagesArmed = usePackages((s) => s.armed);
  const packagesOpen = usePackages((s) => s.parcel !== null);
  const focusBox = useScanFocus(root, box);

  useEffect(() => {
    void load();
  }, [load]);

  // The feedback changed (an outcome arrived, the overlay hid): the box keeps the focus.
  useEffect(() => focusBox(), [feedback, batchMode, focusBox]);
  // The reprint question closed, however (Esc, a reason, a click beside it): the focus left with the
  // dialog, and a code typed by hand next must land in the box, not nowhere.
  const asked = useReprintQuestion((s) => s.asking !== null);
  // The same for the hold question, and for the camera's notice closed by its button (the banner is
  // outside this screen, so its click does not give the focus back by itself).
  const holdAsked = useHold((s) => s.asking !== null);
  const cameraNotice = useCamera((s) => s.notice !== null);
  useEffect(() => {
    if (!asked && !holdAsked && !cameraNotice && !packagesOpen) focusBox();
  }, [asked, holdAsked, cameraNotice, packagesOpen, focusBox]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // The keys the command sheet's reprint-last and cancel codes stand for.
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && (e.key === 'p' || e.key === 'P')) {
        e.preventDefault(); // not the browser's print dialog
        return void reprintLast();
      }
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key === 'Delete') {
        e.preventDefault();
        return void cancelParcel();
      }
      // The problem shelf: why, then the next parcel scanned is held (not the browser's history).
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && (e.key === 'h' || e.key === 'H')) {
        e.preventDefault();
        return void askAndArm();
      }
      // Packages at the desk: the next parcel scanned opens its packages (not the browser's bookmarks).
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && (e.key === 'b' || e.key === 'B')) {
        e.preventDefault();
        return usePackages.getState().armed ? packages.arm(false) : armPackages('key');
      }
      if (e.key !== BATCH_KEY) return;
      // F5 would reload the page in the web host: here it toggles batch mode.
      e.preventDefault();
      setBatchMode(!useScans.getState().batchMode);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setBatchMode]);

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      const code = value.trim();
      setValue('');
      if (code && takeDeskScan(code)) return;
      if (batchMode && (e.ctrlKey || e.metaKey)) {
        dismissCheckResult();
        if (code) void collect(code).then(() => closeAll());
        else void closeAll();
      } else if (code) {
        if (batchMode) {
          // A batch scan is no label check: a red answer about the last parcel goes.
          dismissCheckResult();
          void collect(code);
        } else if (!takeForCheck(code, submit)) submit(code);
      } else if (!batchMode || openQuestionOf(feedback)) {
        // Batch mode asks too: the weight check of a parcel weighed far off.
        void reprint();
      }
    } else if (e.key === 'Escape') {
      e.preventDefault();
      if (value) setValue('');
      // The red "wrong label" covers the outcome: Esc takes it away first (the label is still to check).
      else if (dismissCheckResult()) return;
      // An armed hold with nothing on screen to answer: Esc disarms it (the next scan closes as usual).
      else if (armed && !openQuestionOf(feedback)) armHold(null);
      else if (packagesArmed && !openQuestionOf(feedback)) packages.arm(false);
      else if (openQuestionOf(feedback)) void skip();
      else dismiss();
    }
  };

  return (
    <section
      className={`station ${batchMode ? 'batch-mode' : ''} ${inLine ? 'in-line' : ''}`}
      ref={root}
      data-testid="screen-station"
      data-last-cue={lastCue ?? ''}
    >
      <div className="scanbar">
        <label className="scan-field">
          <span className="scan-label">{t('station.scan.label')}</span>
          <input
            ref={box}
            className="scan-input"
            data-testid="scan-input"
            data-scan-line
            value={value}
            onChange={(e) => setValue(e.target.value)}
            onKeyDown={onKeyDown}
            placeholder={t('station.scan.placeholder')}
            autoComplete="off"
            autoCorrect="off"
            autoCapitalize="off"
            spellCheck={false}
            enterKeyHint="send"
            autoFocus
          />
        </label>
        <button
          type="button"
          className={`key-button mode-toggle ${batchMode ? 'on' : ''}`}
          aria-pressed={batchMode}
          onClick={() => setBatchMode(!batchMode)}
          data-testid="batch-toggle"
        >
          <kbd>{BATCH_KEY}</kbd> {batchMode ? t('batch.toggle.on') : t('batch.toggle.off')}
        </button>
        <p className="scan-hints">
          <span className="mode-name">{batchMode ? t('batch.mode') : t('station.scan.mode.single')}</span>
          <span>
            <kbd>Enter</kbd> {t('station.key.scan')}
          </span>
          <span>
            <kbd>Esc</kbd> {t('station.key.clear')}
          </span>
          <span>
            <kbd>Ctrl+P</kbd> {t('command.key.reprintLast')}
          </span>
          <span>
            <kbd>Ctrl+Del</kbd> {t('command.key.cancelParcel')}
          </span>
          <span>
            <kbd>Ctrl+H</kbd> {t('shelf.key.hold')}
          </span>
          <span>
            <kbd>Ctrl+B</kbd> {t('packages.key.open')}
          </span>
        </p>
        <PrinterState />
      </div>
      {armed && (
        <p className="shelf-armed" role="status" data-testid="hold-armed" data-reason={armed.code}>
          <span>
            {t('shelf.armed', {
              reason: armed.code === 'other' && armed.note ? armed.note : t(`shelf.reason.${armed.code}`),
            })}
          </span>
          <span>
            <kbd>Esc</kbd> {t('shelf.armed.cancel')}
          </span>
        </p>
      )}
      {packagesArmed && (
        <p className="packages-armed" role="status" data-testid="packages-armed">
          <span>{t('packages.armed')}</span>
          <span>
            <kbd>Esc</kbd> {t('packages.armed.cancel')}
          </span>
        </p>
      )}
      <PackagesHost />
      <SignInPrompt />
      <div className="station-body">
        <div className="station-main">
          <WeighPanel />
          <VerifyPanel />
          <Counters />
          {batchMode ? <BatchPanel /> : <RecentScans />}
        </div>
        <div className="station-side">
          <CameraCorner />
          <PendingScans />
          <LabelPreviews />
        </div>
        {feedback && (
          <OutcomeView
            feedback={feedback}
            onReprint={() => void reprint()}
            onSkip={() => void skip()}
            onHide={dismiss}
          />
        )}
      </div>
    </section>
  );
}
