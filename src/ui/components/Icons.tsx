/** Small inline icons (24px grid, stroke = currentColor). Decorative: always aria-hidden. */
import { createElement, type ReactElement, type SVGProps } from 'react';

export type IconProps = SVGProps<SVGSVGElement> & { size?: number };

/** The shared frame of every icon: a 24px stroked grid, decorative. */
export function Icon({ size = 20, children, ...props }: IconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

/** An icon component that draws `shapes` (SVG elements on the 24px grid) in the shared frame. */
export function icon(...shapes: ReactElement[]) {
  return (props: IconProps) => createElement(Icon, props, ...shapes);
}

export const SearchIcon = icon(<circle cx="11" cy="11" r="6.5" />, <path d="m20 20-4.2-4.2" />);
export const CloseIcon = icon(<path d="M6 6l12 12M18 6 6 18" />);
export const ChevronLeftIcon = icon(<path d="m15 18-6-6 6-6" />);
export const ChevronRightIcon = icon(<path d="m9 18 6-6-6-6" />);
export const ChevronDownIcon = icon(<path d="m6 9 6 6 6-6" />);
export const ArrowLeftIcon = icon(<path d="M19 12H5M11 18l-6-6 6-6" />);
export const UserIcon = icon(<circle cx="12" cy="8.5" r="3.5" />, <path d="M5 20c.8-3.6 3.6-5.5 7-5.5s6.2 1.9 7 5.5" />);
export const ExternalIcon = icon(<path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />);
export const SlidersIcon = icon(<path d="M4 7h10M18 7h2M4 17h4M12 17h8" />, <circle cx="16" cy="7" r="2" />, <circle cx="10" cy="17" r="2" />);
export const CheckIcon = icon(<path d="m5 12.5 4.5 4.5L19 7.5" />);
export const BookOpenIcon = icon(<path d="M12 6.5C10 5 7.5 4.5 4 4.8v13c3.5-.3 6 .2 8 1.7 2-1.5 4.5-2 8-1.7v-13c-3.5-.3-6 .2-8 1.7zM12 6.5v13" />);
export const MailIcon = icon(<rect x="3.5" y="5.5" width="17" height="13" rx="2" />, <path d="m4 7 8 6 8-6" />);
export const SignInIcon = icon(<path d="M14 4h4a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-4M10 16l4-4-4-4M14 12H4" />);
export const UserPlusIcon = icon(
  <circle cx="10" cy="8.5" r="3.5" />,
  <path d="M3.5 20c.7-3.5 3.3-5.5 6.5-5.5 1.4 0 2.7.4 3.8 1.1M18 14v6M15 17h6" />,
);
export const LetterIcon = icon(<path d="M5 19 10 5h1l5 14M7 14h7" />, <path d="M18.5 9.5v6M16 12.5h5" />);
export const GlobeIcon = icon(
  <circle cx="12" cy="12" r="8.5" />,
  <path d="M3.5 12h17M12 3.5c2.3 2.4 3.5 5.2 3.5 8.5s-1.2 6.1-3.5 8.5c-2.3-2.4-3.5-5.2-3.5-8.5s1.2-6.1 3.5-8.5z" />,
);
export const TagIcon = icon(
  <path d="M3.5 12.2V4.5a1 1 0 0 1 1-1h7.7l8.3 8.3a1 1 0 0 1 0 1.4l-7.3 7.3a1 1 0 0 1-1.4 0z" />,
  <circle cx="8" cy="8" r="1.3" />,
);
export const EyeIcon = icon(<path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />, <circle cx="12" cy="12" r="3" />);
export const EyeOffIcon = icon(
  <path d="M10.6 5.1A9.8 9.8 0 0 1 12 5c6.4 0 10 7 10 7a17 17 0 0 1-2.6 3.5M6.6 6.6C3.8 8.4 2 12 2 12s3.6 7 10 7c1.9 0 3.5-.6 4.9-1.5" />,
  <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2M3 3l18 18" />,
);
export const CopyIcon = icon(<rect x="9" y="9" width="11" height="11" rx="2" />, <path d="M5 15V6a2 2 0 0 1 2-2h8" />);
export const KeyIcon = icon(<circle cx="7.5" cy="15.5" r="3.5" />, <path d="m10 13 9-9M16 7l3 3M14 9l2 2" />);
export const ShareIcon = icon(
  <circle cx="18" cy="5" r="2.5" />,
  <circle cx="6" cy="12" r="2.5" />,
  <circle cx="18" cy="19" r="2.5" />,
  <path d="m8.2 10.8 7.6-4.4M8.2 13.2l7.6 4.4" />,
);
