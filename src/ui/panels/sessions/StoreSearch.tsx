/**
 * "Search all sessions": a query of the app's language over the whole store (the server's
 * index, or a full read until it is ready), results grouped by session in the region "Search
 * results". A click opens that session at that event. Log content is rendered as text only.
 */
import { useState } from 'react';
import type { StoreSearchSession } from '../../../protocol/store-api';
import { useAppStore } from '../../../store/react';
import { formatCount } from '../../format';
import { MarkedText } from '../search/MarkedText';

function SessionResults({ result, onOpen }: { result: StoreSearchSession; onOpen: (id: string, seq: number) => void }) {
  const details = useAppStore((s) => s.storeDetails[result.id]);
  const title = details?.title ?? result.sessionId ?? result.path;
  return (
    <li className="ss-session">
      <h3 className="ss-title">
        {title}{' '}
        <span className="muted">
          · {formatCount(result.total)} {result.total === 1 ? 'match' : 'matches'}
        </span>
      </h3>
      <ul className="ss-matches">
        {result.matches.map((match) => (
          <li key={match.seq}>
            <button type="button" className="ss-match" onClick={() => onOpen(result.id, match.seq)}>
              <span className="ss-seq">{match.seq}</span>
              <span className="ss-type">{match.type}</span>
              <span className="ss-snippet">
                <MarkedText text={match.snippet} marks={match.marks} />
              </span>
            </button>
          </li>
        ))}
        {result.total > result.matches.length ? (
          <li className="muted">… {formatCount(result.total - result.matches.length)} more in this session</li>
        ) : null}
      </ul>
    </li>
  );
}

export function StoreSearch() {
  const search = useAppStore((s) => s.storeSearch);
  const searchStore = useAppStore((s) => s.searchStore);
  const openStoreSession = useAppStore((s) => s.openStoreSession);
  const jumpToSeq = useAppStore((s) => s.jumpToSeq);
  const [text, setText] = useState(search.text);
  const answer = search.answer;
  const open = (id: string, seq: number): void => {
    void openStoreSession(id).then(() => jumpToSeq(seq));
  };

  let status = '';
  if (search.status === 'searching') status = 'searching…';
  else if (search.status === 'error') status = search.error ?? 'search failed';
  else if (answer && !answer.error) {
    const found = `${formatCount(answer.sessions.length)}${answer.more ? '+' : ''} ${answer.sessions.length === 1 ? 'session' : 'sessions'} with matches`;
    const index = answer.index.ready
      ? `index ready (${formatCount(answer.index.total)} sessions)`
      : `indexing ${formatCount(answer.index.indexed)} of ${formatCount(answer.index.total)} sessions — the others were read whole`;
    status = `${found} · ${index}`;
  }
  return (
    <div className="store-search">
      <form
        role="search"
        className="ss-form"
        onSubmit={(event) => {
          event.preventDefault();
          void searchStore(text);
        }}
      >
        <input
          type="search"
          aria-label="Search all sessions"
          placeholder='Search all sessions (Enter): words, "phrase", /regex/, type:, tool:, is:error…'
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-invalid={answer?.error ? true : undefined}
        />
        <span className="ss-status muted" role="status">
          {status}
        </span>
      </form>
      {answer?.error ? (
        <div className="query-error" role="alert">
          <code className="query-error-text">
            <MarkedText
              text={search.text}
              marks={
                answer.error.start < search.text.length ? [[answer.error.start, Math.max(answer.error.start + 1, answer.error.end)]] : []
              }
            />
          </code>
          <span>
            column {answer.error.start + 1}: {answer.error.message}
          </span>
        </div>
      ) : null}
      {answer && !answer.error && search.text.trim() !== '' ? (
        <section className="ss-results" aria-label="Search results">
          {answer.sessions.length === 0 ? (
            <p className="muted">No session matches.</p>
          ) : (
            <ul className="ss-sessions">
              {answer.sessions.map((result) => (
                <SessionResults key={`${result.id}|${result.path}`} result={result} onOpen={open} />
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </div>
  );
}
