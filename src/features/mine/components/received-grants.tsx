import { Text, View } from '@tarojs/components'
import { Cell } from '@nutui/nutui-react-taro'
import type { ReceivedGrant } from '@/services/shares'
import { navigate } from '@/services/navigate'
import './received-grants.scss'

const two = (n: number) => String(n).padStart(2, '0')

/** 2026-11-24 22:15 in the phone's clock; by hand, so Mine (main package) does not carry dayjs. */
export function untilText(iso: string): string {
  const at = new Date(iso)
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${two(at.getHours())}:${two(at.getMinutes())}`
}

/**
 * 共享给我的: what others authorised this account to see, until it ends (a doctor's or expert's
 * Mine always shows the section; anyone else only once something was shared with them).
 */
export function ReceivedGrants({
  grants,
  alwaysShow,
}: {
  grants: readonly ReceivedGrant[]
  alwaysShow: boolean
}) {
  if (grants.length === 0 && !alwaysShow) return null
  return (
    <View className="mine-received">
      <Text className="mine-received__title">共享给我的</Text>
      {grants.length === 0 ? (
        <Text className="mine-received__empty">暂无他人授权给您查看的影像或报告</Text>
      ) : (
        <Cell.Group className="mine-received__group">
          {grants.map((grant) => (
            <Cell
              key={grant.id}
              title={`${grant.sharerMasked} 分享的 ${grant.records.length} 项影像或报告`}
              description={`有效期至 ${untilText(grant.expiresAt)}`}
              clickable
              onClick={() => void navigate('share', { grantId: grant.id })}
            />
          ))}
        </Cell.Group>
      )}
    </View>
  )
}
