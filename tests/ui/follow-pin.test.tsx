/**
 * The scroll lock of a followed session, in the timeline, the Live control and the transport,
 * on a real store and the real engine in process (a URL on an in-memory Range host that grows):
 * pinned, the cursor and the timeline move to every new end; a user scroll away from the end
 * pauses both (what is on screen stays, the paused state is said, the new events counted); End
 * pins again; scrolling back to the bottom resumes a pause a scroll made but not one the cursor
 * made, which only End or "Follow the end" ends.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { generateText } from '../../src/core/gen/generate';
import { LiveControl } from '../../src/ui/panels/follow/LiveControl';
import { Timeline } from '../../src/ui/panels/timeline/Timeline';
import { ROW_HEIGHT } from '../../src/ui/panels/timeline/TimelineRow';
import { Transport } from '../../src/ui/panels/transport/Transport';
import { makeEngineStore } from '../store/helpers';
import { rangeHost } from '../support/range-host';
import { renderWith, VIEWPORT } from './harness';

const lines = generateText({ seed: 83, events: 2000 }).split(/(?<=\n)/);
/** The first `tenths` tenths of the log's lines. */
const prefix = (tenths: number): Uint8Array => new TextEncoder().encode(lines.slice(0, Math.floor((lines.length * tenths) / 10)).join(''));

const grid = () => screen.getByRole('grid', { name: 'Events' });
const renderedSeqs = () =>
  within(grid())
    .queryAllByRole('row')
    .filter((row) => row.getAttribute('aria-busy') !== 'true')
    .map((row) => Number(row.getAttribute('data-seq')));
const pinText = () => document.querySelector('.live-pin')?.textContent ?? '';
/** The largest scroll offset of the grid (plain geometry: the logs here are small). */
const maxTop = () => Number(grid().getAttribute('aria-rowcount')) * ROW_HEIGHT - VIEWPORT.height;

async function setup() {
  const host = rangeHost();
  host.set(prefix(2));
  const test = makeEngineStore({ fetch: host.fetch });
  const view = renderWith(
    <>
      <LiveControl />
      <Transport />
      <Timeline />
    </>,
    test,
  );
  await act(() => test.store.getState().openSource({ kind: 'url', url: 'http://host/live.jsonl' }));
  const session = () => test.store.getState().load!.sessions[0]!;
  /** The file gains lines up to `tenths` of the log; the next look (the follow timer) takes them. */
  const grow = async (tenths: number) => {
    const before = session().events;
    host.set(prefix(tenths));
    await act(async () => test.scheduler.advance(10_000));
    await waitFor(() => expect(session().events).toBeGreaterThan(before));
  };
  /** The user scrolls the grid to `top` (a wheel or the scrollbar: the offset changes, then the event). */
  const userScroll = (top: number) =>
    act(() => {
      grid().scrollTop = top;
      fireEvent.scroll(grid());
    });
  return { ...view, host, session, grow, userScroll };
}

