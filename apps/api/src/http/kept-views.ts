import type { ViewContext } from '#hawser/api-contracts';

/** What a view depends on besides its document: the microversion, the role and the links' base. */
const traitsOf = (ctx: ViewContext): string =>
  `${ctx.version[0]}.${ctx.version[1]} ${ctx.isAdmin} ${ctx.baseUrl} ${ctx.urlProjectId ?? ''}`;

/**
 * `view`, made once per document and request traits: the last view made of each document is
 * kept with the traits it was made for, as long as the document itself is (a weak reference).
 * Meant for documents that do not change once made (the shares' frozen API documents, kept per
 * revision), read again and again by listings and shows with the same traits.
 */
export const keptViews = <Document extends object, View>(
  view: (doc: Document, ctx: ViewContext) => View,
): ((doc: Document, ctx: ViewContext) => View) => {
  const kept = new WeakMap<Document, { readonly traits: string; readonly view: View }>();
  return (doc, ctx) => {
    const traits = traitsOf(ctx);
    const known = kept.get(doc);
    if (known?.traits === traits) return known.view;
    const made = view(doc, ctx);
    kept.set(doc, { traits, view: made });
    return made;
  };
};
