/**
 * A short beep through Web Audio (no sound files to ship), at the chosen volume, so the worker
 * hears what a scan will sound like. Returns false where the browser has no Web Audio.
 */
let context: AudioContext | null = null;

export function playTestSound(volume: number): boolean {
  const Ctor =
    window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) return false;
  context ??= new Ctor();
  const ctx = context;
  void ctx.resume();
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = 'square';
  osc.frequency.value = 880;
  const peak = (Math.max(0, Math.min(100, volume)) / 100) * 0.3;
  const t0 = ctx.currentTime;
  gain.gain.setValueAtTime(peak, t0);
  gain.gain.exponentialRampToValueAtTime(0.0001, t0 + 0.18);
  osc.connect(gain).connect(ctx.destination);
  osc.start(t0);
  osc.stop(t0 + 0.2);
  return true;
}
