/** Applies the theme preference to the document (CSS variables switch on `data-theme`). */
import { useEffect } from 'react';
import { useAppStore } from '../../store/react';
import { selectTheme } from '../../store/selectors';

export function useTheme(): void {
  const theme = useAppStore(selectTheme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
}
