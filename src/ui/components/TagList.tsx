/** A title's tags as a list of pills; the caller styles the list and each tag. */
import type { HTMLAttributes } from 'react';

export function TagList({
  tags,
  tagClassName,
  ...list
}: { tags: readonly string[]; tagClassName: string } & HTMLAttributes<HTMLUListElement>) {
  return (
    <ul {...list}>
      {tags.map((tag) => (
        <li key={tag} className={tagClassName}>
          {tag}
        </li>
      ))}
    </ul>
  );
}
