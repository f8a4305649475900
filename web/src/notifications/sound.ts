/** The notification sound: a short chime made by the Web Audio API, so no sound file is fetched. */
let context: AudioContext | null = null;

export function playSound(): void {
  try {
    context ??= new AudioContext();
    const now = context.currentTime;
    const gain = context.createGain();
    gain.gain.setValueAtTime(0.2, now);
    gain.gain.exponentialRampToValueAtTime(0.001, now + 0.4);
    gain.connect(context.destination);
    for (const [frequency, at] of [
      [880, 0],
      [1320, 0.12],
    ]) {
      const tone = context.createOscillator();
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(now + at);
      tone.stop(now + 0.4);
    }
  } catch {
    // No audio output (or the browser refused it): the notification still shows.
  }
}
