import { Image, Text, View } from '@tarojs/components'
import { Cell } from '@nutui/nutui-react-taro'
import { ArrowRight } from '@nutui/icons-react-taro'
import type { Role, UserProfile } from '@contract/sso/auth'
import { COMING_SOON } from '@/components/under-construction'
import { isComingSoon } from '@/routes'
import { navigate, routeUrl } from '@/services/navigate'
import { fileUrl } from '@/services/profile'
import type { ReceivedGrant } from '@/services/shares'
import type { ArticleCounts } from '../article-counts'
import type { ExpertState } from '../expert-state'
import {
  EXPERT_ENTRY_KEY,
  MESSAGES_ENTRY_KEY,
  expertEntryText,
  visibleGroups,
  type MineEntry,
} from '../entries'
import { ReceivedGrants } from './received-grants'
import './mine-view.scss'

export interface MineViewProps {
  loggedIn: boolean
  userName: string
  /** The signed-in person; null while signed out or before the first profile arrives. */
  profile?: UserProfile | null
  /** Default patient. */
  role?: Role
  /** Pages the role-right tree allows; null (default) decides by role. */
  allowedPaths?: ReadonlySet<string> | null
  /** 我的消息's unread count (0: nothing shown). */
  unreadMessages?: number
  /** 共享给我的 (issue 9). */
  receivedGrants?: readonly ReceivedGrant[]
  /** 我的文章 counts; null: the row is not shown. */
  articleCounts?: ArticleCounts | null
  /** Where my expert application stands (null: never applied); undefined (default): unknown. */
  expertApplication?: ExpertState | null
}

/** 阅读 · 点赞 · 收藏 under the header, as Chinese health apps show them; each opens its list. */
function ArticleStats({ counts }: { counts: ArticleCounts }) {
  const items = [
    { key: 'read', label: '阅读文章', value: counts.read, open: () => navigate('infoList') },
    { key: 'liked', label: '点赞', value: counts.liked, open: () => navigate('infoList') },
    {
      key: 'favourited',
      label: '收藏',
      value: counts.favourited,
      open: () => navigate('collectList'),
    },
  ]
  return (
    <View className="mine__stats" aria-label="我的文章">
      {items.map((item) => (
        <View key={item.key} className="mine__stat" onClick={() => void item.open()}>
          <Text className="mine__stat-value">{item.value}</Text>
          <Text className="mine__stat-label">{item.label}</Text>
        </View>
      ))}
    </View>
  )
}

function open(entry: MineEntry, loggedIn: boolean, ownId: string | undefined) {
  if (entry.needsLogin && !loggedIn) void navigate('login', { redirect: routeUrl(entry.route) })
  else if (entry.withOwnId) void navigate(entry.route, { id: ownId ?? '' })
  else void navigate(entry.route)
}

/** What a row says on its right: its state, else 即将上线 for a page that does not work yet. */
function extraOf(entry: MineEntry, state: string): string {
  if (state !== '') return state
  return isComingSoon(entry.route) ? COMING_SOON : ''
}

function EntryExtra({ text }: { text: string }) {
  return (
    <View className="mine__extra">
      {text !== '' && <Text className="mine__extra-text">{text}</Text>}
      <ArrowRight size={12} color="#c8c9cc" />
    </View>
  )
}

export function MineView({
  loggedIn,
  userName,
  profile = null,
  role = 'patient',
  allowedPaths = null,
  unreadMessages = 0,
  receivedGrants = [],
  articleCounts = null,
  expertApplication,
}: MineViewProps) {
  const name = loggedIn ? userName || '用户' : '登录 / 注册'
  return (
    <View className="mine">
      <View
        className="mine__header"
        onClick={() => void (loggedIn ? navigate('userInfo') : navigate('login'))}
      >
        <View className="mine__avatar">
          {loggedIn && profile?.avatarUrl ? (
            <Image
              className="mine__avatar-image"
              src={fileUrl(profile.avatarUrl)}
              mode="aspectFill"
            />
          ) : (
            <Text>{loggedIn && userName ? userName.slice(0, 1) : '医'}</Text>
          )}
        </View>
        <View className="mine__who">
          <View className="mine__name-row">
            <Text className="mine__name">{name}</Text>
            {loggedIn && role === 'expert' && <Text className="mine__badge">专家</Text>}
          </View>
          <Text className="mine__hint">
            {loggedIn
              ? profile?.mobileMasked
                ? `手机号 ${profile.mobileMasked}`
                : '查看和管理您的影像、报告与咨询'
              : '登录后查看您在各医院的影像和报告'}
          </Text>
        </View>
        <View className="mine__header-arrow">
          <ArrowRight size={14} color="rgba(255,255,255,0.8)" />
        </View>
      </View>
      {loggedIn && articleCounts && <ArticleStats counts={articleCounts} />}
      {loggedIn && <ReceivedGrants grants={receivedGrants} alwaysShow={role === 'expert'} />}
      {visibleGroups(role, allowedPaths).map((group, index) => (
        <Cell.Group key={index} className="mine__group">
          {group.map((entry) => {
            const expert =
              entry.key === EXPERT_ENTRY_KEY
                ? expertEntryText(loggedIn ? expertApplication : undefined)
                : null
            const unread =
              entry.key === MESSAGES_ENTRY_KEY && loggedIn && unreadMessages > 0
                ? `${unreadMessages > 99 ? '99+' : unreadMessages} 条未读`
                : ''
            return (
              <Cell
                key={entry.key}
                title={expert ? expert.title : entry.text}
                extra={<EntryExtra text={extraOf(entry, expert ? expert.state : unread)} />}
                clickable
                onClick={() => open(entry, loggedIn, profile?.id)}
              />
            )
          })}
        </Cell.Group>
      ))}
    </View>
  )
}
