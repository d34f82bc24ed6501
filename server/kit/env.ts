/** The Hono environment of the app's routes: the request's `X-Client-Id` header (null when absent), set by the app's first middleware. */
export type Env = { Variables: { clientId: string | null } };
