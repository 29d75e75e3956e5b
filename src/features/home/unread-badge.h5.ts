/** H5 variant of unread-badge.ts: the messages contract loads after the first screen. */
export function refreshUnreadBadge(): void {
  void Promise.all([import('@/services/messages'), import('@/services/tab-badge')]).then(
    ([messages, badge]) =>
      messages.countUnreadMessages().then(badge.showUnreadOnMineTab, () => undefined),
    () => undefined,
  )
}
