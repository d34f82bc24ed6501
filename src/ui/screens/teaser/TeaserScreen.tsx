/** Placeholder until the teaser screen lands (issue 4). */
export function TeaserScreen(_props: { slug: string; version: string; edition: string; position: string }) {
  return <main id="main">Teaser</main>;
}
export default TeaserScreen;