describe('follow: the scroll lock', () => {
  it('pinned follows the end; a scroll up pauses with the view kept; End pins at the new end', async () => {
    const { store, session, grow, userScroll } = await setup();
    fireEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect(store.getState().live?.pin).toEqual({ pinned: true });
    // Following pins the timeline to its end at once.
    await waitFor(() => expect(grid().scrollTop).toBe(maxTop()));

    await grow(4);
    await waitFor(() => expect(grid().scrollTop).toBe(maxTop()));
    expect(store.getState().step).toBe(session().accepted);
    await waitFor(() => expect(renderedSeqs()).toContain(session().baseSeq + session().events - 1));
    expect(pinText()).toBe('Following the end');

    // The user scrolls up: paused, the cursor stays at the old end.
    const stepThen = store.getState().step;
    const eventsThen = session().events;
    const top = 40 * ROW_HEIGHT;
    userScroll(top);
    expect(store.getState().live?.pin).toMatchObject({ pinned: false, by: 'scroll' });
    await waitFor(() => expect(pinText()).toBe('Paused — End to follow'));
    await waitFor(() => expect(renderedSeqs()).toContain(session().baseSeq + 45));
    const seenThen = renderedSeqs();

    await grow(6);
    await waitFor(() => expect(Number(grid().getAttribute('aria-rowcount'))).toBe(session().events));
    // Nothing moved: the offset, the rows on screen, the cursor.
    expect(grid().scrollTop).toBe(top);
    expect(renderedSeqs()).toEqual(seenThen);
    expect(store.getState().step).toBe(stepThen);
    // The foot of the timeline counts them, with the way back.
    const arrived = (session().events - eventsThen).toLocaleString('en-US');
    expect(screen.getByRole('button', { name: `${arrived} new events: follow the end` })).toBeTruthy();

    // End (the transport's button, as the End key) pins again: the cursor and the grid at the new end.
    fireEvent.click(screen.getByRole('button', { name: 'Go to end' }));
    expect(store.getState().step).toBe(session().accepted);
    expect(store.getState().live?.pin).toEqual({ pinned: true });
    await waitFor(() => expect(grid().scrollTop).toBe(maxTop()));
    expect(pinText()).toBe('Following the end');
    expect(screen.queryByRole('button', { name: 'Follow the end' })).toBeNull();
    expect(screen.queryByRole('button', { name: /new events?: follow the end/ })).toBeNull();

    await grow(8);
    expect(store.getState().step).toBe(session().accepted);
    await waitFor(() => expect(grid().scrollTop).toBe(maxTop()));

    // Paused again by a scroll; the timeline's own button follows the end.
    userScroll(5 * ROW_HEIGHT);
    await grow(10);
    await waitFor(() => expect(Number(grid().getAttribute('aria-rowcount'))).toBe(session().events));
    expect(grid().scrollTop).toBe(5 * ROW_HEIGHT);
    fireEvent.click(screen.getByRole('button', { name: /new events: follow the end$/ }));
    expect(store.getState().step).toBe(session().accepted);
    await waitFor(() => expect(grid().scrollTop).toBe(maxTop()));
    expect(screen.queryByRole('button', { name: /new events?: follow the end/ })).toBeNull();
    store.dispose();
  });

  it('scrolling back to the bottom resumes a pause a scroll made; a cursor stepped back waits for "Follow the end"', async () => {
    const { store, session, grow, userScroll } = await setup();
    act(() => store.getState().startFollow());
    await waitFor(() => expect(grid().scrollTop).toBe(maxTop()));
    // A selection far from the end (an inspector's link) takes the view there: paused, as by a scroll.
    const selected = 7;
    const stepThen = store.getState().step;
    act(() => store.getState().select(selected));
    await waitFor(() => expect(grid().scrollTop).toBe(0));
    expect(store.getState().live?.pin).toMatchObject({ pinned: false, by: 'scroll' });
    await grow(4);
    await waitFor(() => expect(Number(grid().getAttribute('aria-rowcount'))).toBe(session().events));
    expect(grid().scrollTop).toBe(0);
    expect(store.getState().step).toBe(stepThen);

    // Back at the very bottom: following again, the cursor at the end, the selection kept.
    userScroll(maxTop());
    expect(store.getState().live?.pin).toEqual({ pinned: true });
    expect(store.getState().step).toBe(session().accepted);
    expect(store.getState().selectedSeq).toBe(selected);
    await grow(6);
    await waitFor(() => expect(grid().scrollTop).toBe(maxTop()));
    expect(store.getState().step).toBe(session().accepted);

    // The cursor moved back: paused by it; the bottom of the timeline does not undo that.
    act(() => store.getState().goTo(20));
    expect(store.getState().live?.pin).toMatchObject({ pinned: false, by: 'cursor' });
    await waitFor(() => expect(pinText()).toBe('Paused — End to follow'));
    await grow(8);
    expect(store.getState().step).toBe(20);
    await waitFor(() => expect(Number(grid().getAttribute('aria-rowcount'))).toBe(session().events));
    userScroll(maxTop());
    expect(store.getState().step).toBe(20);
    fireEvent.click(screen.getByRole('button', { name: 'Follow the end' }));
    expect(store.getState().step).toBe(session().accepted);
    expect(store.getState().live?.pin).toEqual({ pinned: true });

    // End in the timeline itself (it takes the key for its own selection) pins too.
    act(() => store.getState().goTo(30));
    await grow(10);
    fireEvent.keyDown(grid(), { key: 'End' });
    expect(store.getState().step).toBe(session().accepted);
    expect(store.getState().live?.pin).toEqual({ pinned: true });
    await waitFor(() => expect(grid().scrollTop).toBe(maxTop()));
    store.dispose();
  });
});
