import { useCallback, useEffect, useRef, useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import type { Role, UserProfile } from '@contract/sso/auth'
import type { RightNode } from '@contract/sso/directory'
import { showUnreadOnMineTab } from '@/services/tab-badge'
import { countUnreadMessages } from '@/services/messages'
import { getRoleRights, refreshProfile } from '@/services/profile'
import type { ReceivedGrant } from '@/services/shares'
import { useAppStore } from '@/stores/app-store'
import { type ArticleCounts, loadArticleCounts } from '../article-counts'
import { loadExpertConsultCounts } from '../expert-consult-counts'
import { type ExpertState, loadExpertState } from '../expert-state'
import { loadReceivedGrants } from '../received-grants'

export interface MineModel {
  loggedIn: boolean
  /** nickname, else masked phone (the store's display name). */
  userName: string
  profile: UserProfile | null
  role: Role
  /** Pages the role-right tree allows; null until it has loaded. */
  allowedPaths: ReadonlySet<string> | null
  /** 我的消息's unread count, refreshed each time the tab shows; 0 signed out or unknown. */
  unreadMessages: number
  /** 共享给我的: active grants to this account (issue 9); empty signed out or unknown. */
  receivedGrants: ReceivedGrant[]
  /** 我的文章: articles read, liked and favourited; null signed out or not loaded yet. */
  articleCounts: ArticleCounts | null
  /** My expert application's state (null: never applied); undefined signed out or not loaded. */
  expertApplication: ExpertState | null | undefined
}

const REFRESH_GAP_MS = 1000

function pathsOf(nodes: readonly RightNode[], into = new Set<string>()): Set<string> {
  for (const node of nodes) {
    if (node.path) into.add(node.path.replace(/^\//, ''))
    if (node.children) pathsOf(node.children, into)
  }
  return into
}

/**
 * 我的: the stored profile at once, refreshed from the server each time the tab shows (a name
 * changed elsewhere, an expert certified since), with the role-right tree deciding the entries.
 */
export function useMine(): MineModel {
  const loggedIn = useAppStore((state) => state.hasLogin)
  const userName = useAppStore((state) => state.userName)
  const profile = useAppStore((state) => state.profile)
  const [rights, setRights] = useState<{ role: Role; paths: Set<string> } | null>(null)
  const [unreadMessages, setUnreadMessages] = useState(0)
  const [receivedGrants, setReceivedGrants] = useState<ReceivedGrant[]>([])
  const [articleCounts, setArticleCounts] = useState<ArticleCounts | null>(null)
  const [expertApplication, setExpertApplication] = useState<ExpertState | null | undefined>()

  const lastRefresh = useRef(0)

  const refresh = useCallback(() => {
    if (!useAppStore.getState().hasLogin) {
      setRights(null)
      setUnreadMessages(0)
      setReceivedGrants([])
      setArticleCounts(null)
      setExpertApplication(undefined)
      return
    }
    // The first show and the mount (or a sign-in) arrive together: one refresh is enough.
    const now = Date.now()
    if (now - lastRefresh.current < REFRESH_GAP_MS) return
    lastRefresh.current = now
    // Background refresh: no 请求中... over a tab the person is already looking at, and no
    // network toast either (the stored profile is still shown).
    refreshProfile({ loading: false, quietOffline: true }).catch(() => undefined)
    getRoleRights({ loading: false, quietOffline: true }).then(
      (answer) => setRights({ role: answer.role, paths: pathsOf(answer.tree) }),
      () => undefined,
    )
    // The badge: 我的消息's unread, plus for an expert 患者咨询's waiting and unread (issue 21).
    const isExpert = useAppStore.getState().profile?.role === 'expert'
    const expertCounts = isExpert
      ? loadExpertConsultCounts().then(
          (counts) => counts.waiting + counts.unread,
          () => 0,
        )
      : Promise.resolve(0)
    countUnreadMessages().then(
      (count) => {
        setUnreadMessages(count)
        void expertCounts.then((extra) => showUnreadOnMineTab(count + extra))
      },
      () => undefined,
    )
    loadReceivedGrants().then(setReceivedGrants, () => undefined)
    loadArticleCounts().then(setArticleCounts, () => undefined)
    loadExpertState().then(setExpertApplication, () => undefined)
  }, [])

  useDidShow(refresh)
  const wasLoggedIn = useRef(loggedIn)
  useEffect(() => {
    // A sign-in or sign-out while the tab is open changes whose data to show.
    if (wasLoggedIn.current !== loggedIn) lastRefresh.current = 0
    wasLoggedIn.current = loggedIn
    refresh()
  }, [loggedIn, refresh])

  const signedInRights = loggedIn ? rights : null
  return {
    loggedIn,
    userName,
    profile: loggedIn ? profile : null,
    role: signedInRights?.role ?? (loggedIn ? profile?.role : undefined) ?? 'patient',
    allowedPaths: signedInRights?.paths ?? null,
    unreadMessages: loggedIn ? unreadMessages : 0,
    receivedGrants: loggedIn ? receivedGrants : [],
    articleCounts: loggedIn ? articleCounts : null,
    expertApplication: loggedIn ? expertApplication : undefined,
  }
}
