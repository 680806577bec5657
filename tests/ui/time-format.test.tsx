import { describe, expect, it } from 'vitest';
import { formatElapsed, formatIsoTime, formatWallClock } from '../../src/ui/format';

describe('time display', () => {
  it('elapsed time never goes negative and large values are whole', () => {
    expect(formatElapsed(500, 1000)).toBe('+0.000s');
    expect(formatElapsed(1250, 1000)).toBe('+0.250s');
    expect(formatElapsed(1000 + 596 * 3600_000 + 17 * 60_000 + 48_000, 1000)).toBe('+596:17:48');
  });
  it('wall-clock time writes the date only where it changes', () => {
    const t = new Date(2026, 7, 1, 14, 3, 7, 250).getTime();
    expect(formatWallClock(t, null)).toBe('2026-08-01 14:03:07.250');
    expect(formatWallClock(t + 1000, t)).toBe('14:03:08.250');
    expect(formatWallClock(t + 86_400_000, t)).toBe('2026-08-02 14:03:07.250');
  });
  it('the tooltip is ISO 8601', () => {
    expect(formatIsoTime(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(formatIsoTime(null)).toBe('');
    expect(formatIsoTime(1e20)).toBe('');
  });
});
