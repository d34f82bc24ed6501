/**
 * The reading fonts a reader may choose (src/domain/readingType.ts READING_FONTS), self-hosted from @fontsource 5.x
 * (OFL) so the CSP's `font-src 'self'` holds. Imported with the reader's chunk, not the catalog's entry. Every
 * @font-face carries a unicode-range and none is used until a reader chooses its family, so a browser fetches a
 * file only for the chosen font and the scripts a passage draws (latin, latin-ext).
 */
import '@fontsource/atkinson-hyperlegible/400.css';
import '@fontsource/atkinson-hyperlegible/400-italic.css';
import '@fontsource/atkinson-hyperlegible/700.css';
import '@fontsource/lexend/400.css';
import '@fontsource/lexend/700.css';
import '@fontsource/opendyslexic/400.css';
import '@fontsource/opendyslexic/400-italic.css';
import '@fontsource/opendyslexic/700.css';
