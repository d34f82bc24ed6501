/**
 * /terms and /privacy (SPEC §2 footer): the Terms of Service and the Privacy Policy, written in
 * `content/legal/*.md` and bundled into this lazy chunk as text (`?raw`), so the catalog's entry carries none of
 * it. The Markdown subset is parsed to plain data (src/domain/legalMarkdown.ts) and rendered as React elements:
 * no HTML is injected. Internal links go through the router; others open as ordinary links.
 */
import { Link } from 'wouter';
import privacySource from '../../../../content/legal/privacy.md?raw';
import termsSource from '../../../../content/legal/terms.md?raw';
import { legalTitle, parseLegalMarkdown, type Block, type Inline } from '../../../domain/legalMarkdown';
import { cardStyles, linkStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';

export type LegalKind = 'terms' | 'privacy';

const SOURCES: Record<LegalKind, string> = { terms: termsSource, privacy: privacySource };
const FALLBACK_TITLES: Record<LegalKind, string> = { terms: 'Terms of Service', privacy: 'Privacy Policy' };

function InlineContent({ content }: { content: readonly Inline[] }) {
  return content.map((node, i) => {
    switch (node.kind) {
      case 'strong':
        return <strong key={i} className="font-semibold text-ink">{node.text}</strong>;
      case 'em':
        return <em key={i}>{node.text}</em>;
      case 'code':
        return <code key={i} className="rounded bg-primary-50 px-1 py-0.5 font-mono text-[0.9em] text-ink">{node.text}</code>;
      case 'link':
        return node.href.startsWith('/') ? (
          <Link key={i} href={node.href} className={linkStyles}>{node.text}</Link>
        ) : (
          <a key={i} href={node.href} className={linkStyles}>{node.text}</a>
        );
      default:
        return node.text;
    }
  });
}

const headingStyles = {
  1: 'text-3xl font-semibold tracking-tight text-ink sm:text-4xl',
  2: 'mt-10 text-2xl font-semibold text-ink',
  3: 'mt-6 text-lg font-semibold text-ink',
} as const;

function LegalBlock({ block }: { block: Block }) {
  if (block.kind === 'heading') {
    const Heading = `h${block.level}` as const;
    return <Heading className={headingStyles[block.level]}><InlineContent content={block.content} /></Heading>;
  }
  if (block.kind === 'list') {
    return (
      <ul className="mt-3 list-disc space-y-1.5 ps-6">
        {block.items.map((item, i) => <li key={i}><InlineContent content={item} /></li>)}
      </ul>
    );
  }
  return <p className="mt-3"><InlineContent content={block.content} /></p>;
}

export function LegalScreen({ kind }: { kind: LegalKind }) {
  const blocks = parseLegalMarkdown(SOURCES[kind]);
  useDocumentTitle(legalTitle(blocks) ?? FALLBACK_TITLES[kind]);
  return (
    <article className={`${cardStyles} mx-auto max-w-3xl px-6 py-8 leading-relaxed text-ink-muted sm:px-10 sm:py-12`}>
      {blocks.map((block, i) => <LegalBlock key={i} block={block} />)}
    </article>
  );
}

export default LegalScreen;
