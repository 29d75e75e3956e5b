/**
 * The softwareName each build of the app sends. The server keeps policies per softwareName and falls
 * back to its default policy for a name it has no own text for. Kept free of zod so the app can read
 * it at start-up without loading any schema.
 */
export const SOFTWARE_NAMES = {
  weapp: 'yingxiang-weapp',
  h5: 'yingxiang-h5',
  app: 'yingxiang-app',
} as const
