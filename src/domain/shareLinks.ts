/**
 * Sharing a link to a class stream: each service's documented public share address, with the link
 * percent-encoded (UTF-8) as one query value. Plain links that open in a new tab: no API keys, no SDK scripts.
 * Who may share is `sharingClassCode` (roles.ts).
 */

/** Google Classroom's share address: `?url=` is the link to post (its "Share to Classroom" documentation). */
export const CLASSROOM_SHARE_ADDRESS = 'https://classroom.google.com/share';
/** Microsoft Teams' share address: `?href=` is the link, `&msgText=` an optional message (its "Share to Teams"). */
export const TEAMS_SHARE_ADDRESS = 'https://teams.microsoft.com/share';

/** The address that posts `link` to Google Classroom. */
export function classroomShareUrl(link: string): string {
  return `${CLASSROOM_SHARE_ADDRESS}?url=${encodeURIComponent(link)}`;
}

/** The address that posts `link` to Microsoft Teams, with `text` as the message when there is one. */
export function teamsShareUrl(link: string, text?: string): string {
  const message = text?.trim() ? `&msgText=${encodeURIComponent(text.trim())}` : '';
  return `${TEAMS_SHARE_ADDRESS}?href=${encodeURIComponent(link)}${message}`;
}

/** A share link as the views render it: its service (which picks the icon), accessible name and address. */
export interface ShareTarget {
  service: 'classroom' | 'teams';
  label: string;
  href: string;
}

/** The share links for `link`, in the order they are shown; `text` is Teams' message (Classroom takes none). */
export function shareTargets(link: string, text?: string): ShareTarget[] {
  return [
    { service: 'classroom', label: 'Share to Google Classroom', href: classroomShareUrl(link) },
    { service: 'teams', label: 'Share to Microsoft Teams', href: teamsShareUrl(link, text) },
  ];
}
