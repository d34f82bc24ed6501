/** Placeholder until the listen screen lands (issue 4). */
export function ListenScreen(_props: { slug: string; version: string; editionSlug: string; position: string }) {
  return <main id="main">Listen</main>;
}
export default ListenScreen;
