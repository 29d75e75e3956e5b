import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { Grant } from '@/services/grants'
import { audienceLabel, expiryLabel, recordLabel, viewsLabel } from '../format'

export interface GrantCardProps {
  grant: Grant
  /** Say whose records (a family member's grants); the person's own list need not. */
  showPerson?: boolean
  /** 撤销 is being sent for this grant. */
  cancelling: boolean
  onCancel: (grant: Grant) => void
  onOpenViews: (grant: Grant) => void
}

/** One grant: status, what it covers, to whom, views, expiry; tap for its view log. */
export function GrantCard({
  grant,
  showPerson = false,
  cancelling,
  onCancel,
  onOpenViews,
}: GrantCardProps) {
  const active = grant.status === 'active'
  return (
    <View
      className={`grant-card${active ? '' : ' grant-card--ended'}`}
      onClick={() => onOpenViews(grant)}
    >
      <View className="grant-card__head">
        <Text className="grant-card__to">
          {grant.purpose === 'consultation' && (
            <Text className="grant-card__purpose">{grant.purposeLabel}</Text>
          )}
          {audienceLabel(grant)}
        </Text>
        <Text className={`grant-card__status grant-card__status--${grant.status}`}>
          {grant.statusLabel}
        </Text>
      </View>
      {grant.records.map((record) => (
        <Text key={`${record.kind}:${record.id}`} className="grant-card__record">
          {recordLabel(record)}
        </Text>
      ))}
      {showPerson && grant.personNameMasked && (
        <Text className="grant-card__meta">就诊人：{grant.personNameMasked}</Text>
      )}
      <Text className="grant-card__meta">{viewsLabel(grant)}</Text>
      <View className="grant-card__foot">
        <Text className="grant-card__meta">{expiryLabel(grant)}</Text>
        <View className="grant-card__actions">
          <Text className="grant-card__link">查看记录 ›</Text>
          {active && (
            <Button
              className="grant-card__cancel"
              size="small"
              fill="outline"
              type="danger"
              loading={cancelling}
              disabled={cancelling}
              onClick={(event) => {
                // The card's own tap opens the view log; 撤销 is not that.
                event.stopPropagation()
                onCancel(grant)
              }}
            >
              撤销
            </Button>
          )}
        </View>
      </View>
    </View>
  )
}
