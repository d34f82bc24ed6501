/**
 * The Filter / Sort menu (SPEC §2 Catalog): the Language and Level filters (several choices each; the address's
 * `languages` and `levels`), for teachers a 'Show' section with the teacher-only filter (all, assigned,
 * unassigned), then a single-selection list of sort orders. The menu is SortMenuLazy.tsx, a lazy chunk
 * (src/ui/components/DeferredMenu.tsx); this is its button.
 */
import { deferredMenuComponent } from '../../components/deferredMenuComponent';
import { SlidersIcon } from '../../components/Icons';
import { buttonStyles } from '../../components/styles';

export const SortMenu = deferredMenuComponent(
  () => import('./SortMenuLazy'),
  () => ({
    className: `${buttonStyles.secondary} h-12 shrink-0 rounded-xl`,
    children: (
      <>
        <SlidersIcon size={18} />
        Filter / Sort
      </>
    ),
  }),
);
