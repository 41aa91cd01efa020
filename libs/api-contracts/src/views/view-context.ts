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

export const since = (ctx: ViewContext, text: string): boolean => {
  const [major, minor] = text.split('.').map(Number) as [number, number];
  return ctx.version[0] > major || (ctx.version[0] === major && ctx.version[1] >= minor);
};

export const resourceLinks = (ctx: ViewContext, collection: string, id: string) => {
  const project = ctx.urlProjectId ? `/${ctx.urlProjectId}` : '';
  return [
    { rel: 'self', href: `${ctx.baseUrl}/v2${project}/${collection}/${id}` },
    { rel: 'bookmark', href: `${ctx.baseUrl}${project}/${collection}/${id}` },
  ];
};
