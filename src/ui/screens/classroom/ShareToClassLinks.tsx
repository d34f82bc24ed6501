/**
 * 'Share to Google Classroom' and 'Share to Microsoft Teams': plain links to each service's public
 * share address, in a new tab, for a link the caller gives (the magic link, or a title's reader address). The
 * addresses are src/domain/shareLinks.ts; who sees the links is `sharingClassCode` (src/domain/roles.ts). It rides,
 * with its two icons, in the ClassroomOverlays chunk, which re-exports it for the title page.
 */
import { shareTargets, type ShareTarget } from '../../../domain/shareLinks';
import { icon } from '../../components/Icons';
import { buttonStyles } from '../../components/styles';

/** A class at a board: a generic classroom pictogram, drawn for Lectern (no brand artwork). */
const ClassroomIcon = icon(
  <rect x="3.5" y="4" width="17" height="12" rx="1.5" />,
  <circle cx="12" cy="9" r="2" />,
  <path d="M8.5 16c.5-2 1.8-3 3.5-3s3 1 3.5 3M8 20h8" />,
);
/** Two people: a generic team pictogram, drawn for Lectern (no brand artwork). */
const TeamIcon = icon(
  <circle cx="9" cy="8.5" r="3" />,
  <path d="M3.5 19.5c.6-3.3 2.8-5 5.5-5s4.9 1.7 5.5 5" />,
  <circle cx="17" cy="9.5" r="2.2" />,
  <path d="M16 14.6c2.3-.4 4 1 4.5 3.9" />,
);

const ICONS: Record<ShareTarget['service'], typeof ClassroomIcon> = {
  classroom: ClassroomIcon,
  teams: TeamIcon,
};

/** `link` is what gets posted; `text` is Teams' message; `className` places the list (a row that wraps, or a column). */
export function ShareToClassLinks({ link, text, className = '' }: { link: string; text?: string; className?: string }) {
  return (
    <ul aria-label="Share to a class stream" className={`flex flex-wrap gap-x-2 gap-y-1 ${className}`}>
      {shareTargets(link, text).map((target) => {
        const Icon = ICONS[target.service];
        return (
          <li key={target.service} className="min-w-0">
            <a href={target.href} target="_blank" rel="noopener noreferrer" className={`${buttonStyles.ghost} w-full text-sm`}>
              <Icon size={18} />
              {target.label}
            </a>
          </li>
        );
      })}
    </ul>
  );
}
