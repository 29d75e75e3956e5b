import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { Checked, Star, StarFill } from '@nutui/icons-react-taro'
import { PageState } from '@/components/page-state'
import type { ExpertProfile, ExpertService, ExpertStats } from '@/services/expert-profiles'
import { THEME } from '@/theme'
import { timeFormat } from '@/utils/time'
import type { ExpertProfileModel } from '../hooks/use-expert-profile'
import {
  AcceptingBadge,
  DemoBadge,
  enabledServices,
  ExpertAvatar,
  priceOf,
  SpecialityTags,
} from './expert-parts'
import './experts.scss'

/** 首次回复 as a person reads it: minutes under an hour, else hours with one decimal. */
export function answerTimeText(minutes: number): string {
  if (minutes < 60) return `${Math.max(1, Math.round(minutes))} 分钟`
  return `${(Math.round(minutes / 6) / 10).toString()} 小时`
}

/**
 * The figures a patient judges an expert by. Before the first answered consultation there are
 * none, and the page says so: zeros would read as a bad doctor.
 */
function StatsSection({ stats }: { stats: ExpertStats | null }) {
  if (!stats) {
    return (
      <View className="expert-profile__section">
        <Text className="expert-profile__heading">咨询数据</Text>
        <Text className="expert-profile__muted">
          暂无咨询数据：有完成的咨询后，这里显示回复数、采纳率、首次回复用时和患者评分
        </Text>
      </View>
    )
  }
  const figures = [
    { label: '已回复', value: `${stats.answered}` },
    {
      label: '采纳率',
      value: stats.adoptionRate === null ? '—' : `${Math.round(stats.adoptionRate * 100)}%`,
    },
    {
      label: '首次回复',
      value:
        stats.medianFirstAnswerMinutes === null
          ? '—'
          : answerTimeText(stats.medianFirstAnswerMinutes),
    },
    {
      label: stats.rating === null ? '暂无评分' : `评分（${stats.ratingCount} 人）`,
      value: stats.rating === null ? '—' : stats.rating.toFixed(1),
    },
  ]
  return (
    <View className="expert-profile__section">
      <Text className="expert-profile__heading">咨询数据</Text>
      <View className="expert-profile__figures">
        {figures.map((figure) => (
          <View key={figure.label} className="expert-profile__figure">
            <Text className="expert-profile__figure-value">{figure.value}</Text>
            <Text className="expert-profile__figure-label">{figure.label}</Text>
          </View>
        ))}
      </View>
    </View>
  )
}

function ServiceRow({
  service,
  accepting,
  self,
  onConsult,
}: {
  service: ExpertService
  accepting: boolean
  self: boolean
  onConsult: (service: ExpertService) => void
}) {
  return (
    <View className="expert-service">
      <View className="expert-service__text">
        <Text className="expert-service__name">{service.label}</Text>
        <Text className="expert-service__promise">{service.hours} 小时内回复</Text>
      </View>
      <Text className="expert-service__price">{priceOf(service)}</Text>
      {!self && (
        <View
          role="button"
          aria-disabled={!accepting}
          aria-label={accepting ? `${service.label}，咨询` : `${service.label}，专家暂停接诊`}
          className={`expert-service__consult${accepting ? '' : ' expert-service__consult--paused'}`}
          onClick={() => onConsult(service)}
        >
          <Text className="expert-service__consult-text">{accepting ? '咨询' : '暂停接诊'}</Text>
        </View>
      )}
    </View>
  )
}

export interface ExpertProfileViewProps {
  model: ExpertProfileModel
  /** Signed out: 收藏 goes to login first, and back here. */
  onNeedLogin: () => void
  onEdit: () => void
  onConsult: (service: ExpertService, profile: ExpertProfile) => void
  onMissing: () => void
}

/**
 * 专家主页: who the expert is, that their practice certificate was checked and when (never a
 * number), what they offer at what price and how fast, their figures, and 收藏.
 */
