/**
 * Running totals over a session's columns: events per type and the facts of the time column
 * (`time.ts`). The columns only ever gain events at the end (a growing session's are extended in
 * place), so the totals are kept and continued from where they stopped: a session summarised
 * after every append reads only the events added since, not all of them again.
 */
import type { EventColumns } from './columns';
import { emptyTimeTally, tallyTimes } from './time';
import type { TimeTally } from './time';

/** Totals over a session's columns, continued as the columns grow (see the module comment). */
export class ColumnTally {
  /** Events counted so far. */
  private counted = 0;
  /** Events per type id. */
  private perType = new Float64Array(64);
  private readonly t: TimeTally = emptyTimeTally();

  /**
   * Count the events of `columns` not counted yet. The columns must be those counted before,
   * grown at the end (a builder's snapshots, then its finished columns); shorter ones start over.
   */
  update(columns: EventColumns): this {
    const n = columns.typeId.length;
    if (n < this.counted) {
      this.counted = 0;
      this.perType.fill(0);
      Object.assign(this.t, emptyTimeTally());
    }
    if (columns.types.length > this.perType.length) {
      const grown = new Float64Array(Math.max(columns.types.length, this.perType.length * 2));
      grown.set(this.perType);
      this.perType = grown;
    }
    const { typeId } = columns;
    const perType = this.perType;
    for (let i = this.counted; i < n; i++) {
      const id = typeId[i]!;
      perType[id] = perType[id]! + 1;
    }
    tallyTimes(this.t, columns.time, this.counted, n);
    this.counted = n;
    return this;
  }

  /** The time column's facts so far (a copy). */
  time(): TimeTally {
    return { ...this.t };
  }

  /** Events counted of type id `id`. */
  typeCount(id: number): number {
    return this.perType[id] ?? 0;
  }
}
