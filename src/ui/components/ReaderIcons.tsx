/** Icons of the reader's controls (24px grid, stroke = currentColor). Decorative: always aria-hidden. */
import { icon } from './Icons';

export const HeadphonesIcon = icon(
  <path d="M4 15v-3a8 8 0 0 1 16 0v3" />,
  <rect x="3.5" y="14" width="4" height="6" rx="1.5" />,
  <rect x="16.5" y="14" width="4" height="6" rx="1.5" />,
);
export const TextSizeIcon = icon(<path d="M3 19 8 6h1l5 13M4.8 14.5h7.4" />, <path d="M15 19l3-7.5h.6L21.6 19M16 16.5h4.6" />);
export const ColumnsIcon = icon(<rect x="3.5" y="4.5" width="17" height="15" rx="2" />, <path d="M12 4.5v15" />);
export const DecodeIcon = icon(
  <path d="M4 17V9.5a3 3 0 0 1 6 0V17M4 13h6" />,
  <path d="M14 7v10M14 11.5c.6-1.2 1.7-2 3-2a3 3 0 0 1 3 3.2V17" />,
  <path d="M3 20.5h18" strokeDasharray="2 2.4" />,
);
export const ListIcon = icon(
  <path d="M9 6.5h11M9 12h11M9 17.5h11" />,
  <circle cx="4.5" cy="6.5" r="1" />,
  <circle cx="4.5" cy="12" r="1" />,
  <circle cx="4.5" cy="17.5" r="1" />,
);
export const PlayIcon = icon(<path d="M8 5.5v13l10.5-6.5z" fill="currentColor" />);
export const PauseIcon = icon(<path d="M8 5.5v13M16 5.5v13" strokeWidth={3} />);
export const LockIcon = icon(<rect x="5" y="10.5" width="14" height="10" rx="2" />, <path d="M8 10.5V8a4 4 0 0 1 8 0v2.5" />);
export const AudioOffIcon = icon(<path d="M4 9.5h3.5L12 5.5v13l-4.5-4H4z" />, <path d="m16 9.5 5 5M21 9.5l-5 5" />);
/** The reading ruler: a clear band between dimmed lines. */
export const RulerIcon = icon(<path d="M4 5h16M4 19h16" opacity="0.45" />, <rect x="3" y="9" width="18" height="6" rx="1.5" />);
/** Word mode: a word in its box, and the sound of it. */
export const WordsIcon = icon(
  <rect x="2.5" y="8" width="12" height="8" rx="2" />,
  <path d="M5.5 12h6" />,
  <path d="M17.5 9.5a3.5 3.5 0 0 1 0 5M20 7a7 7 0 0 1 0 10" />,
);
