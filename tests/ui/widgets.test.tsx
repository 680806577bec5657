import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Dialog } from '../../src/ui/widgets/Dialog';
import { JsonTree } from '../../src/ui/widgets/JsonTree';
import { ProgressBar } from '../../src/ui/widgets/ProgressBar';
import { SplitPane, moveBoundary } from '../../src/ui/widgets/SplitPane';
import { VirtualList, VirtualViewportProvider } from '../../src/ui/widgets/VirtualList';
import { MAX_SCROLL_PX, firstRowAt, offsetForIndex, rowTop, scrollGeometry, visibleRange } from '../../src/ui/widgets/scaledScroll';

describe('scaled scrolling', () => {
  it('is an ordinary list while everything fits', () => {
    const g = scrollGeometry(1000, 20, 400);
    expect(g).toMatchObject({ pitch: 20, paddingEnd: 0, totalSize: 20_000, maxOffset: 19_600 });
    expect(rowTop(g, 10, 12_345)).toBe(200);
    expect(visibleRange(g, 200)).toEqual({ first: 10, last: 29 });
  });

  it('compresses 1,000,000+ rows under the cap and still reaches the last row exactly', () => {
    for (const count of [1_000_000, 3_000_000, 50_000_000]) {
      const g = scrollGeometry(count, 22, 440);
      expect(g.totalSize).toBeLessThanOrEqual(MAX_SCROLL_PX + 440);
      // At the largest offset the last row's bottom is the viewport's bottom.
      expect(rowTop(g, count - 1, g.maxOffset) + 22).toBeCloseTo(g.maxOffset + 440, 3);
      expect(visibleRange(g, g.maxOffset).last).toBe(count - 1);
      // The first row at offset 0, and proportional in between.
      expect(rowTop(g, 0, 0)).toBe(0);
      expect(Math.round(firstRowAt(g, g.maxOffset / 2))).toBe(Math.round((count - 20) / 2));
    }
  });

  it('computes offsets to reveal a row', () => {
    const g = scrollGeometry(1_000_000, 22, 440);
    const center = offsetForIndex(g, 500_000, 'center', 0);
    expect(visibleRange(g, center).first).toBeLessThanOrEqual(500_000);
    expect(visibleRange(g, center).last).toBeGreaterThanOrEqual(500_000);
    expect(offsetForIndex(g, 999_999, 'start', 0)).toBe(g.maxOffset);
    expect(offsetForIndex(g, 5, 'auto', 0)).toBe(0);
    expect(firstRowAt(g, offsetForIndex(g, 100, 'auto', 0))).toBeCloseTo(81, 5);
  });
});

describe('VirtualList', () => {
  it('renders only the rows in view plus overscan, whatever the count', () => {
    render(
      <VirtualViewportProvider value={{ width: 300, height: 200 }}>
        <VirtualList count={5_000_000} rowHeight={20} renderRow={(i, style) => <div role="row" style={style}>{`row ${i}`}</div>} />
      </VirtualViewportProvider>,
    );
    expect(screen.getAllByRole('row')).toHaveLength(10 + 8);
    expect(screen.getAllByRole('row')[0]?.textContent).toBe('row 0');
  });

  // A compressed list changes its pitch with its count: the same offset would show other rows.
  it('keeps the first visible row when a compressed list grows, and tells its own scrolls from the user’s', () => {
    const userScrolls: boolean[] = [];
    const list = (count: number, stickToEnd = false) => (
      <VirtualViewportProvider value={{ width: 300, height: 200 }}>
        <VirtualList
          count={count}
          rowHeight={20}
          overscan={0}
          stickToEnd={stickToEnd}
          onUserScroll={(atEnd) => userScrolls.push(atEnd)}
          scrollerProps={{ role: 'grid' }}
          renderRow={(i, style) => <div role="row" style={style}>{`row ${i}`}</div>}
        />
      </VirtualViewportProvider>
    );
    const firstRow = () => screen.getAllByRole('row')[0]?.textContent;
    const { rerender } = render(list(1_000_000));
    const grid = screen.getByRole('grid');
    grid.scrollTop = scrollGeometry(1_000_000, 20, 200).pitch * 400_000;
    fireEvent.scroll(grid);
    expect(firstRow()).toBe('row 400000');
    expect(userScrolls).toEqual([false]);
    rerender(list(1_250_000));
    expect(firstRow()).toBe('row 400000');
    // The list moved itself to keep that row: its scroll event is not the user's.
    fireEvent.scroll(grid);
    expect(userScrolls).toEqual([false]);
    // Stuck to the end: it shows the last row as it grows, and a scroll to the end says so.
    rerender(list(1_300_000, true));
    expect(screen.getAllByRole('row').at(-1)?.textContent).toBe('row 1299999');
    fireEvent.scroll(grid);
    expect(userScrolls).toEqual([false]);
    // The user's own scrolls: to the end (to within device-pixel rounding), then away.
    grid.scrollTop = scrollGeometry(1_300_000, 20, 200).maxOffset - 1.5;
    fireEvent.scroll(grid);
    grid.scrollTop = 0;
    fireEvent.scroll(grid);
    expect(userScrolls).toEqual([false, true, false]);
  });
});

