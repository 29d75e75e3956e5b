/**
 * Mini-program variant: its pages come in the package, there is no chunk to load ahead (the H5
 * build uses viewer-prefetch.h5.ts instead).
 */
export function usePrefetchViewer(_when = true): void {}
