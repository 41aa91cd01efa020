import type { ViewContext } from '#hawser/api-contracts';
import { keptViews } from './kept-views.js';

const context = (minor: number, isAdmin = false): ViewContext => ({
  version: [2, minor],
  isAdmin,
  baseUrl: 'http://manila:8786',
  urlProjectId: undefined,
});

interface Doc {
  readonly id: string;
  readonly host: string;
}

describe('views kept per document and request traits', () => {
  const made: string[] = [];
  const view = keptViews((doc: Doc, ctx: ViewContext) => {
    made.push(doc.id);
    return { id: doc.id, ...(ctx.isAdmin && { host: doc.host }), minor: ctx.version[1] };
  });

  beforeEach(() => {
    made.length = 0;
  });

  it('given a view made of a document, when the same traits ask again, then the same view is returned without making it again', () => {
    const doc: Doc = { id: 's1', host: 'node@b#p' };
    const first = view(doc, context(72));

    const again = view(doc, context(72));

    expect(again).toBe(first);
    expect(made).toEqual(['s1']);
  });

  it('given a view made of a document, when another microversion or role asks, then that view is made for it', () => {
    const doc: Doc = { id: 's1', host: 'node@b#p' };
    view(doc, context(72));

    expect(view(doc, context(2))).toEqual({ id: 's1', minor: 2 });
    expect(view(doc, context(2, true))).toEqual({ id: 's1', host: 'node@b#p', minor: 2 });
    expect(made).toEqual(['s1', 's1', 's1']);
  });

  it('given two documents of the same share, when each is viewed, then each view is its own document', () => {
    const before: Doc = { id: 's1', host: 'node@b#p' };
    const after: Doc = { id: 's1', host: 'node@c#p' };

    expect(view(before, context(72, true))).toMatchObject({ host: 'node@b#p' });
    expect(view(after, context(72, true))).toMatchObject({ host: 'node@c#p' });
  });
});
