/**
 * A row of tabs (`role="tablist"`): one tab is selected, arrow keys move between tabs and select
 * (automatic activation), Home/End jump to the ends. The owner renders the matching tab panel
 * with `tabPanelId(idBase, value)` and `tabId(idBase, value)`.
 */
import type { KeyboardEvent, ReactNode } from 'react';

export interface TabSpec<T extends string> {
  value: T;
  label: ReactNode;
  disabled?: boolean;
}

export const tabId = (base: string, value: string): string => `${base}-tab-${value}`;
export const tabPanelId = (base: string, value: string): string => `${base}-panel-${value}`;

export interface TabBarProps<T extends string> {
  idBase: string;
  label: string;
  tabs: TabSpec<T>[];
  value: T;
  onChange: (value: T) => void;
}

export function TabBar<T extends string>({ idBase, label, tabs, value, onChange }: TabBarProps<T>) {
  const enabled = tabs.filter((t) => !t.disabled);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = enabled.findIndex((t) => t.value === value);
    const moves: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: enabled.length - 1 };
    const target = moves[event.key];
    if (target === undefined || enabled.length === 0) return;
    event.preventDefault();
    event.stopPropagation();
    const next = enabled[(target + enabled.length) % enabled.length] as TabSpec<T>;
    onChange(next.value);
    document.getElementById(tabId(idBase, next.value))?.focus();
  };
  return (
    <div role="tablist" aria-label={label} className="tabbar" onKeyDown={onKeyDown}>
      {tabs.map((tab) => {
        const selected = tab.value === value;
        return (
          <button
            key={tab.value}
            type="button"
            role="tab"
            id={tabId(idBase, tab.value)}
            aria-selected={selected}
            aria-controls={tabPanelId(idBase, tab.value)}
            tabIndex={selected ? 0 : -1}
            disabled={tab.disabled}
            className="tab"
            onClick={() => onChange(tab.value)}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
