/** Business constants from SPEC §9, named once and shared by client and server. */

/** Class code length. @default 8 */
export const CLASS_CODE_LENGTH = 8;
/** Catalog items per page. @default 16 */
export const PAGE_SIZE = 16;
/** Largest page size the API accepts. Not in the spec; chosen to bound response size. @default 100 */
export const MAX_PAGE_SIZE = 100;
/** Catalog search debounce and typed-page delay, ms. @default 500 */
export const SEARCH_DEBOUNCE_MS = 500;
export const PAGE_INPUT_DEBOUNCE_MS = 500;
/** Skeleton cards shown while the catalog loads. @default 8 */
export const SKELETON_CARDS = 8;
/** Longest search text the API accepts. Not in the spec. @default 200 */
export const MAX_SEARCH_LENGTH = 200;
export const TOOLTIP_DELAY_MS = 750;
export const COPY_CONFIRMATION_MS = 2000;
export const TOAST_DURATION_MS = 2000;
export const MAX_TOASTS = 3;
export const SPINNER_DELAY_MS = 1500;
export const REFRESH_BUTTON_DELAY_MS = 10000;
export const AUDIO_TICK_MS = 25;
export const EDITION_INDICATOR_MS = 10000;
export const PLAYBACK_SPEEDS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;
export const DEFAULT_PLAYBACK_SPEED = 1;
export const PRIMARY_COLOR = '#103a3a';
export const MAX_PAGE_WIDTH_PX = 1440;
export const SUPPORT_EMAIL = 'support@lectern.app';
export const SHOP_URL = 'https://shop.lectern.app';
/**
 * The external uploads site for 'My Uploads' (SPEC §2), or null to use this app's own /uploads page. The web app
 * takes VITE_UPLOADS_URL over this at build time (src/ui/screens/uploads/uploadsLink.ts). @default null
 */
export const UPLOADS_URL: string | null = null;
export const PRODUCT_NAME = 'Lectern';
/** Fixed text on the publication page (SPEC §1). */
export const LANGUAGE_COUNT_TEXT = '102 Languages';
/** Fixed tags on the publication page (SPEC §2). */
export const FIXED_TAGS = ['fantasy', 'adventure'] as const;
export const DEFAULT_ERROR_MESSAGE = 'Something went wrong, please try again!';
export const PASSAGE_NOT_FOUND = 'Passage not found';
/**
 * Said wherever there is no narration to play (SPEC §2 Reader screen and Listen page): the listen control's tooltip,
 * the player's bar, a tapped word's toast, the listen and teaser pages' audio lines, the engine's failure.
 */
export const AUDIO_NOT_AVAILABLE = 'Audio not available';
export const NOVEL_NOT_FOUND_MESSAGE =
  'Unable to retrieve this Novel. If you believe this is an error, please contact support';
export const PAGE_NOT_FOUND_MESSAGE = "The page you are looking for doesn't exist";
export const INVALID_URL_PARAMS = 'Invalid URL params';
