/**
 * The narration of the open guided demo: the note for the current step (the latest note at or
 * before the cursor), with buttons to jump to the previous and next note. Play works as usual.
 */
import { useAppStore } from '../../../store/react';
import { selectActiveDemo, selectDemoNoteIndex, selectHasNextNote, selectHasPreviousNote, selectStep } from '../../../store/selectors';
import { formatCount } from '../../format';

export function NarrationBar() {
  const demo = useAppStore(selectActiveDemo);
  const index = useAppStore(selectDemoNoteIndex);
  const step = useAppStore(selectStep);
  const hasNext = useAppStore(selectHasNextNote);
  const hasPrevious = useAppStore(selectHasPreviousNote);
  const nextNote = useAppStore((s) => s.nextNote);
  const previousNote = useAppStore((s) => s.previousNote);
  if (!demo) return null;
  const note = demo.notes[index];
  return (
    <section className="narration" aria-label="Narration">
      <span className="narration-title">
        <span aria-hidden="true">◉</span> Demo: {demo.title}
      </span>
      <p className="narration-text" aria-live="polite">
        {note ? (
          <>
            <span className="narration-where mono">
              note {index + 1}/{demo.notes.length} · step {formatCount(note.step)}
            </span>{' '}
            {note.text}
          </>
        ) : (
          <span className="muted">No note before step {formatCount(step)}.</span>
        )}
      </p>
      <span className="narration-buttons">
        {/* aria-disabled, not disabled: a button pressed to the end keeps the focus. */}
        <button type="button" onClick={hasPrevious ? previousNote : undefined} aria-disabled={!hasPrevious || undefined}>
          ‹ Previous note
        </button>
        <button type="button" onClick={hasNext ? nextNote : undefined} aria-disabled={!hasNext || undefined}>
          Next note ›
        </button>
      </span>
    </section>
  );
}
