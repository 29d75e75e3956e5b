import { Text, View } from '@tarojs/components'
import type { ExpertCard as Expert } from '@/services/expert-profiles'
import {
  AcceptingBadge,
  DemoBadge,
  enabledServices,
  ExpertAvatar,
  priceOf,
  SpecialityTags,
} from './expert-parts'

/** One expert in 找专家: who, where, what they are good at, and what they offer at what price. */
export function ExpertCard({ expert, onOpen }: { expert: Expert; onOpen: () => void }) {
  const services = enabledServices(expert.services)
  return (
    <View
      className="expert-card"
      role="link"
      aria-label={`${expert.name} ${expert.titleLabel} ${expert.hospital.name}`}
      onClick={onOpen}
    >
      <ExpertAvatar expert={expert} size="small" />
      <View className="expert-card__main">
        <View className="expert-card__head">
          <Text className="expert-card__name">{expert.name}</Text>
          <Text className="expert-card__title">{expert.titleLabel}</Text>
          {expert.demo && <DemoBadge />}
          <View className="expert-card__status">
            <AcceptingBadge accepting={expert.accepting} />
          </View>
        </View>
        <Text className="expert-card__place">
          {expert.hospital.name} · {expert.department}
        </Text>
        <SpecialityTags items={expert.specialities} max={4} />
        <View className="expert-card__services">
          {services.length === 0 ? (
            <Text className="expert-card__service expert-card__service--none">
              暂未开通咨询服务
            </Text>
          ) : (
            services.map((service) => (
              <Text key={service.kind} className="expert-card__service">
                {service.label}
                <Text className="expert-card__price"> {priceOf(service)}</Text>
              </Text>
            ))
          )}
        </View>
      </View>
    </View>
  )
}
