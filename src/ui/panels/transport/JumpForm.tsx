/** "Go to step" and "Go to seq" fields; invalid input is explained, never dropped silently. */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useAppStore } from '../../../store/react';
import { selectAccepted, selectBaseSeq, selectEventCount, selectIsReady } from '../../../store/selectors';
import { IDS } from '../../ids';
import { formatCount } from '../../format';

/**
 * A whole number typed into a jump field, also as the readout writes it (`777,778`); the
 * number, or why it is not one in range.
 */
export function parseJump(text: string, what: 'step' | 'seq', min: number, max: number): { value: number } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { error: `Type a ${what} number.` };
  if (!/^(\d{1,3}(,\d{3})+|\d{1,15})$/.test(trimmed)) return { error: `“${trimmed.slice(0, 20)}” is not a whole number.` };
  const value = Number(trimmed.replace(/,/g, ''));
  if (value < min || value > max) {
    return { error: `No ${what} ${formatCount(value)}: ${what}s here run from ${formatCount(min)} to ${formatCount(max)}.` };
  }
  return { value };
}

export function JumpForm() {
  const ready = useAppStore(selectIsReady);
  const accepted = useAppStore(selectAccepted);
  const events = useAppStore(selectEventCount);
  const baseSeq = useAppStore(selectBaseSeq);
  const goTo = useAppStore((s) => s.goTo);
  const jumpToSeq = useAppStore((s) => s.jumpToSeq);
  const pause = useAppStore((s) => s.pause);
  const [stepText, setStepText] = useState('');
  const [seqText, setSeqText] = useState('');
  const [error, setError] = useState<{ field: 'step' | 'seq'; text: string } | null>(null);

  const onStep = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseJump(stepText, 'step', 0, accepted);
    if ('error' in parsed) return setError({ field: 'step', text: parsed.error });
    setError(null);
    pause();
    goTo(parsed.value);
  };
  const onSeq = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseJump(seqText, 'seq', baseSeq, baseSeq + Math.max(0, events - 1));
    if ('error' in parsed) return setError({ field: 'seq', text: parsed.error });
    setError(null);
    jumpToSeq(parsed.value);
  };

  return (
    <div className="jump">
      <form onSubmit={onStep} className="jump-form">
        <input
          inputMode="numeric"
          aria-label="Jump to step"
          placeholder="step"
          value={stepText}
          disabled={!ready}
          aria-invalid={error?.field === 'step' || undefined}
          aria-describedby={error?.field === 'step' ? 'jump-error' : undefined}
          onChange={(e) => setStepText(e.currentTarget.value)}
        />
        <button type="submit" disabled={!ready} aria-label="Go to step">
          Go
        </button>
      </form>
      <form onSubmit={onSeq} className="jump-form">
        <input
          id={IDS.jumpSeq}
          inputMode="numeric"
          aria-label="Jump to seq"
          placeholder="seq  (g)"
          value={seqText}
          disabled={!ready}
          aria-invalid={error?.field === 'seq' || undefined}
          aria-describedby={error?.field === 'seq' ? 'jump-error' : undefined}
          onChange={(e) => setSeqText(e.currentTarget.value)}
        />
        <button type="submit" disabled={!ready} aria-label="Go to seq">
          Go
        </button>
      </form>
      {error ? (
        <span id="jump-error" className="jump-error" role="alert">
          {error.text}
        </span>
      ) : null}
    </div>
  );
}
