/** A short hint on hover or keyboard focus, after the spec's tooltip delay (SPEC §9: 750 ms). */
import type { ReactElement, ReactNode } from 'react';
import { OverlayArrow, Tooltip, TooltipTrigger } from 'react-aria-components';
import { TOOLTIP_DELAY_MS } from '../../domain/constants';

export function Hint({
  content,
  children,
  placement = 'bottom',
}: {
  content: ReactNode;
  /** One focusable React Aria element (Button, ToggleButton, Link) or a `Focusable`. */
  children: ReactElement;
  placement?: 'top' | 'bottom' | 'start' | 'end';
}) {
  return (
    <TooltipTrigger delay={TOOLTIP_DELAY_MS} closeDelay={200}>
      {children}
      <Tooltip
        placement={placement}
        offset={8}
        className="group max-w-64 rounded-lg bg-primary-950 px-3 py-1.5 text-sm leading-snug text-white shadow-lg"
      >
        <OverlayArrow>
          <svg width={10} height={10} viewBox="0 0 10 10" className="fill-primary-950 block group-data-[placement=bottom]:rotate-180">
            <path d="M0 0 L5 5 L10 0" />
          </svg>
        </OverlayArrow>
        {content}
      </Tooltip>
    </TooltipTrigger>
  );
}
