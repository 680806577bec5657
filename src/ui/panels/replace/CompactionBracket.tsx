/**
 * A summarizing compaction's bracket: its compaction/start, compaction/summary and
 * compaction/end (as links), and what the summary declared it would shadow against what the
 * fold actually shadowed. A mismatch is marked with a word and a glyph, not only a colour.
 */
import type { ReplaceDetail } from '../../../protocol/protocol';
import { SeqLink } from '../../widgets/SeqLink';

type Compaction = NonNullable<ReplaceDetail['compaction']>;

const show = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value)));

function Linked({ label, seq, onSelect }: { label: string; seq: number | null; onSelect: (seq: number) => void }) {
  return (
    <div className="kv">
      <dt>{label}</dt>
      <dd>
        {seq === null ? (
          <span className="ri-missing">
            <span aria-hidden="true">✕</span> not found
          </span>
        ) : (
          <SeqLink seq={seq} onSelect={onSelect} label={label} />
        )}
      </dd>
    </div>
  );
}

export function CompactionBracket({
  compaction,
  actual,
  onSelect,
}: {
  compaction: Compaction;
  actual: number[];
  onSelect: (seq: number) => void;
}) {
  const declared = compaction.declaredSeqs ?? [];
  const actualSet = new Set<unknown>(actual);
  const declaredSet = new Set<unknown>(declared);
  const onlyDeclared = declared.filter((seq) => !actualSet.has(seq));
  const onlyActual = actual.filter((seq) => !declaredSet.has(seq));
  const range = compaction.declaredRange;
  const rangeMatches = range !== null && range.start === actual[0] && range.end === actual[actual.length - 1];
  return (
    <section className="ri-section" aria-labelledby="ri-bracket">
      <h3 id="ri-bracket">
        Compaction bracket{compaction.compactionId ? <span className="mono muted"> {compaction.compactionId}</span> : null}
      </h3>
      <dl className="kvs">
        <Linked label="compaction/start" seq={compaction.startSeq} onSelect={onSelect} />
        <Linked label="compaction/summary" seq={compaction.summarySeq} onSelect={onSelect} />
        <Linked label="compaction/end" seq={compaction.endSeq} onSelect={onSelect} />
        {compaction.error !== null ? (
          <div className="kv">
            <dt>end error</dt>
            <dd className="sev-error">{compaction.error}</dd>
          </div>
        ) : null}
      </dl>
      <table className={`ri-declared ${compaction.declaredMatches ? '' : 'is-mismatch'}`}>
        <caption>Declared by the summary vs shadowed by the fold</caption>
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">Declared</th>
            <th scope="col">Actual</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          <tr className={rangeMatches ? '' : 'ri-differs'}>
            <th scope="row">shadowedRange</th>
            <td className="mono">{range === null ? 'not declared' : `${show(range.start)}…${show(range.end)}`}</td>
            <td className="mono">{actual.length > 0 ? `${actual[0]}…${actual[actual.length - 1]}` : '—'}</td>
            <td>{rangeMatches ? <span className="ri-ok">✓ matches</span> : <span className="ri-bad">✕ differs</span>}</td>
          </tr>
          <tr className={compaction.declaredMatches ? '' : 'ri-differs'}>
            <th scope="row">shadowedSeqs</th>
            <td className="mono">{compaction.declaredSeqs === null ? 'not declared' : declared.map(show).join(', ')}</td>
            <td className="mono">{actual.join(', ')}</td>
            <td>{compaction.declaredMatches ? <span className="ri-ok">✓ matches</span> : <span className="ri-bad">✕ differs</span>}</td>
          </tr>
        </tbody>
      </table>
      {onlyDeclared.length > 0 || onlyActual.length > 0 ? (
        <ul className="ri-seq-diff">
          {onlyActual.length > 0 ? (
            <li>
              Shadowed but not declared: <span className="mono">{onlyActual.join(', ')}</span>
            </li>
          ) : null}
          {onlyDeclared.length > 0 ? (
            <li>
              Declared but not shadowed: <span className="mono">{onlyDeclared.map(show).join(', ')}</span>
            </li>
          ) : null}
        </ul>
      ) : null}
    </section>
  );
}
