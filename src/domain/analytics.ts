/** The tracked events of SPEC §4, spelled as the spec spells them. */
export const TRACKED_EVENTS = [
  'Changed Audio Settings',
  'Closed Audio Player',
  'Copied Magic Link',
  'Opened Audio Player',
  'Paused Audio',
  'Resumed Audio',
  'Signed In',
  'Signed Out',
  'Viewed Catalog',
  'Viewed Novel',
  'Viewed Passage',
  'Visited URL',
] as const;
export type TrackedEvent = (typeof TRACKED_EVENTS)[number];
