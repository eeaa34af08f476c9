const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text as HTML, XML or Pango markup (text and quoted attributes): a donor's name like `<b>` or a
 * campaign name with an apostrophe is shown, never interpreted. The one escape helper of the
 * server (pages, share tags, share image, e-mails).
 */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
