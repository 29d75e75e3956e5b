import { Image, Text, View } from '@tarojs/components'
import type { ExpertCard, ExpertService } from '@/services/expert-profiles'
import { mediaUrl } from '@/services/media'
import { yuanText } from '@/utils/money'

/** The photo, or the name's first character drawn in the brand colour when there is none. */
export function ExpertAvatar({ expert, size }: { expert: ExpertCard; size: 'small' | 'large' }) {
  const className = `expert-avatar expert-avatar--${size}`
  if (expert.photoPath) {
    return (
      <Image
        className={className}
        src={mediaUrl(expert.photoPath)}
        mode="aspectFill"
        lazyLoad
        aria-label={`${expert.name}的照片`}
      />
    )
  }
  return (
    <View className={`${className} expert-avatar--initial`} aria-hidden>
      <Text>{expert.name.slice(0, 1)}</Text>
    </View>
  )
}

/** 接诊中 or 暂停接诊, as the expert set it. */
export function AcceptingBadge({ accepting }: { accepting: boolean }) {
  return (
    <Text className={`expert-status${accepting ? '' : ' expert-status--paused'}`}>
      {accepting ? '接诊中' : '暂停接诊'}
    </Text>
  )
}

export function DemoBadge() {
  return <Text className="expert-demo">演示专家</Text>
}

export function SpecialityTags({ items, max }: { items: readonly string[]; max?: number }) {
  if (items.length === 0) return null
  const shown = max === undefined ? items : items.slice(0, max)
  const more = items.length - shown.length
  return (
    <View className="expert-tags" aria-label="擅长方向">
      {shown.map((item) => (
        <Text key={item} className="expert-tags__tag">
          {item}
        </Text>
      ))}
      {more > 0 && <Text className="expert-tags__more">+{more}</Text>}
    </View>
  )
}

/** The services an expert offers now (enabled), each with its price. */
export function enabledServices(services: readonly ExpertService[]): ExpertService[] {
  return services.filter((service) => service.enabled)
}

export function priceOf(service: ExpertService): string {
  return yuanText(service.priceFen)
}
