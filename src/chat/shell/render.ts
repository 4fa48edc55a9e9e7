/**
 * @module chat/shell/render
 * MessageContent → plain text for the terminal (the Markdown literals of names turned back, chat/render/markdown.ts).
 */
import { t } from '../../i18n/index.ts';
import type { MessageContent } from '../port.ts';
import { fromMarkdownLiteral as plain, renderTable } from '../render/index.ts';

/**
 * Renders content as plain text lines (no trailing newline).
 * @param imagePath where the adapter wrote the content's image, printed instead of the image's name.
 */
export function renderPlain(content: MessageContent, imagePath?: string): string {
  const out: string[] = [];
  if (content.title) out.push(`== ${plain(content.title)} ==`);
  if (content.text && content.text !== content.title) out.push(plain(content.text));
  for (const s of content.sections ?? []) {
    out.push('');
    if (s.heading) out.push(`--- ${plain(s.heading)} ---`);
    out.push(plain(s.body));
  }
  if (content.table) {
    out.push('');
    out.push(renderTable(content.table));
  }
  if (content.image) {
    out.push(
      imagePath
        ? t(content.locale ?? 'en', 'shell.chart', { path: imagePath })
        : t(content.locale ?? 'en', 'shell.image', {
            file: content.image.filename,
            alt: content.image.alt,
          }),
    );
  }
  if (content.footer) {
    out.push('');
    out.push(plain(content.footer));
  }
  return out.join('\n');
}
