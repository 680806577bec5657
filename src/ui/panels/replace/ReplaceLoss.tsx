/**
 * What a replace cost and lost: the cached prompt prefix it invalidated, and per literal
 * category how many items of the shadowed messages the replacement kept, with the dropped ones.
 * Computed by the engine (core/analysis); the rules are in docs/ANALYSIS.md.
 */
import type { ReplaceDetail, ReplaceLossInfo } from '../../../protocol/protocol';
import { formatCount } from '../../format';

const LABELS: Record<keyof ReplaceLossInfo['kept'], string> = {
  paths: 'File paths',
  commands: 'Shell commands',
  numbers: 'Numbers with units',
  identifiers: 'Identifiers (symbols, ids, URLs)',
  errors: 'Error messages',
  constraints: 'User constraints',
};

export function ReplaceLoss({ detail }: { detail: ReplaceDetail }) {
  const loss = detail.loss;
  if (!loss) return null;
  const id = `ri-loss-${detail.seq}`;
  const categories = Object.keys(LABELS) as (keyof typeof LABELS)[];
  const [keptConstraints, constraints] = loss.kept.constraints;
  return (
    <section className="ri-section" aria-labelledby={id}>
      <h3 id={id}>Prefix cache and what was lost</h3>
      <p className="ri-invalidated">
        {loss.invalidatedTokens > 0 ? (
          <>
            Invalidated <strong className="mono">~{formatCount(loss.invalidatedTokens)}</strong> tokens of the prompt prefix the previous
            model request had sent (from message {formatCount(loss.cut)} on): the next request cannot reuse them from the provider&apos;s
            cache.
          </>
        ) : (
          <>Invalidated no cached prefix: nothing the previous model request sent was replaced.</>
        )}
      </p>
      <table className="ri-loss">
        <thead>
          <tr>
            <th scope="col">Literal items of the shadowed messages</th>
            <th scope="col">Kept</th>
            <th scope="col">Dropped</th>
          </tr>
        </thead>
        <tbody>
          {categories.map((c) => {
            const [kept, total] = loss.kept[c];
            const dropped = loss.dropped[c];
            return (
              <tr key={c} data-category={c}>
                <th scope="row">{LABELS[c]}</th>
                <td className="mono">
                  {formatCount(kept)} of {formatCount(total)}
                </td>
                <td>
                  {dropped.length === 0 ? (
                    '—'
                  ) : (
                    <details>
                      <summary>{formatCount(total - kept)} dropped</summary>
                      <ul className="ri-dropped">
                        {dropped.map((item) => (
                          <li key={item} className="mono">
                            {item}
                          </li>
                        ))}
                        {total - kept > dropped.length ? (
                          <li className="hint">… {formatCount(total - kept - dropped.length)} more</li>
                        ) : null}
                      </ul>
                    </details>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {detail.kind === 'compaction' && constraints > 0 && keptConstraints === 0 ? (
        <p className="ri-warning">
          <span aria-hidden="true">▲</span> The summary keeps none of the user&apos;s explicit constraints it replaced.
        </p>
      ) : null}
      <p className="hint">
        Items are found by fixed rules (paths, commands, numbers with units, identifiers, error lines, imperative sentences the user typed)
        and count as kept when the replacement still holds them.
      </p>
    </section>
  );
}
