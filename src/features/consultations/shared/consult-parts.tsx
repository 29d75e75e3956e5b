import { Image, Text, View } from '@tarojs/components'
import { CONSULT_NOTICE, type ConsultCard, type ConsultState } from '@/services/consultations'
import { mediaUrl } from '@/services/media'
import './consult-parts.scss'

/*
 * Pieces both sides of a consultation draw the same way: the notice every consultation page shows,
 * the state as a coloured tag, and the expert as a small card.
 */

/** 本服务为健康咨询及影像解读，不能替代线下面诊，不开具处方 (互联网诊疗管理办法 art. 16). */
export function ConsultNotice() {
  return (
    <View className="consult-notice" role="note">
      <Text className="consult-notice__mark">!</Text>
      <Text className="consult-notice__text">{CONSULT_NOTICE}</Text>
    </View>
  )
}

type Tone = 'waiting' | 'active' | 'done' | 'closed'

const TONE: Record<ConsultState, Tone> = {
  'pending-payment': 'waiting',
  'waiting-accept': 'waiting',
  'in-progress': 'active',
  answered: 'active',
  completed: 'done',
  cancelled: 'closed',
  declined: 'closed',
  expired: 'closed',
}

/** The state as the server words it (stateLabel), coloured by what it means for the person. */
export function ConsultStatusTag({ state, label }: { state: ConsultState; label: string }) {
  return <Text className={`consult-status consult-status--${TONE[state]}`}>{label}</Text>
}

type ConsultExpert = ConsultCard['expert']

/** Photo (or the first character), name, title, hospital and department. */
export function ExpertMiniCard({ expert }: { expert: ConsultExpert }) {
  return (
    <View className="expert-mini">
      {expert.photoPath ? (
        <Image
          className="expert-mini__photo"
          src={mediaUrl(expert.photoPath)}
          mode="aspectFill"
          aria-label={`${expert.name}的照片`}
        />
      ) : (
        <View className="expert-mini__photo expert-mini__photo--initial" aria-hidden>
          <Text>{expert.name.slice(0, 1)}</Text>
        </View>
      )}
      <View className="expert-mini__text">
        <View className="expert-mini__name-row">
          <Text className="expert-mini__name">{expert.name}</Text>
          <Text className="expert-mini__title">{expert.titleLabel}</Text>
        </View>
        <Text className="expert-mini__place">
          {expert.hospitalName} · {expert.department}
        </Text>
      </View>
    </View>
  )
}
