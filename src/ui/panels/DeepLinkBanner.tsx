/** Warns when the URL's deep link was made for another file. */
import { useAppStore } from '../../store/react';
import { selectDeepLinkWarning } from '../../store/selectors';

export function DeepLinkBanner() {
  const warning = useAppStore(selectDeepLinkWarning);
  const dismiss = useAppStore((s) => s.dismissDeepLinkWarning);
  if (!warning) return null;
  return (
    <div className="banner banner-warning" aria-label="Deep link warning">
      <span className="banner-icon" aria-hidden="true">
        ▲
      </span>
      <span>{warning}</span>
      <button type="button" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
