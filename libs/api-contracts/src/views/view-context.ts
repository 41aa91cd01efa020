/** What a view needs to know about the request it answers. */
export interface ViewContext {
  /** Negotiated microversion as [major, minor]. */
  readonly version: readonly [number, number];
  readonly isAdmin: boolean;
  /** `scheme://host:port`. */
  readonly baseUrl: string;
  /** Present when the request URL carried the project id: links then carry it too. */
  readonly urlProjectId: string | undefined;
}

/** The microversions views compare with, parsed once: every view asks for its few dozens. */
const parsed = new Map<string, readonly [number, number]>();

const versionOf = (text: string): readonly [number, number] => {
  let version = parsed.get(text);
  if (version === undefined) {
    version = text.split('.').map(Number) as [number, number];
    parsed.set(text, version);
  }
  return version;
};

/** Whether the request's microversion is `text` or later (`text` is one of the code's own). */
export const since = (ctx: ViewContext, text: string): boolean => {
  const [major, minor] = versionOf(text);
  return ctx.version[0] > major || (ctx.version[0] === major && ctx.version[1] >= minor);
};

export const resourceLinks = (ctx: ViewContext, collection: string, id: string) => {
  const project = ctx.urlProjectId ? `/${ctx.urlProjectId}` : '';
  return [
    { rel: 'self', href: `${ctx.baseUrl}/v2${project}/${collection}/${id}` },
    { rel: 'bookmark', href: `${ctx.baseUrl}${project}/${collection}/${id}` },
  ];
};
