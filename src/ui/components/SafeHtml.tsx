import { sanitizeHtml } from '../platform/html';

/** Render content HTML after sanitizing it with `xss`. */
export function SafeHtml({ html, className, ...rest }: { html: string; className?: string; dir?: string; lang?: string }) {
  return <div className={className} {...rest} dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />;
}
