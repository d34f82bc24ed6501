/** The offline pages' icons, kept out of the shared icon module (its icons are built when the entry chunk loads). */
import { icon } from '../components/Icons';

export const DownloadIcon = icon(<path d="M12 4v11M7 10.5l5 5 5-5M5 19.5h14" />);
export const TrashIcon = icon(<path d="M4.5 7h15M10 11v6M14 11v6M6.5 7l1 12.5h9l1-12.5M9.5 7V4.5h5V7" />);
