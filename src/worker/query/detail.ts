/** Everything the inspector shows for one event. */
import { citersOf, sourcesOf } from '../../core/analyze/columns';
import { clipJsonValue } from '../../core/analyze/clip-value';
import { DETAIL_RAW_LIMIT } from '../../protocol/protocol';
import type { DetailClip, EventAtParams, EventDetail } from '../../protocol/protocol';
import { sessionDiagnostics } from '../../core/analyze/diagnostics';
import { readable } from './session';
import type { QuerySession } from './session';

/**
 * Characters the copy of a clipped detail's event may hold (about 1 MB): its strings and
 * containers are cut to about this much. Separate from `DETAIL_RAW_LIMIT`, the raw text sent:
 * the inspector shows only the start of the raw line, but the event's tree expands a long
 * string on request ("show all") and the views read a block's full text from it.
 */
export const DETAIL_EVENT_LIMIT = 1 << 20;

export function detail(q: QuerySession, { seq, step }: EventAtParams): EventDetail {
  const index = q.indexOf(seq);
  const { log, columns, citedBy, index: tt } = q.session;
  const origin = log.origin(index);
  const state = q.stateAt(index, step);
  const classification = state === 'shadowed' ? tt.classify(index, step) : null;
  const r = tt.replacementOfSeq(seq);
  // A huge line (a 200 MB tool result) is not shipped to the page: its start, and the event
  // with long strings shortened; the whole of it is a download away (exportEvent). The row is
  // decoded once for both.
  const read = log.rawAndEvent(index, DETAIL_RAW_LIMIT);
  const raw = read.raw;
  let event = readable(read.event);
  let clipped: DetailClip | null = null;
  if (raw.text.length < raw.length) {
    const bounded = clipJsonValue(event, DETAIL_EVENT_LIMIT);
    event = bounded.value;
    clipped = { rawLength: raw.length, eventClipped: bounded.clipped };
  }
  return {
    index,
    seq,
    line: origin.line,
    byte: origin.byte,
    member: origin.member,
    raw: raw.text,
    event,
    ...(clipped === null ? {} : { clipped }),
    state,
    sourceEventSeqs: sourcesOf(columns, index),
    citedBy: citersOf(citedBy, index),
    replacedBy: classification && classification.state === 'shadowed' ? classification.by : null,
    replacementChain: classification && classification.state === 'shadowed' ? classification.chain.slice(1) : [],
    replacedEventSeqs: r >= 0 ? tt.replacement(r).shadowedSeqs : [],
    diagnostics: sessionDiagnostics(q.session).filter((d) => d.seq === seq),
  };
}
