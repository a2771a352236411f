/**
 * The station's sounds, made with the Web Audio API (no files): a short rising chirp for success,
 * a level double beep for "look at the screen" (waiting labels, a question), a low buzz for errors.
 * They must be told apart without looking, with a scanner in one hand and the eyes on the parcel.
 */
import type { ScanOutcomeKind } from '../../../../shared/contract/workflows';

export type Cue = 'success' | 'warning' | 'error';

interface Tone {
  hz: number;
  ms: number;
  wave: OscillatorType;
}

const cues: Record<Cue, Tone[]> = {
  success: [
    { hz: 880, ms: 70, wave: 'sine' },
    { hz: 1320, ms: 110, wave: 'sine' },
  ],
  warning: [
    { hz: 660, ms: 120, wave: 'triangle' },
    { hz: 660, ms: 120, wave: 'triangle' },
  ],
  error: [
    { hz: 196, ms: 220, wave: 'square' },
    { hz: 147, ms: 380, wave: 'square' },
  ],
};

/** Which cue an outcome gets; null: silent (the worker's own choice, e.g. skipped). */
export function cueOf(kind: ScanOutcomeKind): Cue | null {
  switch (kind) {
    case 'printed':
    case 'spooled':
    case 'queued':
      return 'success';
    case 'printer_down':
    case 'service_unreachable':
    case 'already_closed':
    case 'weight_check':
    case 'held':
      return 'warning';
    case 'skipped':
      return null;
    default:
      return 'error';
  }
}

let context: AudioContext | null = null;

/** Plays a cue at `volume` (0-100). Never throws: a station without audio still works. */
export function playCue(cue: Cue, volume: number): void {
  if (volume <= 0) return;
  try {
    context ??= new AudioContext();
    const ctx = context;
    if (ctx.state === 'suspended') void ctx.resume();
    // Square waves sound much louder than sines at the same gain.
    const peak = (Math.min(volume, 100) / 100) * (cue === 'error' ? 0.18 : 0.35);
    let at = ctx.currentTime + 0.01;
    for (const tone of cues[cue]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = tone.wave;
      osc.frequency.value = tone.hz;
      const end = at + tone.ms / 1000;
      // A short attack and release: no clicks at the edges.
      gain.gain.setValueAtTime(0, at);
      gain.gain.linearRampToValueAtTime(peak, at + 0.01);
      gain.gain.setValueAtTime(peak, end - 0.02);
      gain.gain.linearRampToValueAtTime(0, end);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(end + 0.01);
      at = end + 0.04;
    }
  } catch {
    // No audio device or API: the screen's colours carry the message alone.
  }
}
