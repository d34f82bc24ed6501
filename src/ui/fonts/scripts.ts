/**
 * Fonts for every script: the Noto faces and the per-language stacks (scripts.css explains both). Imported for its
 * side effect by the screens that show passage text, so the CSS lands in their lazy chunks, not the catalog's entry.
 */
import '@fontsource/noto-sans-sc/400.css';
import '@fontsource/noto-naskh-arabic/400.css';
import '@fontsource/noto-nastaliq-urdu/400.css';
import '@fontsource/noto-sans-bengali/400.css';
import './scripts.css';
