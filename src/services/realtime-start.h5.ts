/** H5 variant of realtime-start.ts: the socket client loads after the first screen. */
export function startRealtimeSoon(): void {
  void import('./realtime').then((realtime) => realtime.startRealtime())
}
