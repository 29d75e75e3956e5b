import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import { Button, Input } from '@nutui/nutui-react-taro'
import {
  HOSPITAL_REQUEST_DECLINE_MAX,
  HOSPITAL_REQUEST_NAME_MAX,
  HOSPITAL_REQUEST_STATUS_LABELS,
  HOSPITAL_REQUEST_STATUSES,
} from '@contract/main/hospital-requests'
import { RefreshList } from '@/components/refresh-list'
import { describeError } from '@/services/api'
import type { DirectoryHospital } from '@/services/hospital-directory'
import type {
  HospitalRequestStatus,
  OperatorHospitalRequest,
} from '@/services/operator-hospital-requests'
import { timeFormat } from '@/utils/time'
import {
  declineReasonProblem,
  searchDirectory,
  type Settling,
  useHospitalRequests,
  useSettleHospitalRequest,
} from '../hooks/use-hospital-requests'
import { ReasonBox } from './reason-box'
import './experts.scss'

const EMPTY: Record<HospitalRequestStatus, string> = {
  pending: '没有待添加的医院申请',
  added: '还没有已添加的医院申请',
  declined: '没有未添加的医院申请',
}

const when = (at: string | null) => (at ? timeFormat(at, 'yyyy-mm-dd hh:MM') : '')

/** 添加为…: find the hospital in the directory (the requested name typed in), choose, confirm. */
function ResolveForm({
  request,
  settling,
  onClose,
}: {
  request: OperatorHospitalRequest
  settling: Settling
  onClose: () => void
}) {
  const [keyword, setKeyword] = useState(request.name)
  const [found, setFound] = useState<DirectoryHospital[] | null>(null)
  const [searchError, setSearchError] = useState<string | null>(null)
  const [chosen, setChosen] = useState<DirectoryHospital | null>(null)
  const search = async () => {
    setSearchError(null)
    setChosen(null)
    try {
      setFound(await searchDirectory(keyword))
    } catch (error) {
      setFound(null)
      setSearchError(describeError(error, '搜索失败，请稍后重试'))
    }
  }
  return (
    <View className="operator__reply hospital-request__resolve">
      <View className="expert-search__row">
        <Input
          className="operator__input expert-search__input"
          value={keyword}
          placeholder="在医院目录中搜索"
          maxLength={HOSPITAL_REQUEST_NAME_MAX}
          confirmType="search"
          aria-label="搜索目录中的医院"
          onChange={setKeyword}
          onConfirm={() => void search()}
        />
        <Button size="small" type="primary" onClick={() => void search()}>
          搜索
        </Button>
      </View>
      <Text className="operator__hint">若目录中没有，先在「医院」里新增，再回来选择。</Text>
      {searchError && (
        <View className="expert-review__error" role="alert">
          {searchError}
        </View>
      )}
      {found && found.length === 0 && (
        <Text className="operator__meta">目录中没有名称相符的医院</Text>
      )}
      {found && found.length > 0 && (
        <View className="hospital-request__found" role="radiogroup" aria-label="目录中的医院">
          {found.map((hospital) => {
            const on = chosen?.id === hospital.id
            return (
              <View
                key={hospital.id}
                role="radio"
                aria-checked={on}
                className={`hospital-request__option${on ? ' hospital-request__option--on' : ''}`}
                onClick={() => setChosen(hospital)}
              >
                <Text className="hospital-request__option-name">{hospital.name}</Text>
                <Text className="operator__meta">
                  {[hospital.province, hospital.city].join(' · ')}
                  {hospital.demo ? ' · 演示' : ''}
                </Text>
              </View>
            )
          })}
        </View>
      )}
      <View className="operator__actions">
        <Button
          size="small"
          type="primary"
          disabled={!chosen || settling.busyId === request.id}
          onClick={() => {
            if (!chosen) return
            void settling.resolve(request, chosen).then((done) => {
              if (done) onClose()
            })
          }}
        >
          {chosen ? `添加为「${chosen.name}」` : '请先选择目录中的医院'}
        </Button>
        <Button size="small" onClick={onClose}>
          取消
        </Button>
      </View>
    </View>
  )
}

