import { Image, Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { COMING_SOON } from '@/components/under-construction'
import { PageState } from '@/components/page-state'
import { RefreshList } from '@/components/refresh-list'
import { isComingSoon, ROUTES, type RouteName } from '@/routes'
import type { AppFeature } from '@/services/apps'
import { mediaUrl } from '@/services/media'
import { timeFormat } from '@/utils/time'
import type { AppsModel } from '../hooks/use-apps'
import './apps.scss'

function soon(feature: AppFeature): boolean {
  if (!('route' in feature.link)) return false
  const name = feature.link.route
  return ROUTES.some((route) => route.name === name) && isComingSoon(name as RouteName)
}

/** 应用中心: an icon grid in the server's order, then 我的积分 and how they were earned. */
export function AppsView({
  model,
  onOpen,
  onLogin,
}: {
  model: AppsModel
  onOpen: (feature: AppFeature) => void
  onLogin: () => void
}) {
  const { features } = model
  return (
    <View className="apps">
      <View className="apps__card">
        {features.status === 'loading' ? (
          <PageState status="loading" />
        ) : features.status === 'error' ? (
          <PageState status="error" message={features.message} onRetry={features.reload} />
        ) : (
          <View className="apps__grid">
            {features.data.map((feature) => (
              <View key={feature.key} className="apps__entry" onClick={() => onOpen(feature)}>
                <Image className="apps__icon" src={mediaUrl(feature.iconPath)} mode="aspectFit" />
                <Text className="apps__name">{feature.name}</Text>
                {soon(feature) && <Text className="apps__soon">{COMING_SOON}</Text>}
              </View>
            ))}
          </View>
        )}
      </View>
      <View className="apps__points">
        <Text className="apps__points-title">我的积分</Text>
        {model.signedIn ? (
          <Text className="apps__balance">{model.balance ?? '—'}</Text>
        ) : (
          <Button size="small" type="primary" onClick={onLogin}>
            登录查看积分
          </Button>
        )}
      </View>
      {model.signedIn && (
        <>
          <Text className="apps__ledger-title">积分明细（阅读文章、反馈被采纳可获得积分）</Text>
          <RefreshList
            list={model.ledger}
            keyOf={(entry) => entry.id}
            renderItem={(entry) => (
              <View className="apps__entry-row">
                <View className="apps__row-main">
                  <Text className="apps__row-reason">{entry.reasonLabel}</Text>
                  <Text className="apps__row-time">{timeFormat(entry.at, 'yyyy-mm-dd hh:MM')}</Text>
                </View>
                <Text
                  className={`apps__row-delta${entry.delta < 0 ? ' apps__row-delta--minus' : ''}`}
                >
                  {entry.delta > 0 ? `+${entry.delta}` : entry.delta}
                </Text>
              </View>
            )}
            emptyText="还没有积分，阅读文章即可获得"
          />
        </>
      )}
    </View>
  )
}
