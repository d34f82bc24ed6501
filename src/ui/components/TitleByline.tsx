/**
 * A title as its page's main heading, with 'by {author}' under it: large on the publication page, compact on the
 * teaser and listen pages. It also names the title in the navbar while it is shown (SPEC §2: title by author).
 */
import { NavbarTitle } from '../layout/NavbarTitle';

const sizes = {
  large: { title: 'text-3xl sm:text-4xl', byline: 'mt-2 text-lg' },
  compact: { title: 'text-2xl sm:text-3xl', byline: 'mt-1' },
} as const;

export function TitleByline({ title, author, size = 'compact' }: { title: string; author: string; size?: keyof typeof sizes }) {
  return (
    <>
      <NavbarTitle title={title} author={author} />
      <h1 className={`${sizes[size].title} leading-tight font-semibold tracking-tight`}>{title}</h1>
      <p className={`${sizes[size].byline} text-ink-muted`}>
        by <span className="text-ink">{author}</span>
      </p>
    </>
  );
}
