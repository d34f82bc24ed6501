/** Placeholder until the select-passage screen lands (issue 4). */
export function SelectPassageScreen(_props: { slug: string; version: string; editionSlug: string }) {
  return <main id="main">Select a passage</main>;
}
export default SelectPassageScreen;
