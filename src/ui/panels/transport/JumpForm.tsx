/** "Go to step" and "Go to seq" fields. */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useAppStore } from '../../../store/react';
import { selectIsReady } from '../../../store/selectors';
import { IDS } from '../../ids';

function parse(value: string): number | null {
  const trimmed = value.trim();
  return /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : null;
}

export function JumpForm() {
  const ready = useAppStore(selectIsReady);
  const goTo = useAppStore((s) => s.goTo);
  const jumpToSeq = useAppStore((s) => s.jumpToSeq);
  const pause = useAppStore((s) => s.pause);
  const [stepText, setStepText] = useState('');
  const [seqText, setSeqText] = useState('');

  const onStep = (event: FormEvent) => {
    event.preventDefault();
    const step = parse(stepText);
    if (step === null) return;
    pause();
    goTo(step);
  };
  const onSeq = (event: FormEvent) => {
    event.preventDefault();
    const seq = parse(seqText);
    if (seq !== null) jumpToSeq(seq);
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
          onChange={(e) => setSeqText(e.currentTarget.value)}
        />
        <button type="submit" disabled={!ready} aria-label="Go to seq">
          Go
        </button>
      </form>
    </div>
  );
}
