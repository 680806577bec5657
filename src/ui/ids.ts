/** Element ids that keyboard shortcuts move focus to. */
export const IDS = {
  search: 'timeline-search',
  jumpSeq: 'jump-to-seq',
  openLog: 'open-log-input',
} as const;

export function focusById(id: string): void {
  const element = document.getElementById(id);
  if (element instanceof HTMLElement) {
    element.focus();
    if (element instanceof HTMLInputElement) element.select();
  }
}
