/**
 * useWidth under a stand-in ResizeObserver (jsdom has none): no width before the first
 * measurement, the first one rendered as an ordinary update after the observer's callback (not
 * inside it), a later resize rendered inside the callback; and the context curve asks the engine
 * for its curve once, at the measured width, never at a guessed one.
 */
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bucketsFor } from '../../src/ui/panels/curve/geometry';
import { ContextCurve } from '../../src/ui/panels/curve/ContextCurve';
import { useWidth } from '../../src/ui/hooks/useWidth';
import { makeEngineStore } from '../store/helpers';
import { fixtureText } from '../support/test-engine';
import { renderWith } from './harness';

/** Observers created, with the callback each was given; `fire` calls them all. */
const observers: Array<() => void> = [];
const fire = () => {
  for (const callback of observers) callback();
};
let clientWidth = 0;

class StandInObserver {
  constructor(private readonly callback: () => void) {
    observers.push(() => this.callback());
  }
  observe(): void {}
  disconnect(): void {}
}

beforeEach(() => {
  observers.length = 0;
  clientWidth = 0;
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver = StandInObserver;
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => clientWidth });
});

afterEach(() => {
  delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
  delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
});

function Probe() {
  const { ref, width } = useWidth();
  return (
    <div ref={ref} data-testid="probe">
      {width === null ? 'unmeasured' : String(width)}
    </div>
  );
}

describe('useWidth', () => {
  it('has no width before the first measurement, renders the first after the callback and a resize inside it', async () => {
    render(<Probe />);
    const probe = screen.getByTestId('probe');
    expect(probe.textContent).toBe('unmeasured');
    clientWidth = 812;
    fire();
    // Not rendered inside the observer's callback: the frame that mounted it paints first.
    expect(probe.textContent).toBe('unmeasured');
    await act(async () => {});
    expect(probe.textContent).toBe('812');
    clientWidth = 640;
    fire();
    // A resize is rendered at once, before the frame is painted.
    expect(probe.textContent).toBe('640');
    // A zero width (a hidden element) draws at the fallback width.
    clientWidth = 0;
    fire();
    expect(probe.textContent).toBe('600');
  });

  it('the context curve asks for its curve once, with the buckets of the measured width', async () => {
    const test = makeEngineStore();
    await test.store.getState().openSource({ kind: 'text', name: 'log.jsonl', text: fixtureText('teaching.jsonl') });
    renderWith(<ContextCurve />, test);
    await act(async () => {});
    expect(test.client.callsTo('curve')).toHaveLength(0);
    clientWidth = 1300;
    fire();
    await act(async () => {});
    const calls = test.client.callsTo('curve');
    expect(calls).toHaveLength(1);
    expect((calls[0]!.args[0] as { buckets: number }).buckets).toBe(bucketsFor(1300));
    expect(bucketsFor(1300)).not.toBe(bucketsFor(600));
  });
});
