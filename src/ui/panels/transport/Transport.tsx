/**
 * Step-through controls: step ±1, next/previous surface change, next/previous replace,
 * play/pause with speed, the scrubber with replace ticks, and jumps to a step or a seq.
 */
import { SPEEDS } from '../../../store/slices/prefs';
import { useAppStore } from '../../../store/react';
import {
  selectAccepted,
  selectAtEnd,
  selectAtStart,
  selectFollowPause,
  selectIsReady,
  selectPlaying,
  selectSpeed,
  selectStep,
} from '../../../store/selectors';
import { formatCount } from '../../format';
import { JumpForm } from './JumpForm';
import { Scrubber } from './Scrubber';

interface ButtonSpec {
  label: string;
  glyph: string;
  keys: string;
  onClick: () => void;
  /** Nothing to do (at a boundary): announced, but the button keeps focus. */
  inert: boolean;
  pressed?: boolean;
}

function TransportButton({ label, glyph, keys, onClick, inert, pressed, off }: ButtonSpec & { off: boolean }) {
  return (
    <button
      type="button"
      className={`tp-button ${pressed ? 'is-active' : ''}`}
      aria-label={label}
      aria-pressed={pressed}
      title={`${pressed === undefined ? label : `${label} / pause`} (${keys})`}
      onClick={inert ? undefined : onClick}
      disabled={off}
      aria-disabled={inert || undefined}
    >
      <span aria-hidden="true">{glyph}</span>
    </button>
  );
}

export function Transport() {
  const ready = useAppStore(selectIsReady);
  const step = useAppStore(selectStep);
  const accepted = useAppStore(selectAccepted);
  const atStart = useAppStore(selectAtStart);
  const atEnd = useAppStore(selectAtEnd);
  // A followed session paused with the cursor at the end: End still has something to do (pin it).
  const paused = useAppStore(selectFollowPause) !== null;
  const playing = useAppStore(selectPlaying);
  const speed = useAppStore(selectSpeed);
  const s = {
    stepBy: useAppStore((st) => st.stepBy),
    navigate: useAppStore((st) => st.navigate),
    play: useAppStore((st) => st.play),
    pause: useAppStore((st) => st.pause),
    goToStart: useAppStore((st) => st.goToStart),
    goToEnd: useAppStore((st) => st.goToEnd),
    setSpeed: useAppStore((st) => st.setSpeed),
  };
  const off = !ready;
  const buttons: ButtonSpec[] = [
    { label: 'Go to start', glyph: '|◀', keys: 'Home', onClick: s.goToStart, inert: atStart },
    { label: 'Previous replace', glyph: '⇤', keys: '[', onClick: () => void s.navigate('prev-replace'), inert: atStart },
    { label: 'Previous surface change', glyph: '◀◀', keys: 'Shift+←', onClick: () => void s.navigate('prev-change'), inert: atStart },
    { label: 'Previous step', glyph: '‹', keys: '← or k', onClick: () => s.stepBy(-1), inert: atStart },
    // One toggle: its name stays "Play", aria-pressed says whether it plays, the glyph what a press does.
    {
      label: 'Play',
      glyph: playing ? '❚❚' : '▶',
      keys: 'Space',
      onClick: playing ? s.pause : s.play,
      inert: accepted === 0 && !playing,
      pressed: playing,
    },
    { label: 'Next step', glyph: '›', keys: '→ or j', onClick: () => s.stepBy(1), inert: atEnd },
    { label: 'Next surface change', glyph: '▶▶', keys: 'Shift+→', onClick: () => void s.navigate('next-change'), inert: atEnd },
    { label: 'Next replace', glyph: '⇥', keys: ']', onClick: () => void s.navigate('next-replace'), inert: atEnd },
    { label: 'Next prefix-cache break', glyph: '✂', keys: 'x', onClick: () => void s.navigate('next-break'), inert: atEnd },
    { label: 'Go to end', glyph: '▶|', keys: 'End', onClick: s.goToEnd, inert: atEnd && !paused },
  ];

  return (
    <section aria-label="Transport" className="transport">
      <div className="tp-buttons" role="group" aria-label="Step controls">
        {buttons.map((button) => (
          <TransportButton key={button.label} {...button} off={off} />
        ))}
      </div>
      {/* Not an <output>: its implicit role="status" would compete with the app's status region. */}
      <span className="tp-readout mono">
        step <b>{formatCount(step)}</b> / {formatCount(accepted)}
        {playing ? <span className="tp-playing"> ▶ playing</span> : null}
      </span>
      <Scrubber />
      <label className="tp-speed">
        <span>speed</span>
        <select aria-label="Speed" value={speed} disabled={off} onChange={(e) => s.setSpeed(Number(e.currentTarget.value))}>
          {SPEEDS.map((value) => (
            <option key={value} value={value}>
              {value} steps/s
            </option>
          ))}
        </select>
      </label>
      <JumpForm />
    </section>
  );
}