describe('JsonTree', () => {
  it('renders every value as text and collapses', () => {
    const value = { html: '<img src=x onerror=alert(1)>', n: 1.5, ok: true, none: null, list: [1, 2] };
    render(<JsonTree value={value} rootLabel="event" />);
    const tree = screen.getByRole('tree', { name: 'event as JSON' });
    expect(tree.textContent).toContain('"<img src=x onerror=alert(1)>"');
    expect(tree.querySelector('img')).toBeNull();
    expect(tree.textContent).toContain('1.5');
    fireEvent.click(screen.getByRole('button', { name: 'Collapse event' }));
    expect(tree.textContent).not.toContain('onerror');
  });

  it('pages huge arrays', () => {
    render(<JsonTree value={{ list: Array.from({ length: 5000 }, (_, i) => i) }} rootLabel="big" />);
    expect(screen.getAllByRole('treeitem')).toHaveLength(2 + 200);
    fireEvent.click(screen.getByRole('button', { name: 'show 1000 more of 4800' }));
    expect(screen.getAllByRole('treeitem')).toHaveLength(2 + 1200);
  });

  it('clips long strings with a way to show them', () => {
    render(<JsonTree value={{ s: 'a'.repeat(50) }} maxString={10} />);
    expect(screen.getByText(/show all 50 characters/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /show all/ }));
    expect(screen.getByRole('tree').textContent).toContain('a'.repeat(50));
  });
});

describe('SplitPane', () => {
  it('moves a boundary within the minimum sizes', () => {
    expect(moveBoundary([0.5, 0.5], 0, 0.1, 0.1)).toEqual([0.6, 0.4]);
    expect(moveBoundary([0.5, 0.5], 0, 0.9, 0.1)[0]).toBeCloseTo(0.9);
    expect(moveBoundary([0.5, 0.5], 0, -0.9, 0.1)[0]).toBeCloseTo(0.1);
  });

  it('resizes with the keyboard and reports the new sizes', () => {
    const onResize = vi.fn();
    render(
      <SplitPane
        direction="horizontal"
        sizes={undefined}
        defaultSizes={[0.5, 0.5]}
        onResize={onResize}
        separatorLabels={['Resize a and b']}
      >
        <div>a</div>
        <div>b</div>
      </SplitPane>,
    );
    const separator = screen.getByRole('separator', { name: 'Resize a and b' });
    expect(separator.getAttribute('aria-valuenow')).toBe('50');
    fireEvent.keyDown(separator, { key: 'ArrowRight' });
    expect(onResize).toHaveBeenCalledWith([0.52, 0.48]);
  });
});

describe('Dialog and ProgressBar', () => {
  function Harness() {
    const [open, setOpen] = useState(true);
    return (
      <Dialog open={open} title="Sheet" onClose={() => setOpen(false)}>
        <p>body</p>
      </Dialog>
    );
  }

  it('takes focus and closes on Escape', () => {
    render(<Harness />);
    const dialog = screen.getByRole('dialog', { name: 'Sheet' });
    expect(document.activeElement).toBe(dialog);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('reports progress, or none when the total is unknown', () => {
    render(
      <>
        <ProgressBar label="known" value={25} max={100} />
        <ProgressBar label="unknown" value={25} max={null} />
      </>,
    );
    expect(screen.getByRole('progressbar', { name: 'known' }).getAttribute('aria-valuenow')).toBe('25');
    expect(screen.getByRole('progressbar', { name: 'unknown' }).getAttribute('aria-valuenow')).toBeNull();
  });
});