/** 不予添加: the reason is required (the applicant reads it), by the contract's rules. */
function DeclineForm({
  request,
  settling,
  onClose,
}: {
  request: OperatorHospitalRequest
  settling: Settling
  onClose: () => void
}) {
  const [reason, setReason] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const submit = async () => {
    const found = declineReasonProblem(reason)
    setProblem(found)
    if (found) return
    if (await settling.decline(request, reason)) onClose()
  }
  return (
    <View className="operator__reply">
      <ReasonBox
        value={reason}
        placeholder="不予添加的原因（必填，申请人会看到它）"
        max={HOSPITAL_REQUEST_DECLINE_MAX}
        label="不予添加的原因"
        problem={problem}
        onChange={(value) => {
          setReason(value)
          if (problem) setProblem(null)
        }}
      />
      <View className="operator__actions">
        <Button
          size="small"
          type="primary"
          disabled={settling.busyId === request.id}
          onClick={() => void submit()}
        >
          确认不予添加
        </Button>
        <Button size="small" onClick={onClose}>
          取消
        </Button>
      </View>
    </View>
  )
}

type Editing = { id: string; action: 'resolve' | 'decline' } | null

function RequestRow({
  request,
  settling,
  editing,
  setEditing,
}: {
  request: OperatorHospitalRequest
  settling: Settling
  editing: Editing
  setEditing: (editing: Editing) => void
}) {
  const mine = editing?.id === request.id ? editing.action : null
  const close = () => setEditing(null)
  return (
    <View className="operator__row hospital-request">
      <View className="expert-queue__head">
        <Text className="operator__title expert-queue__name">{request.name}</Text>
        <Text className={`expert-status hospital-request__status--${request.status}`}>
          {request.statusLabel}
        </Text>
      </View>
      <Text className="operator__meta">
        {request.province} · {request.city}
        {request.address ? ` · ${request.address}` : ''}
      </Text>
      <Text className="operator__meta">
        申请人 {request.mobileMasked ?? '（已注销）'} · 待审核申请 {request.waitingApplications} 份
        · {when(request.createdAt)}
      </Text>
      {request.status === 'added' && (
        <Text className="operator__meta">
          已添加为「{request.hospitalName ?? '—'}」（{when(request.decidedAt)}）
        </Text>
      )}
      {request.status === 'declined' && (
        <Text className="expert-review__suspension">
          未添加原因：{request.declineReason}（{when(request.decidedAt)}）
        </Text>
      )}
      {request.status === 'pending' &&
        (mine === 'resolve' ? (
          <ResolveForm request={request} settling={settling} onClose={close} />
        ) : mine === 'decline' ? (
          <DeclineForm request={request} settling={settling} onClose={close} />
        ) : (
          <View className="operator__actions">
            <Button
              size="small"
              type="primary"
              onClick={() => setEditing({ id: request.id, action: 'resolve' })}
            >
              添加为…
            </Button>
            <Button size="small" onClick={() => setEditing({ id: request.id, action: 'decline' })}>
              不予添加
            </Button>
          </View>
        ))}
    </View>
  )
}

function Queue({ status }: { status: HospitalRequestStatus }) {
  const list = useHospitalRequests(status)
  const settling = useSettleHospitalRequest(list.refresh)
  const [editing, setEditing] = useState<Editing>(null)
  return (
    <RefreshList
      list={list}
      keyOf={(request) => request.id}
      emptyText={EMPTY[status]}
      renderItem={(request) => (
        <RequestRow
          request={request}
          settling={settling}
          editing={editing}
          setEditing={setEditing}
        />
      )}
    />
  )
}

/**
 * 医院申请: hospitals applicants for expert certification could not find (待添加 first, oldest
 * first), resolved with a directory hospital (添加为…) or declined with a reason.
 */
export function HospitalRequestsPanel() {
  const [status, setStatus] = useState<HospitalRequestStatus>('pending')
  return (
    <View>
      <View className="operator__chips expert-filter" role="radiogroup" aria-label="申请状态">
        {HOSPITAL_REQUEST_STATUSES.map((key) => (
          <View
            key={key}
            role="radio"
            aria-checked={key === status}
            className={`operator__chip${key === status ? ' operator__chip--on' : ''}`}
            onClick={() => setStatus(key)}
          >
            {HOSPITAL_REQUEST_STATUS_LABELS[key]}
          </View>
        ))}
      </View>
      {status === 'pending' && (
        <Text className="operator__hint">
          专家认证申请人找不到的医院，先提交的在前。核实后用「添加为…」关联到目录中的医院，等待它的认证申请随之更新；核实不了的写明原因不予添加。
        </Text>
      )}
      <Queue key={status} status={status} />
    </View>
  )
}
