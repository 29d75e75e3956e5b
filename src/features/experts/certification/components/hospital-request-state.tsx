import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { HospitalRequest } from '@/services/experts'

/*
 * How a hospital asked for through 找不到我的医院？ reads, wherever the application shows its
 * hospital (the form, 待审核, 已认证, 已驳回): the words of each state are written here only.
 */

/** The hospital's name as it reads now, and what its request's state adds in brackets. */
export function hospitalRequestLabel(request: HospitalRequest): { name: string; state: string } {
  if (request.status === 'pending') {
    return { name: request.name, state: '待添加，运营人员添加后自动更新' }
  }
  if (request.status === 'added')
    return { name: request.hospitalName ?? request.name, state: '已添加' }
  return { name: request.name, state: '未添加' }
}

/** One line: «name»（state）. */
export function hospitalRequestLine(request: HospitalRequest): string {
  const { name, state } = hospitalRequestLabel(request)
  return `${name}（${state}）`
}

export interface HospitalRequestNoteProps {
  request: HospitalRequest
  /** 重新选择医院 (declined): absent where the application cannot be changed now. */
  onRepick?: () => void
  /** Said instead of the action where the application cannot be changed now. */
  lockedNote?: string
  /** The application is already submitted: the review waits for the hospital. */
  submitted?: boolean
}

/**
 * Under the hospital: where it was asked for, and for an added one the directory's name; for a
 * declined one the operator's reason and the way to choose again.
 */
export function HospitalRequestNote({
  request,
  onRepick,
  lockedNote,
  submitted = false,
}: HospitalRequestNoteProps) {
  const place = [request.province, request.city].filter(Boolean).join(' · ')
  if (request.status === 'pending') {
    return (
      <View className="hospital-request-note">
        <Text className="hospital-request-note__text">
          {submitted
            ? `已申请添加（${place}）；运营人员添加医院后再审核您的申请，添加后会通知您。`
            : `已申请添加（${place}），添加后会通知您；您可以先提交，审核会等医院添加后进行。`}
        </Text>
      </View>
    )
  }
  if (request.status === 'added') {
    if (!request.hospitalName || request.hospitalName === request.name) return null
    return (
      <View className="hospital-request-note">
        <Text className="hospital-request-note__text">
          您申请的「{request.name}」已添加为「{request.hospitalName}」
        </Text>
      </View>
    )
  }
  return (
    <View className="hospital-request-note hospital-request-note--declined" role="alert">
      <Text className="hospital-request-note__text">
        「{request.name}」未添加，原因：{request.declineReason ?? '未说明'}
      </Text>
      {onRepick ? (
        <Button
          size="small"
          className="hospital-request-note__action"
          type="primary"
          fill="outline"
          onClick={onRepick}
        >
          重新选择医院
        </Button>
      ) : (
        lockedNote && <Text className="hospital-request-note__text">{lockedNote}</Text>
      )}
    </View>
  )
}
