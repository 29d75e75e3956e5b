import { countUnreadMessages } from '@/services/messages'
import { showUnreadOnMineTab } from '@/services/tab-badge'

/**
 * The Mine tab's unread badge, refreshed from the home page. The H5 build swaps in
 * unread-badge.h5.ts, which loads the messages contract after the first screen (the home page's
 * initial JavaScript has a budget, and zod with the contract is most of it).
 */
export function refreshUnreadBadge(): void {
  countUnreadMessages().then(showUnreadOnMineTab, () => undefined)
}
