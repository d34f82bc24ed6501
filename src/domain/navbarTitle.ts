/**
 * The navbar's title (SPEC §2 Shared layout: "a title (tooltip: title by author)"). On a page about one title
 * (publication, teaser, listen) the navbar names that title next to the logo, and its tooltip reads
 * '{title} by {author}', as the reader's header does.
 */

/** The title a page puts in the navbar, or null for the product's name alone. */
export type NavbarTitle = { title: string; author: string } | null;

/** The tooltip text: '{title} by {author}', or the title alone when the author is blank. Null without a title. */
export function titleByAuthor(value: NavbarTitle): string | null {
  const title = value?.title.trim();
  if (!title) return null;
  const author = value!.author.trim();
  return author ? `${title} by ${author}` : title;
}
