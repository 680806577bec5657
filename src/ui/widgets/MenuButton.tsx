/**
 * A button that opens a short list of actions below it (the disclosure pattern: a button with
 * `aria-expanded` and a list of buttons; Tab moves through them, Escape and a click outside
 * close it and return focus to the button).
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';

export interface MenuItem {
  id: string;
  label: ReactNode;
  /** A second line, e.g. what the item does. */
  description?: ReactNode;
  disabled?: boolean;
  onSelect: () => void;
}

export interface MenuButtonProps {
  label: ReactNode;
  /** Accessible name of the button when `label` is not plain text. */
  ariaLabel?: string;
  /** Accessible name of the list. */
  listLabel: string;
  items: MenuItem[];
  /** Shown when `items` is empty. */
  empty?: ReactNode;
  align?: 'start' | 'end';
  disabled?: boolean;
  onOpen?: () => void;
  className?: string;
  /** Controls shown below the items (e.g. an option the items use); clicking them keeps the list open. */
  footer?: ReactNode;
}

export function MenuButton({
  label,
  ariaLabel,
  listLabel,
  items,
  empty,
  align = 'start',
  disabled,
  onOpen,
  className,
  footer,
}: MenuButtonProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement | null>(null);
  const button = useRef<HTMLButtonElement | null>(null);
  const listId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    }
  };

  return (
    <div ref={root} className={`menu ${className ?? ''}`} onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        className="menu-button"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={ariaLabel}
        disabled={disabled}
        onClick={() => {
          if (!open) onOpen?.();
          setOpen(!open);
        }}
      >
        {label} <span aria-hidden="true">▾</span>
      </button>
      <ul id={listId} className={`menu-list menu-${align}`} aria-label={listLabel} hidden={!open}>
        {items.length === 0 && empty !== undefined ? <li className="menu-empty">{empty}</li> : null}
        {items.map((item) => (
          <li key={item.id}>
            <button
              type="button"
              className="menu-item"
              disabled={item.disabled}
              onClick={() => {
                close(true);
                item.onSelect();
              }}
            >
              <span className="menu-item-label">{item.label}</span>
              {item.description === undefined ? null : <span className="menu-item-description">{item.description}</span>}
            </button>
          </li>
        ))}
        {footer === undefined ? null : <li className="menu-footer">{footer}</li>}
      </ul>
    </div>
  );
}