export function ExpertProfileView({
  model,
  onNeedLogin,
  onEdit,
  onConsult,
  onMissing,
}: ExpertProfileViewProps) {
  const { profile, favourite } = model
  if (model.status === 'missing') {
    return (
      <PageState
        status="empty"
        message={model.error}
        action={{ text: '返回', onClick: onMissing }}
      />
    )
  }
  if (model.status === 'loading' && !profile) return <PageState status="loading" />
  if (model.status === 'error' || !profile) {
    return <PageState status="error" message={model.error} onRetry={model.retry} />
  }
  const services = enabledServices(profile.services)
  const hospital = profile.hospital
  return (
    <View className="expert-profile">
      <View className="expert-profile__card">
        <View className="expert-profile__who">
          <ExpertAvatar expert={profile} size="large" />
          <View className="expert-profile__names">
            <View className="expert-profile__name-row">
              <Text className="expert-profile__name">{profile.name}</Text>
              <Text className="expert-profile__title">{profile.titleLabel}</Text>
            </View>
            <Text className="expert-profile__place">
              {hospital.name} · {profile.department}
            </Text>
            <View className="expert-profile__badges">
              <AcceptingBadge accepting={profile.accepting} />
              {profile.demo && <DemoBadge />}
            </View>
          </View>
        </View>
        <View className="expert-profile__verified">
          <Checked size={14} color={THEME.primary} />
          <Text className="expert-profile__verified-text">
            执业信息已核验 · {timeFormat(profile.certifiedAt, 'yyyy-mm-dd')}
          </Text>
        </View>
        <Text className="expert-profile__muted">
          平台已对照国家医师执业注册信息，核验其医师资格和执业医院
        </Text>
        <View className="expert-profile__actions">
          {profile.self ? (
            <>
              <Text className="expert-profile__count">收藏 {favourite.count}</Text>
              <Button className="expert-profile__edit" type="primary" size="small" onClick={onEdit}>
                编辑主页
              </Button>
            </>
          ) : (
            <View
              role="button"
              aria-pressed={favourite.on}
              aria-label={
                favourite.on
                  ? `已收藏，${favourite.count} 人收藏`
                  : `收藏，${favourite.count} 人收藏`
              }
              className={`expert-profile__favourite${favourite.on ? ' expert-profile__favourite--on' : ''}`}
              onClick={() => (model.signedIn ? void favourite.toggle() : onNeedLogin())}
            >
              {favourite.on ? (
                <StarFill size={16} color={THEME.primary} />
              ) : (
                <Star size={16} color="#666666" />
              )}
              <Text>
                {favourite.on ? '已收藏' : '收藏'} {favourite.count}
              </Text>
            </View>
          )}
        </View>
      </View>

      <View className="expert-profile__section">
        <Text className="expert-profile__heading">擅长方向</Text>
        {profile.specialities.length > 0 ? (
          <SpecialityTags items={profile.specialities} />
        ) : (
          <Text className="expert-profile__muted">暂未填写</Text>
        )}
      </View>

      <View className="expert-profile__section">
        <Text className="expert-profile__heading">个人简介</Text>
        <Text className="expert-profile__intro">
          {profile.introduction.trim() === '' ? '暂未填写简介' : profile.introduction}
        </Text>
      </View>

      <View className="expert-profile__section">
        <View className="expert-profile__heading-row">
          <Text className="expert-profile__heading">咨询服务</Text>
          {!profile.accepting && (
            <Text className="expert-profile__paused">专家暂停接诊，暂不接受新的咨询</Text>
          )}
        </View>
        {services.length === 0 ? (
          <Text className="expert-profile__muted">暂未开通咨询服务</Text>
        ) : (
          services.map((service) => (
            <ServiceRow
              key={service.kind}
              service={service}
              accepting={profile.accepting}
              self={profile.self}
              onConsult={(chosen) => onConsult(chosen, profile)}
            />
          ))
        )}
      </View>

      <StatsSection stats={profile.stats} />
    </View>
  )
}
