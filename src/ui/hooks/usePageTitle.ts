/** The page title names what is open: the file, and the session when the file holds several. */
import { useEffect } from 'react';
import { useAppStore } from '../../store/react';
import { selectPageTitle } from '../../store/selectors';

export function usePageTitle(): void {
  const title = useAppStore(selectPageTitle);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
