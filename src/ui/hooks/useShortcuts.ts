/**
 * The global keyboard map. Off while the user types in a field or a dialog is open; widgets that
 * use arrows themselves (timeline grid, separators, sliders) handle them first.
 */
import { useEffect } from 'react';
import { useAppStoreApi } from '../../store/react';
import { IDS, focusById } from '../ids';

const TEXT_INPUTS = new Set(['text', 'search', 'url', 'number', 'email', 'password', 'tel', 'range', 'file', '']);

/** True when the key belongs to the focused control, not to the app. */
export function ownsKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('[role="dialog"]')) return true;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    if (TEXT_INPUTS.has(type)) return true;
    if (key === ' ' || key === 'Enter') return true;
  }
  // Space and Enter activate buttons, links and summaries.
  if ((key === ' ' || key === 'Enter') && (tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY')) return true;
  return false;
}

/** @param enabled off while another store (the playground's) owns the keyboard */
export function useShortcuts(openSheet: () => void, enabled = true): void {
  const store = useAppStoreApi();
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (ownsKey(event.target, event.key)) return;
      const s = store.getState();
      const ready = s.status === 'ready' && s.load !== null;
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      const act = (fn: () => void) => {
        event.preventDefault();
        fn();
      };
      if (event.key === '?') return act(openSheet);
      if (!ready) return;
      switch (key) {
        case 'ArrowRight':
        case 'ArrowDown':
        case 'j':
          return act(() => (event.shiftKey ? void s.navigate('next-change') : s.stepBy(1)));
        case 'ArrowLeft':
        case 'ArrowUp':
        case 'k':
          return act(() => (event.shiftKey ? void s.navigate('prev-change') : s.stepBy(-1)));
        case ']':
          return act(() => void s.navigate('next-replace'));
        case '[':
          return act(() => void s.navigate('prev-replace'));
        case 'x':
          return act(() => void s.navigate('next-break'));
        case 'X':
          return act(() => void s.navigate('prev-break'));
        case ' ':
          return act(s.togglePlay);
        case 'Home':
          return act(s.goToStart);
        case 'End':
          return act(s.goToEnd);
        case 'g':
          return act(() => focusById(IDS.jumpSeq));
        case '/':
          return act(() => focusById(IDS.search));
        default:
          return undefined;
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [store, openSheet, enabled]);
}
